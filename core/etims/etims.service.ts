import type { Db } from '../../drizzle/db';
import type { InvoiceLine, SandType } from '../../shared/domain/invoices';
import {
  FIRST_REQUEST_DT,
  RESULT,
  RESULT_MESSAGES,
  SAND_ITEM_CLASS,
  SAND_TYPES,
  STOCK_IO,
  type TaxType,
  TRANSIENT_RESULTS,
} from '../../shared/etims/codes';
import {
  type ItemClass,
  type OscuAnswer,
  type OscuClient,
  OscuError,
  oscuClient,
  oscuConfigOf,
  type SaleSigned,
} from '../../shared/etims/oscu-client';
import {
  itemPayload,
  salePayload,
  stockIoPayload,
  stockMasterPayload,
  traderInvoiceNo,
} from '../../shared/etims/payloads';
import type { Logger } from '../../shared/logger';
import type { EtimsLinkStatus } from '../../shared/schemas/invoices';
import { etimsOn, type Settings } from '../../shared/settings';
import { type InvoiceRow, invoiceById, updateInvoice } from '../invoices/invoices.queries';
import * as b from './branch.queries';
import * as q from './delivery.queries';

/**
 * Back-off between passes while KRA is away: doubling from 5 s up to a minute. The sweep job runs every
 * minute, so attempts are never more than 2 minutes apart, however long the outage, and a sale goes
 * within about 2 minutes of KRA answering again.
 */
export const BASE_BACKOFF_MS = 5_000;
export const MAX_BACKOFF_MS = 60_000;
/** The promise: attempts at most this far apart (the back-off plus the sweep's minute). */
export const MAX_ATTEMPT_GAP_MS = 120_000;
/** A pass holds its branch this long, renewed per invoice: another runner waits its turn meanwhile. */
export const LEASE_MS = 3 * 60_000;
/** Code lists and item classes are fetched again after a month. */
export const REFERENCE_MAX_AGE_MS = 30 * 24 * 3600_000;

export function backoffMs(failures: number): number {
  return Math.min(MAX_BACKOFF_MS, BASE_BACKOFF_MS * 2 ** Math.max(0, failures - 1));
}

export interface EtimsContext {
  db: Db;
  settings: Pick<Settings, 'etims'>;
  now: () => Date;
  log: Logger;
  workerId?: string;
}

export interface EtimsRunOptions {
  /** The OSCU client to use (tests give one with a short time-out); the process's shared one otherwise. */
  client?: OscuClient;
  /** Ignore the back-off (a person asked for the send). */
  force?: boolean;
}

export type EtimsRunResult =
  | { outcome: 'off' | 'busy' | 'waiting' }
  | { outcome: 'done'; signed: number; stock: number; blockedBy: number | null }
  | { outcome: 'retry'; status: EtimsLinkStatus; message: string; retryAt: Date };

/** The branch the settings name: 'local' while eTIMS is off, else `<PIN>-<branch id>`. */
export function branchIdFor(settings: Pick<Settings, 'etims'>): string {
  const e = settings.etims;
  return etimsOn(settings) && e.tin ? b.branchIdOf(e.tin, e.bhfId) : b.LOCAL_BRANCH;
}

/**
 * Makes the settings' branch the active one (at start, in the server and the worker): invoices issued from
 * now on are numbered under it. A branch keeps its counters and its device key across restarts.
 */
export async function syncEtimsBranch(db: Db, settings: Pick<Settings, 'etims'>, now: Date) {
  const e = settings.etims;
  const on = etimsOn(settings);
  await b.activateBranch(
    db,
    {
      id: branchIdFor(settings),
      tin: on ? (e.tin ?? null) : null,
      bhfId: on ? e.bhfId : null,
      deviceSerial: on ? (e.deviceSerial ?? null) : null,
      enabled: on,
      vatRegistered: e.vatRegistered,
    },
    now,
  );
}

