import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { ZChatInput } from '../../../shared/schemas/chat';
import { useLandingT } from '../../i18n/landing';
import { trpc } from '../../trpc';

type Message = z.infer<typeof ZChatInput>['messages'][number];

/** The floating assistant on the landing page: open or closed; ignores empty input and input while a reply is pending. */
export function ChatWidget({ phone, context }: { phone: string; context?: string }) {
  // The landing page's own `t` (no i18next): English in the pre-rendered page and at hydration, the
  // device's language right after.
  const { t } = useLandingT();
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
      const reply = answer.trim() || t('chat.noAnswer', { phone });
      setMessages((m) => [...m, { role: 'assistant', content: reply }]);
    } catch {
      setMessages((m) => [...m, { role: 'assistant', content: t('chat.failed', { phone }) }]);
    }
  }

  return (
    <div className="chat">
      {open ? (
        <section className="chat__panel card" aria-label={t('chat.panel')}>
          <div className="button-row" style={{ justifyContent: 'space-between' }}>
            <strong>{t('chat.title')}</strong>
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => setOpen(false)}
            >
              {t('chat.close')}
            </button>
          </div>
          <ol className="chat__messages" ref={listRef} aria-live="polite">
            {messages.length === 0 ? <li className="muted">{t('chat.empty')}</li> : null}
            {messages.map((m, i) => (
              // Messages only ever append, so the position is a stable key.
              // biome-ignore lint/suspicious/noArrayIndexKey: append-only list
              <li key={i} className={m.role === 'user' ? 'chat__msg chat__msg--user' : 'chat__msg'}>
                {m.content}
              </li>
            ))}
            {ask.isPending ? <li className="muted">{t('chat.typing')}</li> : null}
          </ol>
          <form className="inline-form" onSubmit={send}>
            <input
              aria-label={t('chat.question')}
              placeholder={t('chat.placeholder')}
              value={draft}
              maxLength={2000}
              onChange={(e) => setDraft(e.target.value)}
              style={{ flex: 1, maxWidth: 'none' }}
            />
            <button type="submit" className="button button--small" disabled={ask.isPending}>
              {t('chat.send')}
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
          {t('chat.open')}
        </button>
      )}
    </div>
  );
}
