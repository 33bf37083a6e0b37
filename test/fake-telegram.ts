import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of the Telegram Bot API (sendMessage only, the real wire format): records each message,
 * answers 429 with retry_after when asked to, or a permanent error code. With `answerAfterMs` it records a
 * message when it arrives and answers that long after (the window in which a killed sender cannot know).
 */
export function fakeTelegram(options: { answerAfterMs?: number } = {}) {
  const sent: Array<{ chatId: string; text: string }> = [];
  let throttleNext = 0;
  let refuseWith: number | undefined;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      const fail = (code: number, description: string, extra: object = {}) => {
        res.statusCode = code;
        res.end(JSON.stringify({ ok: false, error_code: code, description, ...extra }));
      };
      if (!/\/bot[^/]+\/sendMessage$/.test(req.url ?? '')) return fail(404, 'Not Found');
      if (throttleNext > 0) {
        throttleNext -= 1;
        return fail(429, 'Too Many Requests: retry after 1', { parameters: { retry_after: 1 } });
      }
      if (refuseWith)
        return fail(
          refuseWith,
          refuseWith === 403 ? 'Forbidden: bot was blocked by the user' : 'Bad Request: chat not found',
        );
      const msg = JSON.parse(body);
      sent.push({ chatId: String(msg.chat_id), text: msg.text });
      const answer = () =>
        res.end(
          JSON.stringify({
            ok: true,
            result: {
              message_id: sent.length,
              date: 0,
              chat: { id: Number(msg.chat_id), type: 'private' },
              text: msg.text,
            },
          }),
        );
      if (options.answerAfterMs) setTimeout(answer, options.answerAfterMs);
      else answer();
    });
  });
  return {
    sent,
    throttle(n: number) {
      throttleNext = n;
    },
    refuse(code: number | undefined) {
      refuseWith = code;
    },
    start: () =>
      new Promise<string>((r) =>
        server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