/** KRA refused something that is not one invoice's content: the device, its code lists or its items. */
class LinkRefused extends Error {
  constructor(
    readonly status: 'device' | 'unreachable',
    message: string,
  ) {
    super(message);
  }
}

const kraSaid = (a: Pick<OscuAnswer, 'resultCd' | 'resultMsg'>) =>
  `${a.resultCd} ${a.resultMsg || RESULT_MESSAGES[a.resultCd] || ''}`.trim();

/**
 * One delivery pass for the active branch: device, code lists and items first (once), then the unsigned
 * invoices in number order, then the stock movements of the signed ones. KRA away or refusing the keys is
 * recorded on the branch with the next attempt's time and never thrown; a refused invoice stops the pass
 * (the ones after it wait: KRA takes invoice numbers in order) and is shown with KRA's code and message.
 */
export async function runEtimsQueue(
  ctx: EtimsContext,
  options: EtimsRunOptions = {},
): Promise<EtimsRunResult> {
  let total: EtimsRunResult | undefined;
  // An invoice issued while this pass held the branch found it busy: after releasing it, look again.
  for (let round = 0; round < 5; round++) {
    const result = await onePass(ctx, options);
    if (result.outcome === 'retry' || result.outcome === 'off') return result;
    // Another runner took the branch meanwhile: it sends what is left.
    if (result.outcome !== 'done') return total ?? result;
    total =
      total?.outcome === 'done'
        ? { ...result, signed: total.signed + result.signed, stock: total.stock + result.stock }
        : result;
    if (result.blockedBy !== null) return total;
    const branch = await b.activeBranch(ctx.db);
    if (!branch || (await q.countUnsigned(ctx.db, branch.id)) === 0) return total;
  }
  return total!;
}

async function onePass(ctx: EtimsContext, options: EtimsRunOptions): Promise<EtimsRunResult> {
  const config = oscuConfigOf(ctx.settings);
  const branch = await b.activeBranch(ctx.db);
  if (!config || !branch?.enabled || branch.id !== b.branchIdOf(config.tin, config.bhfId))
    return { outcome: 'off' };
  const now = ctx.now();
  if (!options.force && branch.retryAt && branch.retryAt > now) return { outcome: 'waiting' };
  // Unique per pass: two jobs of one process must not share a lease.
  const owner = `${ctx.workerId ?? `etims:${process.pid}`}:${crypto.randomUUID()}`;
  if (!(await b.takeLease(ctx.db, branch.id, owner, now, new Date(now.getTime() + LEASE_MS))))
    return { outcome: 'busy' };
  const client = options.client ?? oscuClient(config);
  const run = new Pass(ctx, client, branch, owner);
  try {
    await run.ensureDevice();
    const { signed, blockedBy } = await run.sendSales();
    const stock = await run.sendStock();
    await run.settle(blockedBy);
    return { outcome: 'done', signed, stock, blockedBy };
  } catch (err) {
    if (err instanceof OscuError || err instanceof LinkRefused) return run.backOff(err);
    throw err;
  } finally {
    await b.releaseLease(ctx.db, branch.id, owner);
  }
}

/** One pass's state: the branch as it stands, and the client. */
class Pass {
  constructor(
    private readonly ctx: EtimsContext,
    private readonly client: OscuClient,
    private branch: b.BranchRow,
    private readonly owner: string,
  ) {}

  private get now() {
    return this.ctx.now();
  }

  private get key(): string {
    return this.branch.cmcKey!;
  }

  private get taxType(): TaxType {
    return this.branch.vatRegistered ? 'B' : 'D';
  }

  private async saveBranch(values: b.BranchUpdate) {
    await b.updateBranch(this.ctx.db, this.branch.id, { ...values, updatedAt: this.now });
    this.branch = { ...this.branch, ...values } as b.BranchRow;
  }

  private async renewLease() {
    const now = this.now;
    await b.takeLease(this.ctx.db, this.branch.id, this.owner, now, new Date(now.getTime() + LEASE_MS));
  }

