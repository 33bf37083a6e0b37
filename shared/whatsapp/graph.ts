import type { Settings } from '../settings';

// A thin typed client for the WhatsApp Business Cloud API calls Mchanga makes: one endpoint
// (POST {graph}/{phone-number-id}/messages) with five message kinds, Node's fetch with a time-out.
// whatsapp-api-js was weighed and not taken: it is a whole framework (server adapters, emitters, media,
// flows, QR, blocking) around the same JSON, and the outbox already gives retries and idempotency; what
// we need from it — the wire format and the webhook signature — is written and tested here against a
// local fake and the library's own signature vector.

export interface GraphConfig {
  graphUrl: string;
  phoneNumberId: string;
  accessToken: string;
}

export function graphConfigOf(settings: Pick<Settings, 'whatsapp'>): GraphConfig | null {
  const w = settings.whatsapp;
  if (!w.phoneNumberId || !w.accessToken) return null;
  return { graphUrl: w.graphUrl, phoneNumberId: w.phoneNumberId, accessToken: w.accessToken };
}

/** Limits Meta sets on interactive messages (Cloud API reference, "Interactive object"). */
export const WA_LIMITS = {
  buttons: 3,
  buttonTitle: 20,
  listRows: 10,
  rowTitle: 24,
  rowDescription: 72,
  listButton: 20,
  body: 1024,
  text: 4096,
} as const;

export interface ReplyButton {
  id: string;
  title: string;
}
export interface ListRow {
  id: string;
  title: string;
  description?: string;
}

/** One outgoing message, as Mchanga composes it; `messageBody` turns it into Graph's JSON. */
export type WaMessage =
  | { kind: 'text'; text: string; previewUrl?: boolean }
  | { kind: 'buttons'; text: string; buttons: ReplyButton[] }
  | { kind: 'list'; text: string; button: string; rows: ListRow[] }
  | { kind: 'location_request'; text: string }
  | { kind: 'image'; link: string; caption?: string }
  | { kind: 'template'; name: string; language: string; parameters: string[] };

const cut = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** Graph's request body for a message to a WhatsApp number (digits, country code first). */
export function messageBody(to: string, message: WaMessage): Record<string, unknown> {
  const head = { messaging_product: 'whatsapp', recipient_type: 'individual', to };
  switch (message.kind) {
    case 'text':
      return {
        ...head,
        type: 'text',
        text: { preview_url: message.previewUrl ?? false, body: cut(message.text, WA_LIMITS.text) },
      };
    case 'buttons':
      return {
        ...head,
        type: 'interactive',
        interactive: {
          type: 'button',
          body: { text: cut(message.text, WA_LIMITS.body) },
          action: {
            buttons: message.buttons.slice(0, WA_LIMITS.buttons).map((b) => ({
              type: 'reply',
              reply: { id: b.id, title: cut(b.title, WA_LIMITS.buttonTitle) },
            })),
          },
        },
      };
    case 'list':
      return {
        ...head,
        type: 'interactive',
        interactive: {
          type: 'list',
          body: { text: cut(message.text, WA_LIMITS.body) },
          action: {
            button: cut(message.button, WA_LIMITS.listButton),
            sections: [
              {
                rows: message.rows.slice(0, WA_LIMITS.listRows).map((r) => ({
                  id: r.id,
                  title: cut(r.title, WA_LIMITS.rowTitle),
                  ...(r.description ? { description: cut(r.description, WA_LIMITS.rowDescription) } : {}),
                })),
              },
            ],
          },
        },
      };
    case 'location_request':
      return {
        ...head,
        type: 'interactive',
        interactive: {
          type: 'location_request_message',
          body: { text: cut(message.text, WA_LIMITS.body) },
          action: { name: 'send_location' },
        },
      };
    case 'image':
      return {
        ...head,
        type: 'image',
        image: { link: message.link, ...(message.caption ? { caption: message.caption } : {}) },
      };
    case 'template':
      return {
        ...head,
        type: 'template',
        template: {
          name: message.name,
          language: { code: message.language },
          ...(message.parameters.length
            ? {
                components: [
                  {
                    type: 'body',
                    parameters: message.parameters.map((text) => ({ type: 'text', text })),
                  },
                ],
              }
            : {}),
        },
      };
  }
}

/**
 * Meta's codes that no resend changes (Cloud API error codes): outside the 24-hour window (131047), the
 * number not on WhatsApp or not deliverable (131026, 133010), the recipient blocked or opted out (131050),
 * template missing, paused or with wrong parameters (132000-132016), bad parameters (100, 131008, 131009,
 * 131051, 131052, 131053), auth and permission (0, 3, 10, 190, 200-299). Throughput limits (4, 80007,
 * 130429, 131048, 131056) and Meta's own trouble (1, 2, 131000, 131016, 133004) are worth another try.
 */
const RETRYABLE = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131048, 131056, 133004]);

/** A send Meta refused (`permanent`: the same request will be refused again) or that did not get through. */
export class GraphError extends Error {
  constructor(
    message: string,
    /** Meta's error code (131047, 131026, …); undefined when Meta never answered. */
    readonly code: number | undefined,
    readonly status: number | undefined,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'GraphError';
  }
}

export function graphErrorOf(status: number, body: unknown): GraphError {
  const e = (body as { error?: { message?: unknown; code?: unknown; error_data?: { details?: unknown } } })
    ?.error;
  const code = typeof e?.code === 'number' ? e.code : undefined;
  const detail = typeof e?.error_data?.details === 'string' ? `: ${e.error_data.details}` : '';
  const message = `${typeof e?.message === 'string' ? e.message : `Graph API answered HTTP ${status}`}${detail}`;
  const permanent =
    code !== undefined
      ? !RETRYABLE.has(code) && status < 500
      : status >= 400 && status < 500 && status !== 429;
  return new GraphError(message.slice(0, 500), code, status, permanent);
}

export interface GraphOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** The WhatsApp messages endpoint: each call is one message, answered with its wamid. */
export class GraphClient {
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(
    readonly config: GraphConfig,
    options: GraphOptions = {},
  ) {
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** Sends one message; answers Meta's message id (wamid…). */
  async send(to: string, message: WaMessage): Promise<{ messageId: string; waId: string | null }> {
    const body = await this.post(messageBody(to, message));
    const b = body as { messages?: Array<{ id?: unknown }>; contacts?: Array<{ wa_id?: unknown }> };
    const id = b.messages?.[0]?.id;
    if (typeof id !== 'string')
      throw new GraphError('Graph API answered without a message id', undefined, 200, false);
    const waId = b.contacts?.[0]?.wa_id;
    return { messageId: id, waId: typeof waId === 'string' ? waId : null };
  }

  /** Marks an inbound message read (the blue ticks). */
  async markRead(messageId: string): Promise<void> {
    await this.post({ messaging_product: 'whatsapp', status: 'read', message_id: messageId });
  }

  private async post(payload: unknown): Promise<unknown> {
    const { graphUrl, phoneNumberId, accessToken } = this.config;
    let res: Response;
    try {
      res = await this.fetch(`${graphUrl}/${phoneNumberId}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new GraphError(`Graph API not reachable: ${(err as Error).message}`, undefined, undefined, false);
    }
    const text = await res.text().catch(() => '');
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!res.ok) throw graphErrorOf(res.status, body);
    return body;
  }
}
