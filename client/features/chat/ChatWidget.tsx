import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { ZChatInput } from '../../../shared/schemas/chat';
import { trpc } from '../../trpc';

type Message = z.infer<typeof ZChatInput>['messages'][number];

/** The floating assistant on the landing page: open or closed; ignores empty input and input while a reply is pending. */
export function ChatWidget({ phone, context }: { phone: string; context?: string }) {
  const [open, setOpen] = useState(false);
  const [messages, setMessages] = useState<Message[]>([]);
  const [draft, setDraft] = useState('');
  // Pre-rendered on the landing page: a tap before this part has hydrated would be lost, so the button
  // shows as not yet usable until then (the server and the first browser render agree on that).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const ask = trpc.chatbot.ask.useMutation();
  const listRef = useRef<HTMLOListElement>(null);

  const count = messages.length;
  useEffect(() => {
    if (count > 0) listRef.current?.scrollTo({ top: listRef.current.scrollHeight });
  }, [count]);

  async function send(e: FormEvent) {
    e.preventDefault();
    const text = draft.trim();
    if (!text || ask.isPending) return;
    const next: Message[] = [...messages, { role: 'user' as const, content: text }].slice(-20);
    setMessages(next);
    setDraft('');
    try {
      const { answer } = await ask.mutateAsync({ messages: next, ...(context ? { context } : {}) });
      const reply =
        answer.trim() ||
        `I could not reach the assistant right now. Please call ${phone} for immediate support.`;
      setMessages((m) => [...m, { role: 'assistant', content: reply }]);
    } catch {
      setMessages((m) => [
        ...m,
        {
          role: 'assistant',
          content: `Sorry, I could not reach the assistant right now. Kindly retry or call ${phone}.`,
        },
      ]);
    }
  }

  return (
    <div className="chat">
      {open ? (
        <section className="chat__panel card" aria-label="Chat with dispatch">
          <div className="button-row" style={{ justifyContent: 'space-between' }}>
            <strong>Ask dispatch</strong>
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => setOpen(false)}
            >
              Close chat
            </button>
          </div>
          <ol className="chat__messages" ref={listRef} aria-live="polite">
            {messages.length === 0 ? (
              <li className="muted">Ask about prices, payment, hours or how to order.</li>
            ) : null}
            {messages.map((m, i) => (
              // Messages only ever append, so the position is a stable key.
              // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
              <li key={i} className={m.role === 'user' ? 'chat__msg chat__msg--user' : 'chat__msg'}>
                {m.content}
              </li>
            ))}
            {ask.isPending ? <li className="muted">Typing…</li> : null}
          </ol>
          <form className="inline-form" onSubmit={send}>
            <input
              aria-label="Your question"
              placeholder="e.g. price to Ruiru for 2 trucks"
              value={draft}
              maxLength={2000}
              onChange={(e) => setDraft(e.target.value)}
              style={{ flex: 1, maxWidth: 'none' }}
            />
            <button type="submit" className="button button--small" disabled={ask.isPending}>
              Send
            </button>
          </form>
        </section>
      ) : (
        <button
          type="button"
          className="button chat__open"
          disabled={!hydrated}
          onClick={() => setOpen(true)}
        >
          Chat with us
        </button>
      )}
    </div>
  );
}