  /** Initialise the device once, keep KRA's code lists (monthly) and register the two items once. */
  async ensureDevice() {
    if (!this.branch.cmcKey) await this.initialise();
    const fetched = this.branch.referenceFetchedAt;
    if (!fetched || this.now.getTime() - fetched.getTime() > REFERENCE_MAX_AGE_MS)
      await this.refreshReference();
    if (!this.branch.itemsRegisteredAt) await this.registerItems();
  }

  private async initialise() {
    const answer = await this.client.initDevice();
    const info = answer.data?.info;
    if (answer.resultCd === RESULT.ok && info?.cmcKey) {
      await this.saveBranch({
        cmcKey: info.cmcKey,
        sdcId: info.sdcId ?? null,
        mrcNo: info.mrcNo ?? null,
        dvcId: info.dvcId ?? null,
        taxpayerName: info.taxprNm ?? null,
        kraBhfId: info.bhfId ?? null,
        kraBranchName: info.bhfNm ?? null,
        initialisedAt: this.now,
      });
      return;
    }
    if (answer.resultCd === RESULT.deviceInstalled)
      throw new LinkRefused(
        'device',
        `KRA answered ${kraSaid(answer)}: this device serial was initialised before and its communication key (cmcKey) is not in this database. Restore the database that holds it, or ask KRA to reset the device.`,
      );
    throw new LinkRefused(
      'device',
      `KRA refused the device initialisation: ${kraSaid(answer)}. Check ETIMS_TIN, ETIMS_BHF_ID (00 or 01) and ETIMS_DEVICE_SERIAL.`,
    );
  }

  private async refreshReference() {
    const codesBefore = await b.referenceOf(this.ctx.db, this.branch.id, 'codes');
    const classesBefore = await b.referenceOf(this.ctx.db, this.branch.id, 'item_classes');
    const codes = await this.client.codeList(this.key, codesBefore?.resultDt ?? FIRST_REQUEST_DT);
    const classes = await this.client.itemClasses(this.key, classesBefore?.resultDt ?? FIRST_REQUEST_DT);
    for (const a of [codes, classes])
      if (a.resultCd !== RESULT.ok && a.resultCd !== RESULT.noResult)
        throw new LinkRefused('unreachable', `KRA did not give its code lists: ${kraSaid(a)}`);
    const now = this.now;
    if (codes.resultCd === RESULT.ok)
      await b.saveReference(
        this.ctx.db,
        this.branch.id,
        'codes',
        mergeBy(codesBefore?.data, codes.data?.clsList ?? [], 'cdCls'),
        codes.resultDt,
        now,
      );
    let list = (classesBefore?.data as ItemClass[] | undefined) ?? [];
    if (classes.resultCd === RESULT.ok) {
      list = mergeBy(list, classes.data?.itemClsList ?? [], 'itemClsCd');
      await b.saveReference(this.ctx.db, this.branch.id, 'item_classes', list, classes.resultDt, now);
    }
    const itemClass = sandClassOf(list);
    if (itemClass !== this.branch.itemClass) {
      if (!list.some((c) => c.itemClsCd === itemClass))
        this.ctx.log.warn({ itemClass }, 'KRA item classes list no sand class; using UNSPSC 11111501');
      // A new classification means the items are registered again with it.
      await this.saveBranch({ itemClass, itemsRegisteredAt: null });
    }
    await this.saveBranch({ referenceFetchedAt: now });
  }

  private async registerItems() {
    const price = await q.basePriceCents(this.ctx.db);
    for (const sand of SAND_TYPES) {
      const answer = await this.client.saveItem(
        this.key,
        itemPayload(sand, this.branch.itemClass ?? SAND_ITEM_CLASS, this.taxType, Math.round(price / 20)),
      );
      if (answer.resultCd !== RESULT.ok && answer.resultCd !== RESULT.duplicate)
        throw new LinkRefused('device', `KRA refused the item ${sand} sand: ${kraSaid(answer)}`);
    }
    await this.saveBranch({ itemsRegisteredAt: this.now });
  }

