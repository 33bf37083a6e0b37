import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { smsLength } from '../shared/domain/sms';

/** An SMS the fake took, with its form fields as they came. */
export interface AtSent {
  username: string;
  to: string;
  message: string;
  from: string | null;
  apiKey: string | undefined;
  messageId: string;
}

/** Posts a form to the app's callback (raw urlencoded body). */
export type DeliverForm = (form: string) => Promise<void>;

const STATUS_TEXT: Record<number, string> = {
  101: 'Success',
  403: 'InvalidPhoneNumber',
  405: 'InsufficientBalance',
  406: 'UserInBlacklist',
  407: 'CouldNotRoute',
  500: 'InternalServerError',
};

/**
 * A local fake of Africa's Talking's SMS API speaking its documented format: POST /version1/messaging,
 * `apiKey` header, form fields username, to, message and from; answers 201
 * `{ SMSMessageData: { Message, Recipients: [{ statusCode, number, status, cost, messageId, messageParts }] } }`,
 * 401 text for a wrong key. A number may be scripted to a status code (406 blacklisted, 403 invalid). With
 * `deliver` it posts delivery reports (id, status, phoneNumber, networkCode, failureReason, retryCount) as
 * Africa's Talking does, form-encoded.
 */
export function fakeAfricasTalking(options: { username: string; apiKey: string; deliver?: DeliverForm }) {
  const sent: AtSent[] = [];
  const scripted = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let seq = 0;
  let down = false;

  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => resolve(text));
    });
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/version1/messaging') {
      res.statusCode = 404;
      return res.end('Not Found');
    }
    if (down) {
      res.statusCode = 500;
      return res.end('Internal Server Error');
    }
    if (req.headers.apikey !== options.apiKey) {
      res.statusCode = 401;
      return res.end('The supplied authentication is invalid');
    }
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      res.statusCode = 400;
      return res.end('Request is missing required form field');
    }
    const form = new URLSearchParams(raw);
    if (form.get('username') !== options.username) {
      res.statusCode = 401;
      return res.end('The supplied authentication is invalid');
    }
    const to = form.get('to') ?? '';
    const message = form.get('message') ?? '';
    if (!to || !message) {
      res.statusCode = 400;
      return res.end('Request is missing required form field');
    }
    const code = /^\+2547\d{8}$|^\+2541\d{8}$/.test(to) ? (scripted.get(to) ?? 101) : 403;
    seq += 1;
    const messageId = code === 101 ? `ATXid_${String(seq).padStart(8, '0')}` : 'None';
    sent.push({
      username: form.get('username')!,
      to,
      message,
      from: form.get('from'),
      apiKey: req.headers.apikey as string | undefined,
      messageId,
    });
    const parts = smsLength(message).segments;
    const cost = code === 101 ? `KES ${(0.8 * parts).toFixed(4)}` : '0';
    json(res, 201, {
      SMSMessageData: {
        Message: code === 101 ? `Sent to 1/1 Total Cost: ${cost}` : 'Sent to 0/1 Total Cost: 0',
        Recipients: [
          {
            statusCode: code,
            number: to,
            status: STATUS_TEXT[code] ?? 'Failed',
            cost,
            messageId,
            messageParts: parts,
          },
        ],
      },
    });
  });

  return {
    sent,
    /** This number's next sends get this status code (406 opted out, 403 invalid, …). */
    script(to: string, statusCode: number) {
      scripted.set(to, statusCode);
    },
    /** Africa's Talking itself failing (HTTP 500). */
    setDown(value: boolean) {
      down = value;
    },
    /** Posts a delivery report for a sent message to the app. */
    report(messageId: string, status: string, extra: Record<string, string> = {}) {
      if (!options.deliver) throw new Error('no deliver');
      const s = sent.find((x) => x.messageId === messageId);
      const form = new URLSearchParams({
        id: messageId,
        status,
        phoneNumber: s?.to ?? '',
        networkCode: '63902',
        retryCount: '0',
        ...extra,
      }).toString();
      const p = options.deliver(form).finally(() => inFlight.delete(p));
      inFlight.add(p);
      return p;
    },
    settle: () => Promise.all([...inFlight]).then(() => undefined),
    start: () =>
      new Promise<string>((r) =>
        server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
