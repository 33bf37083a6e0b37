import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Meta signs every webhook POST: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the
 * app secret>`. The raw bytes as they arrived, never a re-serialised parse (Meta escapes non-ASCII as
 * \uXXXX, which JSON.stringify would not). Compared in constant time; no secret, no pass.
 */
export function signatureValid(raw: Buffer, header: string | undefined, secret: string | undefined): boolean {
  if (!secret || !header) return false;
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  const given = Buffer.from(m[1]!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The subscription handshake: the challenge to echo, or null when the mode or token is wrong. */
export function verificationChallenge(
  query: Record<string, unknown>,
  verifyToken: string | undefined,
): string | null {
  if (!verifyToken) return null;
  const mode = query['hub.mode'];
  const token = query['hub.verify_token'];
  const challenge = query['hub.challenge'];
  if (mode !== 'subscribe' || typeof token !== 'string' || typeof challenge !== 'string') return null;
  const a = Buffer.from(token);
  const b = Buffer.from(verifyToken);
  return a.length === b.length && timingSafeEqual(a, b) ? challenge : null;
}

/** A customer's message, read from the webhook (the kinds the conversation understands). */
export interface InboundMessage {
  /** Meta's message id (wamid…): the idempotency key. */
  id: string;
  /** The sender's WhatsApp number (digits, country code first). */
  from: string;
  at: Date;
  profileName: string | null;
  kind: 'text' | 'reply' | 'location' | 'other';
  /** What the customer wrote, or the title of the button or row they tapped. */
  text: string;
  /** The id of the button or list row tapped (or a template quick reply's payload). */
  replyId: string | null;
  location: { lat: number; lng: number; name: string | null; address: string | null } | null;
  /** The message type Meta named (image, audio, sticker, …) for `other`. */
  type: string;
}

/** A delivery report on a message we sent. */
export interface StatusUpdate {
  messageId: string;
  status: 'sent' | 'delivered' | 'read' | 'failed' | 'deleted';
  at: Date;
  recipient: string | null;
  errorCode: number | null;
  errorTitle: string | null;
}

export interface WebhookEvents {
  phoneNumberId: string | null;
  messages: InboundMessage[];
  statuses: StatusUpdate[];
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);
const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const arr = (v: unknown) => (Array.isArray(v) ? (v as unknown[]) : []);
const when = (v: unknown) => {
  const n = Number(v);
  return new Date(Number.isFinite(n) ? n * 1000 : Number.NaN);
};

function inbound(m: Record<string, unknown>, names: Map<string, string>): InboundMessage | null {
  const id = str(m.id);
  const from = str(m.from);
  if (!id || !from) return null;
  const type = str(m.type) ?? 'unknown';
  const base = {
    id,
    from,
    at: when(m.timestamp),
    profileName: names.get(from) ?? null,
    type,
    replyId: null,
    location: null,
  };
  if (type === 'text') return { ...base, kind: 'text', text: str(obj(m.text).body) ?? '' };
  if (type === 'interactive') {
    const i = obj(m.interactive);
    const reply = obj(i.button_reply ?? i.list_reply);
    return { ...base, kind: 'reply', text: str(reply.title) ?? '', replyId: str(reply.id) };
  }
  if (type === 'button') {
    const b = obj(m.button);
    return { ...base, kind: 'reply', text: str(b.text) ?? '', replyId: str(b.payload) };
  }
  if (type === 'location') {
    const l = obj(m.location);
    const lat = Number(l.latitude);
    const lng = Number(l.longitude);
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return { ...base, kind: 'other', text: '' };
    return {
      ...base,
      kind: 'location',
      text: str(l.name) ?? str(l.address) ?? '',
      location: { lat, lng, name: str(l.name), address: str(l.address) },
    };
  }
  return { ...base, kind: 'other', text: '' };
}

const STATUSES = new Set(['sent', 'delivered', 'read', 'failed', 'deleted']);

/** What a webhook body carries: customers' messages and reports on ours; anything else is skipped. */
export function parseWebhook(body: unknown): WebhookEvents {
  const out: WebhookEvents = { phoneNumberId: null, messages: [], statuses: [] };
  const b = obj(body);
  if (b.object !== 'whatsapp_business_account') return out;
  for (const entry of arr(b.entry))
    for (const change of arr(obj(entry).changes)) {
      const c = obj(change);
      if (c.field !== 'messages') continue;
      const value = obj(c.value);
      out.phoneNumberId ??= str(obj(value.metadata).phone_number_id);
      const names = new Map<string, string>();
      for (const contact of arr(value.contacts)) {
        const k = obj(contact);
        const name = str(obj(k.profile).name);
        if (str(k.wa_id) && name) names.set(k.wa_id as string, name);
      }
      for (const m of arr(value.messages)) {
        const msg = inbound(obj(m), names);
        if (msg) out.messages.push(msg);
      }
      for (const s of arr(value.statuses)) {
        const st = obj(s);
        const id = str(st.id);
        const status = str(st.status);
        if (!id || !status || !STATUSES.has(status)) continue;
        const error = obj(arr(st.errors)[0]);
        out.statuses.push({
          messageId: id,
          status: status as StatusUpdate['status'],
          at: when(st.timestamp),
          recipient: str(st.recipient_id),
          errorCode: typeof error.code === 'number' ? error.code : null,
          errorTitle: str(error.title) ?? str(error.message),
        });
      }
    }
  return out;
}