  /** The unsigned invoices in number order, until none is left or one is refused. */
  async sendSales(): Promise<{ signed: number; blockedBy: number | null }> {
    let signed = 0;
    for (;;) {
      const invoice = await q.nextUnsigned(this.ctx.db, this.branch.id);
      if (!invoice) return { signed, blockedBy: null };
      if (invoice.status === 'failed') return { signed, blockedBy: invoice.number };
      await this.renewLease();
      if (await this.sendSale(invoice)) signed += 1;
      else return { signed, blockedBy: invoice.number };
    }
  }

  /** Sends one invoice (asking first when an earlier send's answer was lost); true once KRA holds it. */
  private async sendSale(invoice: InvoiceRow): Promise<boolean> {
    const db = this.ctx.db;
    if (invoice.status === 'sent') {
      const held = await this.lookup(invoice.number);
      if (held) {
        await this.markSigned(invoice, held, RESULT.ok, 'Found at KRA after a lost answer');
        return true;
      }
    }
    const original = invoice.originalId ? await invoiceById(db, invoice.originalId) : undefined;
    const payload = salePayload({
      number: invoice.number,
      kind: invoice.kind,
      originalNumber: original?.number ?? null,
      customerName: invoice.customerName,
      customerPin: invoice.customerPin,
      customerPhone: invoice.customerPhone,
      paymentType: invoice.paymentType,
      reasonCode: invoice.reasonCode,
      taxType: invoice.taxType as TaxType,
      lines: invoice.lines as InvoiceLine[],
      issuedAt: invoice.issuedAt,
      itemClass: this.branch.itemClass ?? SAND_ITEM_CLASS,
    });
    // Marked before the call: a process killed while KRA answers leaves it `sent`, asked about next time.
    await updateInvoice(db, invoice.id, {
      status: 'sent',
      attempts: invoice.attempts + 1,
      lastAttemptAt: this.now,
      updatedAt: this.now,
    });
    let answer: OscuAnswer<SaleSigned>;
    try {
      answer = await this.client.saveSale(this.key, payload);
    } catch (err) {
      // Nothing reached KRA: it is simply still waiting its turn.
      if (err instanceof OscuError && !err.mayHaveArrived)
        await updateInvoice(db, invoice.id, { status: 'pending', updatedAt: this.now });
      throw err;
    }
    if (answer.resultCd === RESULT.ok && answer.data?.rcptSign) {
      await this.markSigned(invoice, answer.data, answer.resultCd, answer.resultMsg);
      return true;
    }
    if (answer.resultCd === RESULT.duplicate) {
      // KRA holds this invoice number already: an earlier send went through. Its signature, if KRA says.
      const held = await this.lookup(invoice.number);
      await this.markSigned(
        invoice,
        held ?? null,
        answer.resultCd,
        `${kraSaid(answer)}: accepted by an earlier send`,
      );
      return true;
    }
    const values = {
      kraResultCode: answer.resultCd,
      kraResultMessage: answer.resultMsg || RESULT_MESSAGES[answer.resultCd] || null,
      updatedAt: this.now,
    };
    if (TRANSIENT_RESULTS.includes(answer.resultCd)) {
      await updateInvoice(db, invoice.id, { ...values, status: 'pending' });
      throw new LinkRefused(
        'unreachable',
        `KRA answered ${kraSaid(answer)} for ${traderInvoiceNo(invoice.kind, invoice.number)}`,
      );
    }
    await updateInvoice(db, invoice.id, { ...values, status: 'failed' });
    this.ctx.log.warn(
      { invoice: invoice.number, resultCd: answer.resultCd, resultMsg: answer.resultMsg },
      'KRA refused an invoice',
    );
    return false;
  }

