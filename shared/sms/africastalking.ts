import type { Settings } from '../settings';

// A thin typed client for Africa's Talking's bulk SMS endpoint (POST /version1/messaging). The npm
// `africastalking` package is untyped, pulls axios and a validator, and wraps this one form post; its
// documented request and answer are typed here instead and tested against a local fake.

export interface AtConfig {
  baseUrl: string;
  username: string;
  apiKey: string;
  senderId: string | undefined;
}

export function atConfigOf(settings: Pick<Settings, 'sms'>): AtConfig | null {
  const s = settings.sms;
  if (!s.username || !s.apiKey) return null;
  return { baseUrl: s.baseUrl, username: s.username, apiKey: s.apiKey, senderId: s.senderId };
}

/**
 * A recipient's status code (Africa's Talking, "SMS status codes"): 100 Processed, 101 Sent, 102 Queued
 * are accepted; the rest refuse this recipient. 401 RiskHold, 402 InvalidSenderId, 403 InvalidPhoneNumber,
 * 404 UnsupportedNumberType, 405 InsufficientBalance, 406 UserInBlacklist (opted out), 407 CouldNotRoute,
 * 409 DoNotDisturbRejection, 500 InternalServerError, 501 GatewayError, 502 RejectedByGateway.
 */
export const AT_ACCEPTED = new Set([100, 101, 102]);
/** Worth sending again later: the balance, the gateway or Africa's Talking itself. */
export const AT_RETRYABLE = new Set([405, 500, 501, 502]);

export interface AtRecipient {
  number: string;
  statusCode: number;
  status: string;
  messageId: string | null;
  cost: string | null;
  messageParts: number | null;
}

export class AtError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'AtError';
  }
}

export interface AtOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export class AtClient {
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(
    readonly config: AtConfig,
    options: AtOptions = {},
  ) {
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** One message to one number (+2547…); answers the recipient's entry of Africa's Talking's answer. */
  async send(to: string, message: string): Promise<AtRecipient> {
    const form = new URLSearchParams({ username: this.config.username, to, message });
    if (this.config.senderId) form.set('from', this.config.senderId);
    let res: Response;
    try {
      res = await this.fetch(`${this.config.baseUrl}/version1/messaging`, {
        method: 'POST',
        headers: {
          apiKey: this.config.apiKey,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form.toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw new AtError(`Africa's Talking not reachable: ${(err as Error).message}`, undefined, false);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) {
      // 401 bad key, 400 bad request: the same request will be refused again.
      const permanent = res.status >= 400 && res.status < 500 && res.status !== 429;
      throw new AtError(
        `Africa's Talking answered HTTP ${res.status}: ${text.slice(0, 200)}`,
        res.status,
        permanent,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new AtError("Africa's Talking answered without JSON", res.status, false);
    }
    const data = (body as { SMSMessageData?: { Message?: unknown; Recipients?: unknown } }).SMSMessageData;
    const r = (Array.isArray(data?.Recipients) ? data.Recipients[0] : undefined) as
      | Record<string, unknown>
      | undefined;
    if (!r)
      throw new AtError(
        `Africa's Talking sent to nobody: ${String(data?.Message ?? '').slice(0, 200)}`,
        res.status,
        true,
      );
    const messageId = typeof r.messageId === 'string' && r.messageId !== 'None' ? r.messageId : null;
    return {
      number: String(r.number ?? to),
      statusCode: Number(r.statusCode),
      status: String(r.status ?? ''),
      messageId,
      cost: typeof r.cost === 'string' ? r.cost : null,
      messageParts: r.messageParts === undefined ? null : Number(r.messageParts),
    };
  }
}

/** A delivery report as Africa's Talking posts it (form fields). */
export interface AtDeliveryReport {
  id: string;
  status: string;
  phoneNumber: string | null;
  networkCode: string | null;
  failureReason: string | null;
  retryCount: number | null;
}

/** Statuses of a delivery report that are final failures. */
export const AT_FAILED_STATUSES = new Set(['Rejected', 'Failed', 'AbsentSubscriber', 'Expired']);

export function parseDeliveryReport(fields: Record<string, unknown>): AtDeliveryReport | null {
  const s = (k: string) => (typeof fields[k] === 'string' && fields[k] !== '' ? (fields[k] as string) : null);
  const id = s('id');
  const status = s('status');
  if (!id || !status) return null;
  const retry = s('retryCount');
  return {
    id,
    status,
    phoneNumber: s('phoneNumber'),
    networkCode: s('networkCode'),
    failureReason: s('failureReason'),
    retryCount: retry === null ? null : Number(retry),
  };
}

/** An incoming SMS (Africa's Talking's incoming-messages callback, form fields). */
export interface AtIncoming {
  id: string;
  from: string;
  to: string | null;
  text: string;
}

export function parseIncoming(fields: Record<string, unknown>): AtIncoming | null {
  const s = (k: string) => (typeof fields[k] === 'string' ? (fields[k] as string) : null);
  const id = s('id');
  const from = s('from');
  if (!id || !from) return null;
  return { id, from, to: s('to'), text: s('text') ?? '' };
}
