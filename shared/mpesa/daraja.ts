import { darajaTimestamp, stkPassword } from '../domain/mpesa';
import { type Settings, stkReady } from '../settings';

// A small typed client for the Daraja calls Mchanga makes: OAuth, STK push (M-Pesa Express) and its
// status query. Node's fetch with a time-out on every call. Used by the server (the push) and the worker
// (the reconciliation job's queries), so it lives in shared/ like the LLM client.

export interface DarajaConfig {
  baseUrl: string;
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
}

export interface DarajaOptions {
  fetch?: typeof fetch;
  /** Per call; the STK push has a customer waiting. */
  timeoutMs?: number;
  now?: () => Date;
}

/**
 * A call Daraja refused or did not answer. `permanent` is a refusal that retrying will not change (bad
 * credentials, a bad request); `code` is Daraja's errorCode (`500.001.1001`) when it gave one.
 */
export class DarajaError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'refused' | 'auth' | 'busy',
    readonly status?: number,
    readonly code?: string,
    readonly permanent = false,
  ) {
    super(message);
    this.name = 'DarajaError';
  }
}

export interface StkPushRequest {
  amountKes: number;
  /** 2547XXXXXXXX / 2541XXXXXXXX */
  msisdn: string;
  accountRef: string;
  callbackUrl: string;
  description: string;
}

export interface StkPushAccepted {
  merchantRequestId: string;
  checkoutRequestId: string;
  customerMessage: string;
}

/** Daraja's answer to a status query: a final result, or "still being processed". */
export type StkQueryAnswer =
  | { state: 'final'; resultCode: string; resultDesc: string; body: unknown }
  | { state: 'processing'; code: string | undefined; message: string; body: unknown };

interface DarajaErrorBody {
  requestId?: string;
  errorCode?: string;
  errorMessage?: string;
}

const TOKEN_MARGIN_MS = 60_000;

/** One client per configuration: its OAuth token is cached until shortly before it expires. */
export class DarajaClient {
  private token: { value: string; expiresAt: number } | undefined;
  private pendingToken: Promise<string> | undefined;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly now: () => Date;

  constructor(
    readonly config: DarajaConfig,
    options: DarajaOptions = {},
  ) {
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.now = options.now ?? (() => new Date());
  }

  /** The bearer token: from the cache while valid, else one OAuth call (concurrent callers share it). */
  async accessToken(): Promise<string> {
    const now = Date.now();
    if (this.token && this.token.expiresAt > now) return this.token.value;
    this.pendingToken ??= this.fetchToken().finally(() => {
      this.pendingToken = undefined;
    });
    return this.pendingToken;
  }

  private async fetchToken(): Promise<string> {
    const basic = btoa(`${this.config.consumerKey}:${this.config.consumerSecret}`);
    const res = await this.send(`${this.config.baseUrl}/oauth/v1/generate?grant_type=client_credentials`, {
      method: 'GET',
      headers: { authorization: `Basic ${basic}` },
    });
    const body = (await readJson(res)) as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (!res.ok || typeof body?.access_token !== 'string' || !body.access_token) {
      throw new DarajaError(
        `Daraja refused the app's keys (HTTP ${res.status})`,
        'auth',
        res.status,
        undefined,
        res.status >= 400 && res.status < 500,
      );
    }
    const seconds = Number(body.expires_in);
    const lifetimeMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 3599_000;
    this.token = {
      value: body.access_token,
      expiresAt: Date.now() + Math.max(lifetimeMs - TOKEN_MARGIN_MS, lifetimeMs / 2),
    };
    return body.access_token;
  }