  /** KRA's record of invoice `number`, when it says it holds one (see OscuClient.lookupSale). */
  private async lookup(number: number): Promise<SaleSigned | null> {
    try {
      const answer = await this.client.lookupSale(this.key, number);
      const data = answer.data;
      if (answer.resultCd === RESULT.ok && data?.rcptSign) return data as SaleSigned;
      return null;
    } catch (err) {
      // A gateway without the look-up (404, 405) is no answer: sending again is safe (994 if KRA holds it).
      if (err instanceof OscuError && err.kind === 'unknown' && err.status && err.status < 500) return null;
      throw err;
    }
  }

  private async markSigned(invoice: InvoiceRow, data: SaleSigned | null, code: string, message: string) {
    const stock = invoice.kind === 'S' ? invoice.tonnes : invoice.stockTonnes;
    await updateInvoice(this.ctx.db, invoice.id, {
      status: 'signed',
      signedAt: this.now,
      kraResultCode: code,
      kraResultMessage: message || RESULT_MESSAGES[code] || null,
      receiptNo: data ? String(data.curRcptNo) : null,
      totalReceiptNo: data ? String(data.totRcptNo) : null,
      internalData: data?.intrlData ?? null,
      receiptSignature: data?.rcptSign ?? null,
      sdcDateTime: data?.sdcDateTime ?? null,
      sdcId: this.branch.sdcId,
      mrcNo: this.branch.mrcNo,
      stockStatus: stock > 0 ? 'pending' : 'none',
      stockTonnes: stock,
      updatedAt: this.now,
    });
  }

  /** Stock movements of signed invoices, after their sales: the movement, then each item's remaining stock. */
  async sendStock(): Promise<number> {
    let done = 0;
    const db = this.ctx.db;
    for (const invoice of await q.stockToSend(db, this.branch.id)) {
      await this.renewLease();
      let sarNo = invoice.stockSarNo;
      if (sarNo === null) {
        sarNo = await db.transaction(async (tx) => {
          const n = await b.takeSarNumber(tx, this.branch.id);
          await updateInvoice(tx, invoice.id, { stockSarNo: n });
          return n;
        });
      }
      const original = invoice.originalId ? await invoiceById(db, invoice.originalId) : undefined;
      const lines = movedLines(invoice.lines as InvoiceLine[], invoice.stockTonnes);
      const io = await this.client.saveStockIO(
        this.key,
        stockIoPayload({
          sarNo,
          originalSarNo: original?.stockSarNo ?? null,
          type: invoice.kind === 'S' ? STOCK_IO.sale : STOCK_IO.returnIn,
          customerName: invoice.customerName,
          customerPin: invoice.customerPin,
          occurredAt: invoice.issuedAt,
          taxType: invoice.taxType as TaxType,
          itemClass: this.branch.itemClass ?? SAND_ITEM_CLASS,
          lines,
          remark: traderInvoiceNo(invoice.kind, invoice.number),
        }),
      );
      if (io.resultCd === RESULT.salesFirst) {
        // KRA has not taken the sale this movement belongs to yet: later, in order.
        await updateInvoice(db, invoice.id, { stockMessage: kraSaid(io), updatedAt: this.now });
        break;
      }
      if (io.resultCd !== RESULT.ok && io.resultCd !== RESULT.duplicate) {
        await updateInvoice(db, invoice.id, {
          stockStatus: 'failed',
          stockMessage: kraSaid(io),
          updatedAt: this.now,
        });
        continue;
      }
      let refused: string | null = null;
      for (const sand of new Set(lines.map((l) => l.sandType))) {
        const master = await this.client.saveStockMaster(
          this.key,
          stockMasterPayload(sand as SandType, await q.yardTonnes(db, sand as SandType)),
        );
        if (master.resultCd !== RESULT.ok) refused = kraSaid(master);
      }
      await updateInvoice(db, invoice.id, {
        stockStatus: refused ? 'failed' : 'done',
        stockMessage: refused,
        updatedAt: this.now,
      });
      if (!refused) done += 1;
    }
    return done;
  }

