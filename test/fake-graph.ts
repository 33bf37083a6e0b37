import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WA_LIMITS } from '../shared/whatsapp/graph';
import { statusWebhook } from './fixtures/whatsapp';

/** A request the fake took, as it came. */
export interface GraphRequest {
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown>;
}

/** Delivers a webhook body to the app (raw text and its signature header). */
export type DeliverWebhook = (raw: string, signature: string) => Promise<void>;

/**
 * A local fake of the WhatsApp Business Cloud API (Graph API) speaking its documented format:
 * POST /{version}/{phone-number-id}/messages with a bearer token; text, interactive (reply buttons ≤ 3 with
 * titles ≤ 20, lists ≤ 10 rows with titles ≤ 24, location requests), image and template messages; answers
 * `{ messaging_product, contacts: [{ input, wa_id }], messages: [{ id: "wamid…" }] }`, or Meta's error
 * object `{ error: { message, type, code, error_data: { details }, fbtrace_id } }`. It keeps the 24-hour
 * customer service window per number (opened by `openWindow`, as an inbound message does): a free-form
 * message outside it is refused with 131047, as Meta does. Templates must be approved (name + language).
 * Numbers set with `notOnWhatsApp` are accepted, then reported failed (131026) through a signed status
 * webhook, as Meta does for a number without WhatsApp.
 */
export function fakeGraph(options: {
  phoneNumberId: string;
  accessToken: string;
  appSecret: string;
  templates: Array<{ name: string; language: string }>;
  deliver?: DeliverWebhook;
  now?: () => Date;
}) {
  const requests: GraphRequest[] = [];
  const windows = new Map<string, number>();
  const notOnWhatsApp = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  let refuseNext: { code: number; status: number; message: string } | undefined;
  let seq = 0;
  const now = () => (options.now ?? (() => new Date()))().getTime();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, code: number, message: string, details?: string) =>
    send(res, status, {
      error: {
        message,
        type: 'OAuthException',
        code,
        ...(details ? { error_data: { messaging_product: 'whatsapp', details } } : {}),
        fbtrace_id: `AbCdEf${seq}`,
      },
    });
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => resolve(text));
    });

  /** Why Meta would refuse this message's shape (131009 "Parameter value is not valid"), if it would. */
  function invalid(body: Record<string, unknown>): string | undefined {
    const type = body.type;
    if (type === 'text') {
      const t = (body.text as { body?: unknown })?.body;
      return typeof t === 'string' && t.length > 0 && t.length <= WA_LIMITS.text ? undefined : 'text.body';
    }
    if (type === 'interactive') {
      const i = body.interactive as {
        type?: string;
        body?: { text?: string };
        action?: {
          buttons?: Array<{ type: string; reply: { id: string; title: string } }>;
          button?: string;
          sections?: Array<{ rows: Array<{ id: string; title: string; description?: string }> }>;
          name?: string;
        };
      };
      if (!i?.body?.text) return 'interactive.body.text';
      if (i.type === 'button') {
        const b = i.action?.buttons ?? [];
        if (b.length < 1 || b.length > WA_LIMITS.buttons) return 'action.buttons count';
        if (b.some((x) => x.type !== 'reply' || !x.reply.id || !x.reply.title || x.reply.title.length > 20))
          return 'button title';
        return undefined;
      }
      if (i.type === 'list') {
        const rows = (i.action?.sections ?? []).flatMap((s) => s.rows);
        if (!i.action?.button || i.action.button.length > WA_LIMITS.listButton) return 'action.button';
        if (rows.length < 1 || rows.length > WA_LIMITS.listRows) return 'rows count';
        if (rows.some((r) => !r.id || r.title.length > WA_LIMITS.rowTitle)) return 'row title';
        return undefined;
      }
      if (i.type === 'location_request_message')
        return i.action?.name === 'send_location' ? undefined : 'action.name';
      return 'interactive.type';
    }
    if (type === 'image') return (body.image as { link?: string })?.link ? undefined : 'image.link';
    if (type === 'template') return undefined;
    return 'type';
  }

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const m = /^\/v\d+\.\d+\/(\d+)\/messages$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) return error(res, 400, 100, 'Unsupported post request.');
    if (req.headers.authorization !== `Bearer ${options.accessToken}`)
      return error(res, 401, 190, 'Invalid OAuth access token - Cannot parse access token');
    if (m[1] !== options.phoneNumberId)
      return error(res, 400, 100, 'Unsupported post request. Object with ID does not exist');
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw);
    } catch {
      return error(res, 400, 100, 'Invalid parameter');
    }
    requests.push({ path: req.url!, authorization: req.headers.authorization, body });
    if (body.messaging_product !== 'whatsapp')
      return error(res, 400, 100, 'The parameter messaging_product is required.');
    if (body.status === 'read') return send(res, 200, { success: true });
    const to = String(body.to ?? '');
    if (!/^\d{8,15}$/.test(to)) return error(res, 400, 100, 'Invalid parameter', 'to');
    if (refuseNext) {
      const r = refuseNext;
      refuseNext = undefined;
      return error(res, r.status, r.code, r.message);
    }
    const bad = invalid(body);
    if (bad) return error(res, 400, 131009, 'Parameter value is not valid', bad);
    if (body.type === 'template') {
      const t = body.template as { name?: string; language?: { code?: string } };
      if (!options.templates.some((x) => x.name === t.name && x.language === t.language?.code))
        return error(
          res,
          404,
          132001,
          'Template name does not exist in the translation',
          `template name (${t.name}) does not exist in ${t.language?.code}`,
        );
    } else if ((windows.get(to) ?? 0) < now() && !notOnWhatsApp.has(to)) {
      return error(
        res,
        400,
        131047,
        'Re-engagement message',
        'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
      );
    }
    seq += 1;
    const id = `wamid.HBgMMjU0NzEyMzQ1Njc4FQIAERgS${String(seq).padStart(6, '0')}`;
    send(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id }],
    });
    if (notOnWhatsApp.has(to) && options.deliver) {
      const raw = JSON.stringify(
        statusWebhook(options.phoneNumberId, to, id, 'failed', {
          code: 131026,
          title: 'Message undeliverable',
        }),
      );
      const p = options.deliver(raw, sign(raw)).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  });

  const sign = (raw: string) => `sha256=${createHmac('sha256', options.appSecret).update(raw).digest('hex')}`;

  return {
    requests,
    /** Messages sent (read receipts left out). */
    get messages() {
      return requests.filter((r) => r.body.status !== 'read').map((r) => r.body);
    },
    sign,
    /** The customer wrote: free-form messages may go to them for 24 hours. */
    openWindow(to: string, at = now()) {
      windows.set(to, at + 24 * 3600_000);
    },
    closeWindow(to: string) {
      windows.delete(to);
    },
    notOnWhatsApp(to: string) {
      notOnWhatsApp.add(to);
    },
    /** The next send is refused with Meta's code (HTTP status 400 unless given). */
    refuseNext(code: number, message: string, status = 400) {
      refuseNext = { code, status, message };
    },
    /** Waits for the status webhooks the fake is still delivering. */
    settle: () => Promise.all([...inFlight]).then(() => undefined),
    start: () =>
      new Promise<string>((r) =>
        server.listen(0, '127.0.0.1', () =>
          r(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v23.0`),
        ),
      ),
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