  /** Sends the payment prompt to the customer's phone (Lipa na M-Pesa Online, paybill). */
  async stkPush(request: StkPushRequest): Promise<StkPushAccepted> {
    const timestamp = darajaTimestamp(this.now());
    const { shortcode, passkey } = this.config;
    const body = {
      BusinessShortCode: shortcode,
      Password: stkPassword(shortcode, passkey, timestamp),
      Timestamp: timestamp,
      TransactionType: 'CustomerPayBillOnline',
      Amount: request.amountKes,
      PartyA: request.msisdn,
      PartyB: shortcode,
      PhoneNumber: request.msisdn,
      CallBackURL: request.callbackUrl,
      AccountReference: request.accountRef,
      TransactionDesc: request.description.slice(0, 13),
    };
    const answer = await this.post('/mpesa/stkpush/v1/processrequest', body);
    const ok = answer as Partial<Record<string, unknown>>;
    if (String(ok.ResponseCode) !== '0' || typeof ok.CheckoutRequestID !== 'string') {
      throw new DarajaError(
        String(ok.ResponseDescription ?? 'Daraja did not accept the prompt'),
        'refused',
        200,
        String(ok.ResponseCode ?? ''),
        true,
      );
    }
    return {
      merchantRequestId: String(ok.MerchantRequestID ?? ''),
      checkoutRequestId: ok.CheckoutRequestID,
      customerMessage: String(ok.CustomerMessage ?? ''),
    };
  }

  /** Asks what became of a prompt (M-Pesa Express query, by CheckoutRequestID). */
  async stkQuery(checkoutRequestId: string): Promise<StkQueryAnswer> {
    const timestamp = darajaTimestamp(this.now());
    const { shortcode, passkey } = this.config;
    try {
      const body = await this.post('/mpesa/stkpushquery/v1/query', {
        BusinessShortCode: shortcode,
        Password: stkPassword(shortcode, passkey, timestamp),
        Timestamp: timestamp,
        CheckoutRequestID: checkoutRequestId,
      });
      const b = body as Partial<Record<string, unknown>>;
      if (b.ResultCode === undefined || b.ResultCode === null || b.ResultCode === '')
        return { state: 'processing', code: undefined, message: String(b.ResponseDescription ?? ''), body };
      return {
        state: 'final',
        resultCode: String(b.ResultCode).trim(),
        resultDesc: String(b.ResultDesc ?? ''),
        body,
      };
    } catch (err) {
      // "The transaction is being processed" comes back as an error: the prompt is still open.
      if (err instanceof DarajaError && err.kind === 'busy')
        return { state: 'processing', code: err.code, message: err.message, body: null };
      throw err;
    }
  }

  /** A JSON POST with the bearer token; a token Daraja no longer takes is fetched again once. */
  private async post(path: string, payload: unknown, retried = false): Promise<unknown> {
    const token = await this.accessToken();
    const res = await this.send(`${this.config.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const body = await readJson(res);
    if (res.ok) return body;
    const err = (body ?? {}) as DarajaErrorBody;
    const code = err.errorCode;
    const message = err.errorMessage ?? `Daraja answered HTTP ${res.status}`;
    if (!retried && isTokenError(res.status, code)) {
      this.token = undefined;
      return this.post(path, payload, true);
    }
    if (/being processed|lock subscriber|system is busy|spike arrest|quota/i.test(message))
      throw new DarajaError(message, 'busy', res.status, code);
    if (res.status >= 500) throw new DarajaError(message, 'unreachable', res.status, code);
    throw new DarajaError(message, 'refused', res.status, code, true);
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new DarajaError(
        timedOut ? `Daraja did not answer within ${this.timeoutMs} ms` : 'Daraja could not be reached',
        'unreachable',
      );
    }
  }
}

function isTokenError(status: number, code: string | undefined): boolean {
  return status === 401 || code === '404.001.03' || code === '400.003.01';
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One client per configuration in this process, so the OAuth token is shared by every call. */
const clients = new Map<string, DarajaClient>();

export function darajaClient(config: DarajaConfig, options: DarajaOptions = {}): DarajaClient {
  const key = [config.baseUrl, config.consumerKey, config.shortcode].join('|');
  let client = clients.get(key);
  if (
    !client ||
    client.config.consumerSecret !== config.consumerSecret ||
    client.config.passkey !== config.passkey
  ) {
    client = new DarajaClient(config, options);
    clients.set(key, client);
  }
  return client;
}

/** The Daraja configuration when the STK push is set up (see `stkReady`), else null. */
export function darajaConfigOf(settings: Pick<Settings, 'mpesa' | 'publicUrl'>): DarajaConfig | null {
  const m = settings.mpesa;
  if (!stkReady(settings) || !m.consumerKey || !m.consumerSecret || !m.shortcode || !m.passkey) return null;
  return {
    baseUrl: m.baseUrl,
    consumerKey: m.consumerKey,
    consumerSecret: m.consumerSecret,
    shortcode: m.shortcode,
    passkey: m.passkey,
  };
}