  /** The pass went through: the link is well (or blocked by a refused invoice). */
  async settle(blockedBy: number | null) {
    const status: EtimsLinkStatus = blockedBy === null ? 'ok' : 'blocked';
    const blocked = blockedBy === null ? undefined : await this.refusedInvoice(blockedBy);
    const message = blocked
      ? `${traderInvoiceNo(blocked.kind, blocked.number)} was refused by KRA (${blocked.kraResultCode} ${blocked.kraResultMessage ?? ''}): the invoices after it wait. Send it again once the cause is fixed.`.replace(
          /\s+\)/,
          ')',
        )
      : null;
    if (status !== this.branch.status || message !== this.branch.statusMessage)
      this.ctx.log.info({ branch: this.branch.id, status, message }, 'eTIMS link status');
    await this.saveBranch({
      status,
      statusMessage: message,
      statusAt:
        status === this.branch.status && message === this.branch.statusMessage
          ? this.branch.statusAt
          : this.now,
      failures: 0,
      retryAt: null,
    });
  }

  private async refusedInvoice(number: number) {
    const invoice = await q.nextUnsigned(this.ctx.db, this.branch.id);
    return invoice?.number === number ? invoice : undefined;
  }

  /** KRA away (or refusing the keys or the device): record it, and when the sweep may try again. */
  async backOff(err: OscuError | LinkRefused): Promise<EtimsRunResult> {
    const now = this.now;
    const failures = this.branch.failures + 1;
    const retryAt = new Date(now.getTime() + backoffMs(failures));
    const status: EtimsLinkStatus =
      err instanceof OscuError ? (err.kind === 'auth' ? 'credentials' : 'unreachable') : err.status;
    const message =
      err instanceof OscuError && err.kind === 'auth'
        ? `${err.message}. Check ETIMS_CONSUMER_KEY and ETIMS_CONSUMER_SECRET (the GavaConnect app's keys); invoices wait meanwhile.`
        : err.message;
    const changed = status !== this.branch.status || message !== this.branch.statusMessage;
    // Logged when it changes, not on every attempt of an outage of days.
    if (changed) this.ctx.log.warn({ branch: this.branch.id, status, message }, 'eTIMS link status');
    await this.saveBranch({
      status,
      statusMessage: message,
      statusAt: changed ? now : this.branch.statusAt,
      failures,
      retryAt,
    });
    return { outcome: 'retry', status, message, retryAt };
  }
}

/** Merges a fresh download into the cached list by key (KRA sends only what changed after lastReqDt). */
function mergeBy<T extends object>(before: unknown, fresh: T[], key: keyof T): T[] {
  const byKey = new Map<unknown, T>();
  for (const item of (Array.isArray(before) ? before : []) as T[]) byKey.set(item[key], item);
  for (const item of fresh) byKey.set(item[key], item);
  return [...byKey.values()];
}

/** UNSPSC 11111501 "Sand" when KRA lists it, else the first used class named sand, else 11111501 all the same. */
export function sandClassOf(list: readonly ItemClass[]): string {
  const used = list.filter((c) => c.useYn !== 'N');
  if (used.some((c) => c.itemClsCd === SAND_ITEM_CLASS)) return SAND_ITEM_CLASS;
  return used.find((c) => /\bsand\b/i.test(c.itemClsNm))?.itemClsCd ?? SAND_ITEM_CLASS;
}

/** The part of an invoice's lines that moves stock (`tonnes` of it), priced in proportion. */
function movedLines(lines: readonly InvoiceLine[], tonnes: number): InvoiceLine[] {
  const all = lines.reduce((s, l) => s + l.tonnes, 0);
  if (all <= 0 || tonnes >= all) return [...lines];
  const share = tonnes / all;
  return lines.map((l) => ({
    ...l,
    tonnes: Math.round(l.tonnes * share * 100) / 100,
    amountCents: Math.round(l.amountCents * share),
  }));
}
