import type { Settings } from '../settings';
import { etimsOn } from '../settings';
import type { ItemSaveReq, StockIoSaveReq, StockMasterSaveReq, TrnsSalesSaveWrReq } from './payloads';

// A thin typed client for the KRA eTIMS OSCU calls Mchanga makes (no eTIMS SDK: the npm ones are not to be
// trusted with production traffic). The wire format is KRA's as documented in paybillke/kra-etims-oscu-docs:
// a GavaConnect OAuth token (GET <token url>?grant_type=client_credentials, Basic key:secret), then JSON
// POSTs to <base>/<call> with the bearer token and, after initialisation, the `tin`, `bhfId` and `cmcKey`
// headers; every answer is { resultCd, resultMsg, resultDt, data }.

export interface OscuConfig {
  baseUrl: string;
  tokenUrl: string;
  consumerKey: string;
  consumerSecret: string;
  tin: string;
  bhfId: string;
  deviceSerial: string;
}

export interface OscuOptions {
  fetch?: typeof fetch;
  /** Per call. A sale that times out may still have reached KRA (see `OscuError.mayHaveArrived`). */
  timeoutMs?: number;
}

/**
 * A call that got no KRA answer. `unreachable`: nothing reached KRA (connection refused, no such host);
 * `unknown`: the request may have arrived (a time-out, a connection cut mid-answer, a gateway error after
 * the request went out); `auth`: GavaConnect refused the consumer key and secret (no call was made).
 */
export class OscuError extends Error {
  constructor(
    message: string,
    readonly kind: 'unreachable' | 'unknown' | 'auth',
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OscuError';
  }

  /** True when KRA may hold what was sent: ask before sending it again. */
  get mayHaveArrived() {
    return this.kind === 'unknown';
  }
}

/** KRA's envelope, as every OSCU call answers. */
export interface OscuAnswer<T = unknown> {
  resultCd: string;
  resultMsg: string;
  resultDt: string | null;
  data: T | null;
}

/** `selectInitOsdcInfo`'s `data.info`: the taxpayer, the branch and the device with its communication key. */
export interface InitInfo {
  tin?: string;
  taxprNm?: string;
  bhfId?: string;
  bhfNm?: string;
  dvcId?: string;
  sdcId?: string;
  mrcNo?: string;
  cmcKey?: string;
}

/** What KRA answers to an accepted sale (and, for the look-up, about a sale it holds). */
export interface SaleSigned {
  curRcptNo: number | string;
  totRcptNo: number | string;
  intrlData: string;
  rcptSign: string;
  sdcDateTime: string;
}

export interface CodeClass {
  cdCls: string;
  cdClsNm: string;
  dtlList?: Array<{ cd: string; cdNm: string; userDfnCd1?: string | null; useYn?: string }>;
}

export interface ItemClass {
  itemClsCd: string;
  itemClsNm: string;
  itemClsLvl?: number;
  taxTyCd?: string | null;
  useYn?: string;
}

const TOKEN_MARGIN_MS = 60_000;
const UNREACHABLE = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH/;

export class OscuClient {
  private token: { value: string; expiresAt: number } | undefined;
  private pendingToken: Promise<string> | undefined;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(
    readonly config: OscuConfig,
    options: OscuOptions = {},
  ) {
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 20_000;
  }

  /** Forgets the cached token (after KRA refused it). */
  forgetToken() {
    this.token = undefined;
  }

  /** The GavaConnect bearer token: cached until shortly before it expires; concurrent callers share one call. */
  async accessToken(): Promise<string> {
    if (this.token && this.token.expiresAt > Date.now()) return this.token.value;
    this.pendingToken ??= this.fetchToken().finally(() => {
      this.pendingToken = undefined;
    });
    return this.pendingToken;
  }

  private async fetchToken(): Promise<string> {
    const basic = btoa(`${this.config.consumerKey}:${this.config.consumerSecret}`);
    const res = await this.send(`${this.config.tokenUrl}?grant_type=client_credentials`, {
      method: 'GET',
      headers: { authorization: `Basic ${basic}`, accept: 'application/json' },
    });
    const body = (await readJson(res)) as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (res.status >= 500)
      throw new OscuError(`GavaConnect answered HTTP ${res.status}`, 'unreachable', res.status);
    if (!res.ok || typeof body?.access_token !== 'string' || !body.access_token)
      throw new OscuError(
        `KRA refused the eTIMS consumer key and secret (HTTP ${res.status})`,
        'auth',
        res.status,
      );
    const seconds = Number(body.expires_in);
    const lifetimeMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 3599_000;
    this.token = {
      value: body.access_token,
      expiresAt: Date.now() + Math.max(lifetimeMs - TOKEN_MARGIN_MS, lifetimeMs / 2),
    };
    return body.access_token;
  }

  /** Device initialisation, once per device: its answer carries the communication key (`cmcKey`). */
  initDevice(): Promise<OscuAnswer<{ info?: InitInfo }>> {
    const { tin, bhfId, deviceSerial } = this.config;
    return this.call('/selectInitOsdcInfo', { tin, bhfId, dvcSrlNo: deviceSerial });
  }

