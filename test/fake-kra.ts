import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CREDIT_NOTE_REASONS,
  KRA_PIN,
  PAYMENT_TYPE,
  PKG_UNIT_BULK,
  QTY_UNIT_TONNE,
  RESULT,
  RESULT_MESSAGES,
  SAND_ITEM_CLASS,
  TAX_RATES,
  TAX_TYPES,
  type TaxType,
} from '../shared/etims/codes';
import type { ItemSaveReq, StockIoSaveReq, TrnsSalesSaveWrReq } from '../shared/etims/payloads';

/**
 * A local fake of KRA eTIMS (OSCU) and its GavaConnect token endpoint, speaking the wire format of
 * paybillke/kra-etims-oscu-docs: GET /v1/token/generate?grant_type=client_credentials (Basic key:secret →
 * { access_token, expires_in }), then JSON POSTs under /etims-api with the bearer token and the `tin`,
 * `bhfId`, `cmcKey` headers, each answered { resultCd, resultMsg, resultDt, data }. It keeps what a real
 * OSCU keeps — the device and its key, items, sales by invoice number (994 for a number it holds, the
 * next number expected in order), stock movements by sarNo (922 for a sale's stock before the sale) — and
 * checks what it is sent: codes, dates, totals and tax to the cent.
 */
export interface FakeKraOptions {
  consumerKey: string;
  consumerSecret: string;
  tin: string;
  bhfId: string;
  deviceSerial: string;
  /** Answer the invoice look-up (`selectInvoiceDetails`); false answers 404 as a gateway without it. */
  lookup?: boolean;
}

export interface HeldSale {
  body: TrnsSalesSaveWrReq;
  curRcptNo: number;
  totRcptNo: number;
  intrlData: string;
  rcptSign: string;
  sdcDateTime: string;
}

export interface Call {
  path: string;
  body: Record<string, unknown> | null;
  headers: IncomingMessage['headers'];
  /** What the fake answered (HTTP status and resultCd). */
  status: number;
  resultCd: string | null;
}

type Json = Record<string, unknown>;

const TOKEN_PATH = '/v1/token/generate';
export const OSCU_PREFIX = '/etims-api';