  /** Code lists changed after `lastReqDt` (YYYYMMDDhhmmss). */
  codeList(cmcKey: string, lastReqDt: string): Promise<OscuAnswer<{ clsList?: CodeClass[] }>> {
    return this.call('/selectCodeList', { lastReqDt }, cmcKey);
  }

  /** Item classifications changed after `lastReqDt`. */
  itemClasses(cmcKey: string, lastReqDt: string): Promise<OscuAnswer<{ itemClsList?: ItemClass[] }>> {
    return this.call('/selectItemClsList', { lastReqDt }, cmcKey);
  }

  saveItem(cmcKey: string, item: ItemSaveReq): Promise<OscuAnswer<null>> {
    return this.call('/saveItem', item, cmcKey);
  }

  /** A sale or a credit note (receipt type S or R); KRA holds one per invoice number (994 the second time). */
  saveSale(cmcKey: string, sale: TrnsSalesSaveWrReq): Promise<OscuAnswer<SaleSigned>> {
    return this.call('/saveTrnsSalesOsdc', sale, cmcKey);
  }

  /**
   * Asks KRA whether it holds invoice `invcNo` and, if so, what it signed: the query made before sending
   * again a sale whose answer was lost. This is KRA's "look up invoice details" call of the OSCU go-live
   * test cases (`selectInvoiceDetails`), which the paybillke pages do not document: its answer is read
   * defensively (000 with a receipt signature means "held"; anything else means "not known to be held"),
   * and a resend after it is safe anyway, because a second sale with the same number is refused with 994.
   */
  lookupSale(cmcKey: string, invcNo: number): Promise<OscuAnswer<Partial<SaleSigned>>> {
    return this.call('/selectInvoiceDetails', { invcNo }, cmcKey);
  }

  /** A stock movement (in or out); after the sale it belongs to, never before (922). */
  saveStockIO(cmcKey: string, io: StockIoSaveReq): Promise<OscuAnswer<null>> {
    return this.call('/insertStockIO', io, cmcKey);
  }

  /** The remaining quantity of an item, after its stock movement. */
  saveStockMaster(cmcKey: string, master: StockMasterSaveReq): Promise<OscuAnswer<null>> {
    return this.call('/saveStockMaster', master, cmcKey);
  }

  /** One OSCU call; a token KRA no longer takes is fetched again once. */
  private async call<T>(
    path: string,
    payload: unknown,
    cmcKey?: string,
    retried = false,
  ): Promise<OscuAnswer<T>> {
    const token = await this.accessToken();
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (cmcKey) Object.assign(headers, { tin: this.config.tin, bhfId: this.config.bhfId, cmcKey });
    const res = await this.send(`${this.config.baseUrl}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
    });
    const body = (await readJson(res)) as Partial<OscuAnswer<T>> & { fault?: { faultstring?: string } };
    if (
      res.status === 401 ||
      /access token expired|invalid (access )?token/i.test(body?.fault?.faultstring ?? '')
    ) {
      this.forgetToken();
      if (!retried) return this.call(path, payload, cmcKey, true);
      throw new OscuError('KRA refused the access token twice', 'auth', res.status);
    }
    if (res.status >= 500 || !body || typeof body.resultCd !== 'string')
      // The request reached KRA's gateway: it may have gone through.
      throw new OscuError(`KRA answered HTTP ${res.status} without a result`, 'unknown', res.status);
    return {
      resultCd: body.resultCd,
      resultMsg: String(body.resultMsg ?? ''),
      resultDt: typeof body.resultDt === 'string' ? body.resultDt : null,
      data: (body.data ?? null) as T | null,
    };
  }

  private async send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetch(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      if (e.name === 'TimeoutError' || e.name === 'AbortError')
        throw new OscuError(`KRA did not answer within ${this.timeoutMs} ms`, 'unknown');
      const code = `${e.cause?.code ?? ''} ${e.cause?.message ?? ''} ${e.message}`;
      if (UNREACHABLE.test(code)) throw new OscuError('KRA eTIMS could not be reached', 'unreachable');
      throw new OscuError('The connection to KRA eTIMS broke off', 'unknown');
    }
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The OSCU configuration when eTIMS is on (see `etimsOn`), else null. */
export function oscuConfigOf(settings: Pick<Settings, 'etims'>): OscuConfig | null {
  const e = settings.etims;
  if (!etimsOn(settings) || !e.consumerKey || !e.consumerSecret || !e.tin || !e.deviceSerial) return null;
  return {
    baseUrl: e.baseUrl,
    tokenUrl: e.tokenUrl,
    consumerKey: e.consumerKey,
    consumerSecret: e.consumerSecret,
    tin: e.tin,
    bhfId: e.bhfId,
    deviceSerial: e.deviceSerial,
  };
}

/** One client per configuration in this process, so the token is shared by every call. */
const clients = new Map<string, OscuClient>();

export function oscuClient(config: OscuConfig, options: OscuOptions = {}): OscuClient {
  const key = JSON.stringify(config);
  let client = clients.get(key);
  if (!client) {
    client = new OscuClient(config, options);
    clients.set(key, client);
  }
  return client;
}