const DT = /^\d{14}$/;
const D = /^\d{8}$/;
const stamp = (at = new Date()) => {
  const eat = new Date(at.getTime() + 3 * 3600_000);
  return eat.toISOString().replace(/[-:T]/g, '').slice(0, 14);
};
const random = (n: number, alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789') =>
  Array.from({ length: n }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
const cents = (kes: unknown) => Math.round(Number(kes) * 100);

export function fakeKra(options: FakeKraOptions) {
  const tokens = new Set<string>();
  const calls: Call[] = [];
  const sales = new Map<number, HeldSale>();
  const items = new Map<string, ItemSaveReq>();
  const stockIOs = new Map<number, StockIoSaveReq>();
  const stockMaster = new Map<string, number>();
  let cmcKey: string | null = null;
  let tokenSeq = 0;
  const receiptsByType: Record<string, number> = {};
  let port = 0;
  let listening = false;
  /** Sales whose answer is held back this long (the request is taken first): a lost answer. */
  const slowSales: number[] = [];
  let outage503 = false;
  const sockets = new Set<import('node:net').Socket>();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  const answer = (resultCd: string, data: unknown = null, resultMsg?: string) => ({
    resultCd,
    resultMsg: resultMsg ?? RESULT_MESSAGES[resultCd] ?? '',
    resultDt: stamp(),
    data,
  });
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => resolve(text));
    });

  function checkSale(s: TrnsSalesSaveWrReq): string | null {
    if (!Number.isInteger(s.invcNo) || s.invcNo < 1) return 'invcNo must be a positive integer';
    if (typeof s.trdInvcNo !== 'string' || !s.trdInvcNo || s.trdInvcNo.length > 50) return 'trdInvcNo';
    if (s.rcptTyCd !== 'S' && s.rcptTyCd !== 'R') return 'rcptTyCd';
    if (!Object.values(PAYMENT_TYPE).includes(s.pmtTyCd as never) && !/^0[1-7]$/.test(s.pmtTyCd))
      return 'pmtTyCd';
    if (s.salesTyCd !== 'N' || s.salesSttsCd !== '02') return 'salesTyCd/salesSttsCd';
    if (!DT.test(s.cfmDt) || !D.test(s.salesDt) || !DT.test(s.receipt?.rcptPbctDt ?? '')) return 'dates';
    if (s.custTin !== null && !KRA_PIN.test(s.custTin)) return 'custTin';
    for (const r of ['regrId', 'regrNm', 'modrId', 'modrNm'] as const) if (!s[r]) return r;
    if (!Array.isArray(s.itemList) || s.itemList.length === 0 || s.itemList.length !== s.totItemCnt)
      return 'itemList/totItemCnt';
    let total = 0;
    const byType: Partial<Record<TaxType, number>> = {};
    for (const [i, it] of s.itemList.entries()) {
      if (it.itemSeq !== i + 1) return 'itemSeq';
      const item = items.get(it.itemCd);
      if (!item) return `item ${it.itemCd} is not registered`;
      if (it.qtyUnitCd !== item.qtyUnitCd || it.pkgUnitCd !== item.pkgUnitCd) return 'units';
      if (!(it.qty > 0)) return 'qty';
      if (!TAX_TYPES.includes(it.taxTyCd)) return 'taxTyCd';
      const amount = cents(it.totAmt);
      if (cents(it.splyAmt) !== amount || cents(it.taxblAmt) !== amount) return 'splyAmt/taxblAmt';
      // Unit price × quantity within a cent per tonne of the amount.
      if (Math.abs(cents(it.prc) * it.qty - amount) > Math.max(1, it.qty)) return 'prc × qty';
      const rate = TAX_RATES[it.taxTyCd];
      if (Math.abs(cents(it.taxAmt) - Math.round((amount * rate) / (100 + rate))) > 1) return 'taxAmt';
      total += amount;
      byType[it.taxTyCd] = (byType[it.taxTyCd] ?? 0) + amount;
    }
    if (cents(s.totAmt) !== total || cents(s.totTaxblAmt) !== total) return 'totAmt';
    let tax = 0;
    for (const t of TAX_TYPES) {
      const amount = byType[t] ?? 0;
      const row = s as unknown as Json;
      if (cents(row[`taxblAmt${t}`]) !== amount) return `taxblAmt${t}`;
      if (Number(row[`taxRt${t}`]) !== TAX_RATES[t]) return `taxRt${t}`;
      const expected = Math.round((amount * TAX_RATES[t]) / (100 + TAX_RATES[t]));
      if (Math.abs(cents(row[`taxAmt${t}`]) - expected) > 1) return `taxAmt${t}`;
      tax += cents(row[`taxAmt${t}`]);
    }
    if (cents(s.totTaxAmt) !== tax) return 'totTaxAmt';
    if (s.rcptTyCd === 'R') {
      const original = sales.get(s.orgInvcNo);
      if (original?.body.rcptTyCd !== 'S') return 'orgInvcNo is no sale';
      if (!CREDIT_NOTE_REASONS.includes(s.rfdRsnCd as never) || !DT.test(s.rfdDt ?? ''))
        return 'rfdRsnCd/rfdDt';
      const credited = [...sales.values()]
        .filter((x) => x.body.rcptTyCd === 'R' && x.body.orgInvcNo === s.orgInvcNo)
        .reduce((sum, x) => sum + cents(x.body.totAmt), 0);
      if (credited + total > cents(original.body.totAmt)) return 'credit note exceeds the sale';
    } else if (s.orgInvcNo !== 0) return 'orgInvcNo';
    return null;
  }

  /** Tonnes of an item sold (sales minus credit notes) and already taken out of stock for sales. */
  function soldAndOut(itemCd: string) {
    let sold = 0;
    for (const x of sales.values())
      for (const it of x.body.itemList)
        if (it.itemCd === itemCd) sold += x.body.rcptTyCd === 'S' ? it.qty : 0;
    let out = 0;
    for (const io of stockIOs.values())
      if (io.sarTyCd === '11') for (const it of io.itemList) if (it.itemCd === itemCd) out += it.qty;
    return { sold, out };
  }

  async function oscu(
    path: string,
    req: IncomingMessage,
    body: Json,
    res: ServerResponse,
  ): Promise<[number, Json]> {
    const h = req.headers;
    if (path === '/selectInitOsdcInfo') {
      if (body.tin !== options.tin || body.bhfId !== options.bhfId || body.dvcSrlNo !== options.deviceSerial)
        return [200, answer(RESULT.notValidDevice)];
      if (cmcKey) return [200, answer(RESULT.deviceInstalled)];
      cmcKey = random(32, '0123456789abcdef');
      return [
        200,
        answer(RESULT.ok, {
          info: {
            tin: options.tin,
            taxprNm: 'MCHANGA SAND SUPPLIES LTD',
            bsnsActv: 'Sand supply',
            bhfId: options.bhfId,
            bhfNm: 'Headquarter',
            bhfOpenDt: '20240101',
            prvncNm: 'KIAMBU',
            dstrtNm: 'JUJA',
            sctrNm: 'JUJA',
            locDesc: 'Juja Yard',
            hqYn: 'Y',
            mgrNm: 'Manager',
            mgrTelNo: '0700000000',
            mgrEmail: 'dispatch@mchanga.co.ke',
            dvcId: '9999911300000001',
            sdcId: 'KRACU0300000123',
            mrcNo: 'WIS01000150',
            cmcKey,
          },
        }),
      ];
    }
    if (!h.tin || !h.bhfid || !h.cmckey) return [200, answer('900')];
    if (h.tin !== options.tin || h.bhfid !== options.bhfId || h.cmckey !== cmcKey)
      return [200, answer(RESULT.notValidDevice)];
    switch (path) {
      case '/selectCodeList':
        if (!DT.test(String(body.lastReqDt))) return [200, answer(RESULT.requestParameter)];
        return [
          200,
          answer(RESULT.ok, {
            clsList: [
              {
                cdCls: '04',
                cdClsNm: 'Taxation Type',
                useYn: 'Y',
                dtlList: TAX_TYPES.map((t, i) => ({
                  cd: t,
                  cdNm: `${t}`,
                  srtOrd: i + 1,
                  userDfnCd1: String(TAX_RATES[t]),
                  useYn: 'Y',
                })),
              },
              {
                cdCls: '10',
                cdClsNm: 'Quantity Unit',
                useYn: 'Y',
                dtlList: [{ cd: QTY_UNIT_TONNE, cdNm: 'tonne (metric ton)', useYn: 'Y' }],
              },
              {
                cdCls: '17',
                cdClsNm: 'Packing Unit',
                useYn: 'Y',
                dtlList: [
                  { cd: PKG_UNIT_BULK, cdNm: 'Bulk, solid, granular particles (grains)', useYn: 'Y' },
                ],
              },
              {
                cdCls: '07',
                cdClsNm: 'Payment Type',
                useYn: 'Y',
                dtlList: [
                  { cd: '06', cdNm: 'MOBILE MONEY', useYn: 'Y' },
                  { cd: '07', cdNm: 'OTHER', useYn: 'Y' },
                ],
              },
            ],
          }),
        ];
      case '/selectItemClsList':
        if (!DT.test(String(body.lastReqDt))) return [200, answer(RESULT.requestParameter)];
        return [
          200,
          answer(RESULT.ok, {
            itemClsList: [
              {
                itemClsCd: '1111150000',
                itemClsNm: 'Sand',
                itemClsLvl: 3,
                taxTyCd: null,
                mjrTgYn: null,
                useYn: 'Y',
              },
              {
                itemClsCd: SAND_ITEM_CLASS,
                itemClsNm: 'Sand',
                itemClsLvl: 4,
                taxTyCd: 'B',
                mjrTgYn: 'N',
                useYn: 'Y',
              },
              {
                itemClsCd: '1111160100',
                itemClsNm: 'Gravel',
                itemClsLvl: 4,
                taxTyCd: 'B',
                mjrTgYn: 'N',
                useYn: 'Y',
              },
            ],
          }),
        ];
      case '/saveItem': {
        const it = body as unknown as ItemSaveReq;
        const shape = /^KE[123]([A-Z]{2})([A-Z]{2,3})(\d{7})$/.exec(String(it.itemCd));
        if (
          !shape ||
          shape[1] !== it.pkgUnitCd ||
          shape[2] !== it.qtyUnitCd ||
          !/^\d{10}$/.test(String(it.itemClsCd)) ||
          !TAX_TYPES.includes(it.taxTyCd) ||
          it.useYn !== 'Y' ||
          !it.regrId
        )
          return [200, answer(RESULT.requestParameter)];
        items.set(it.itemCd, it);
        return [200, answer(RESULT.ok)];
      }
      case '/saveTrnsSalesOsdc': {
        const s = body as unknown as TrnsSalesSaveWrReq;
        if (sales.has(s.invcNo)) return [200, answer(RESULT.duplicate)];
        const expected = Math.max(0, ...sales.keys()) + 1;
        if (s.invcNo !== expected)
          return [
            200,
            answer(
              RESULT.requestParameter,
              null,
              `Invc No: ${s.invcNo} is invalid, use the expected value: ${expected}`,
            ),
          ];
        const problem = checkSale(s);
        if (problem)
          return [200, answer(RESULT.requestParameter, null, `Request parameter error: ${problem}`)];
        receiptsByType[s.rcptTyCd] = (receiptsByType[s.rcptTyCd] ?? 0) + 1;
        const held: HeldSale = {
          body: s,
          curRcptNo: receiptsByType[s.rcptTyCd]!,
          totRcptNo: sales.size + 1,
          intrlData: random(26),
          rcptSign: random(16),
          sdcDateTime: stamp(),
        };
        sales.set(s.invcNo, held);
        const data = {
          curRcptNo: held.curRcptNo,
          totRcptNo: held.totRcptNo,
          intrlData: held.intrlData,
          rcptSign: held.rcptSign,
          sdcDateTime: held.sdcDateTime,
        };
        const delay = slowSales.shift();
        if (delay) {
          // Taken and kept; the answer comes too late for the caller (a lost answer).
          await new Promise((r) => setTimeout(r, delay));
          if (res.destroyed) return [0, {}];
        }
        return [200, answer(RESULT.ok, data)];
      }
      case '/selectInvoiceDetails': {
        if (options.lookup === false) return [404, { error: 'Resource not found' }];
        const held = sales.get(Number(body.invcNo));
        if (!held) return [200, answer(RESULT.noResult)];
        return [
          200,
          answer(RESULT.ok, {
            invcNo: held.body.invcNo,
            curRcptNo: held.curRcptNo,
            totRcptNo: held.totRcptNo,
            intrlData: held.intrlData,
            rcptSign: held.rcptSign,
            sdcDateTime: held.sdcDateTime,
          }),
        ];
      }
      case '/insertStockIO': {
        const io = body as unknown as StockIoSaveReq;
        if (stockIOs.has(io.sarNo)) return [200, answer(RESULT.duplicate)];
        const expected = Math.max(0, ...stockIOs.keys()) + 1;
        if (io.sarNo !== expected)
          return [
            200,
            answer(
              RESULT.requestParameter,
              null,
              `Invalid sarNo: Expected: ${expected} but found: ${io.sarNo}`,
            ),
          ];
        if (
          !D.test(io.ocrnDt) ||
          !['11', '03'].includes(io.sarTyCd) ||
          !io.itemList?.length ||
          io.regTyCd !== 'A'
        )
          return [200, answer(RESULT.requestParameter)];
        for (const it of io.itemList) {
          if (!items.has(it.itemCd)) return [200, answer(RESULT.requestParameter, null, `item ${it.itemCd}`)];
          if (io.sarTyCd === '11') {
            const { sold, out } = soldAndOut(it.itemCd);
            if (out + it.qty > sold + 1e-9) return [200, answer(RESULT.salesFirst)];
          }
        }
        stockIOs.set(io.sarNo, io);
        return [200, answer(RESULT.ok)];
      }
      case '/saveStockMaster': {
        if (!items.has(String(body.itemCd)) || !(Number(body.rsdQty) >= 0))
          return [200, answer(RESULT.requestParameter)];
        stockMaster.set(String(body.itemCd), Number(body.rsdQty));
        return [200, answer(RESULT.ok)];
      }
      default:
        return [404, { error: 'Resource not found' }];
    }
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const text = await readBody(req);
    let body: Json | null = null;
    try {
      body = text ? (JSON.parse(text) as Json) : null;
    } catch {
      body = null;
    }
    // Recorded on arrival: a request whose answer comes late (or never) was still taken.
    const call: Call = { path: url.pathname, body, headers: req.headers, status: 0, resultCd: null };
    calls.push(call);
    const record = (status: number, payload: unknown) => {
      call.status = status;
      call.resultCd = (payload as { resultCd?: string } | null)?.resultCd ?? null;
      if (status > 0 && !res.destroyed) send(res, status, payload);
    };
    if (outage503) return record(503, { fault: { faultstring: 'The Service is temporarily unavailable' } });
    if (req.method === 'GET' && url.pathname === TOKEN_PATH) {
      const expected = `Basic ${btoa(`${options.consumerKey}:${options.consumerSecret}`)}`;
      if (
        url.searchParams.get('grant_type') !== 'client_credentials' ||
        req.headers.authorization !== expected
      )
        return record(401, { errorCode: '401.002.01', errorMessage: 'Invalid client credentials' });
      tokenSeq += 1;
      const token = `kra-token-${tokenSeq}`;
      tokens.add(token);
      return record(200, { access_token: token, expires_in: '3599' });
    }
    if (req.method !== 'POST' || !url.pathname.startsWith(`${OSCU_PREFIX}/`))
      return record(404, { error: 'Resource not found' });
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !tokens.has(token)) return record(401, { fault: { faultstring: 'Invalid access token' } });
    if (!body) return record(200, answer('911'));
    const [status, payload] = await oscu(url.pathname.slice(OSCU_PREFIX.length), req, body, res);
    record(status, payload);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });

  const listen = () =>
    new Promise<void>((r) =>
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as AddressInfo).port;
        listening = true;
        r();
      }),
    );
  const close = () =>
    new Promise<void>((r) => {
      if (!listening) return r();
      listening = false;
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });

  return {
    calls,
    sales,
    items,
    stockIOs,
    stockMaster,
    get cmcKey() {
      return cmcKey;
    },
    /** Calls to one OSCU path (e.g. '/saveTrnsSalesOsdc'). */
    callsTo: (path: string) => calls.filter((c) => c.path === `${OSCU_PREFIX}${path}`),
    /** The next sales are taken, and answered only after `ms` (a caller with a shorter time-out loses it). */
    answerLate(ms: number, count = 1) {
      for (let i = 0; i < count; i++) slowSales.push(ms);
    },
    /** Every request answered 503 by the gateway while true. */
    set outage503(v: boolean) {
      outage503 = v;
    },
    /** Forgets every token (as when KRA's expire early). */
    revokeTokens: () => tokens.clear(),
    /** Stops listening (connections refused) until `up()`, on the same port. */
    down: close,
    up: listen,
    async start() {
      await listen();
      const base = `http://127.0.0.1:${port}`;
      return { baseUrl: `${base}${OSCU_PREFIX}`, tokenUrl: `${base}${TOKEN_PATH}` };
    },
    stop: close,
  };
}
