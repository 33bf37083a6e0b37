import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../drizzle/db';
import { etimsBranches, invoices, users } from '../../drizzle/schema';
import { OscuClient, oscuConfigOf } from '../../shared/etims/oscu-client';
import { stockIoPayload } from '../../shared/etims/payloads';
import { silentLogger } from '../../shared/logger';
import type { Settings } from '../../shared/settings';
import { makeAssignment, makeOrder, makePayment, makeStock, makeTruck } from '../../test/factories';
import { fakeKra } from '../../test/fake-kra';
import { createTestDatabase, testSettings } from '../../test/helpers';
import { handlers } from '../../worker/handlers';
import { invoiceOrderPaid, issueCreditNote } from '../invoices/invoices.service';
import { jobContext } from '../jobs/context';
import { MAX_ATTEMPT_GAP_MS, MAX_BACKOFF_MS, runEtimsQueue, syncEtimsBranch } from './etims.service';

// The fake KRA suite (issue 23): every call goes over HTTP to test/fake-kra.ts, which speaks OSCU's
// documented wire format and keeps what a real OSCU keeps. Time is simulated: passes take `now`.

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const KEYS = { consumerKey: 'kra-key', consumerSecret: 'kra-secret' };
let tinSeq = 0;
/** A KRA PIN per test: each test has its own branch, numbered from 1 as its own fake KRA expects. */
const nextTin = () => `P05${String(Date.now() % 1e5).padStart(5, '0')}${String(++tinSeq).padStart(2, '0')}X`;

type Kra = ReturnType<typeof fakeKra>;
const fakes: Kra[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.stop();
});

interface Setup {
  kra: Kra;
  settings: Settings;
  client: OscuClient;
  clock: { now: Date };
  /** One delivery pass at the simulated time. */
  run: (force?: boolean) => ReturnType<typeof runEtimsQueue>;
  branchId: string;
}

async function setup(
  over: { vat?: boolean; secret?: string; lookup?: boolean; timeoutMs?: number } = {},
): Promise<Setup> {
  const tin = nextTin();
  const kra = fakeKra({ ...KEYS, tin, bhfId: '00', deviceSerial: 'DVC-TEST-1', lookup: over.lookup });
  fakes.push(kra);
  const urls = await kra.start();
  const settings = testSettings({
    etims: {
      ...urls,
      consumerKey: KEYS.consumerKey,
      consumerSecret: over.secret ?? KEYS.consumerSecret,
      tin,
      bhfId: '00',
      deviceSerial: 'DVC-TEST-1',
      vatRegistered: over.vat ?? false,
    },
  });
  const clock = { now: new Date('2026-11-23T07:00:00Z') };
  await syncEtimsBranch(database.db, settings, clock.now);
  const client = new OscuClient(oscuConfigOf(settings)!, { timeoutMs: over.timeoutMs ?? 2_000 });
  const ctx = { db: database.db, settings, now: () => clock.now, log: silentLogger };
  return {
    kra,
    settings,
    client,
    clock,
    branchId: `${tin}-00`,
    run: (force = false) => runEtimsQueue(ctx, { client, force }),
  };
}

/** A cash order paid in full by M-Pesa (or a bank), and its sale issued as the settlement issues it. */
async function paidOrder(at: Date, over: { trucks?: number; method?: string; pin?: string | null } = {}) {
  const order = await makeOrder(database.db, {
    trucks: over.trucks ?? 2,
    perTruckCents: 3_200_000,
    status: 'RECEIVED',
    paymentStatus: 'CONFIRMED',
    customerPin: over.pin ?? null,
  });
  await makePayment(database.db, {
    orderId: order.id,
    method: over.method ?? 'MPESA',
    status: 'CONFIRMED',
    amountCents: order.totalCents,
  });
  const sale = await database.db.transaction((tx) => invoiceOrderPaid(tx, order.id, at));
  return { order, sale: sale! };
}

const invoiceRow = async (id: number) =>
  (await database.db.select().from(invoices).where(eq(invoices.id, id)))[0]!;
const branchRow = async (id: string) =>
  (await database.db.select().from(etimsBranches).where(eq(etimsBranches.id, id)))[0]!;
const later = (s: Setup, ms: number) => {
  s.clock.now = new Date(s.clock.now.getTime() + ms);
};

describe('device, code lists and items', () => {
  it('initialises the device once (cmcKey kept); a re-initialisation is answered 902 and the key still serves', async () => {
    const s = await setup();
    await paidOrder(s.clock.now);
    expect(await s.run()).toMatchObject({ outcome: 'done', signed: 1 });
    const branch = await branchRow(s.branchId);
    expect(branch.cmcKey).toBe(s.kra.cmcKey);
    expect(branch.sdcId).toBe('KRACU0300000123');
    expect(branch.status).toBe('ok');
    // KRA hands the key out once: asked again, it answers 902.
    const again = await s.client.initDevice();
    expect(again.resultCd).toBe('902');
    await paidOrder(s.clock.now);
    expect(await s.run()).toMatchObject({ outcome: 'done', signed: 1 });
    expect(s.kra.callsTo('/selectInitOsdcInfo')).toHaveLength(2);
    // Every later call carried the stored key, the PIN and the branch.
    const sale = s.kra.callsTo('/saveTrnsSalesOsdc').at(-1)!;
    expect(sale.headers).toMatchObject({ tin: branch.tin, bhfid: '00', cmckey: branch.cmcKey });
  });

  it('a device initialised before whose key this database lost: 902 is a clear status, not a crash', async () => {
    const s = await setup();
    await s.client.initDevice(); // initialised elsewhere: KRA will not hand the key out again
    await paidOrder(s.clock.now);
    const result = await s.run();
    expect(result).toMatchObject({ outcome: 'retry', status: 'device' });
    expect((await branchRow(s.branchId)).statusMessage).toMatch(/902 This device is installed/);
  });

  it('fetches the code lists and item classes, and registers the two sand items (TNE, bulk, sand class)', async () => {
    const s = await setup();
    await paidOrder(s.clock.now);
    await s.run();
    expect(s.kra.callsTo('/selectCodeList')[0]!.body).toEqual({ lastReqDt: '20180520000000' });
    expect(s.kra.callsTo('/selectItemClsList')).toHaveLength(1);
    expect([...s.kra.items.values()]).toEqual([
      expect.objectContaining({
        itemCd: 'KE2VRTNE0000001',
        qtyUnitCd: 'TNE',
        pkgUnitCd: 'VR',
        itemClsCd: '1111150100',
        taxTyCd: 'D',
        dftPrc: 1600,
      }),
      expect.objectContaining({
        itemCd: 'KE2VRTNE0000002',
        qtyUnitCd: 'TNE',
        pkgUnitCd: 'VR',
        itemClsCd: '1111150100',
      }),
    ]);
    // Cached: a month later they are asked for again (changes since the last answer), not before.
    await paidOrder(s.clock.now);
    await s.run();
    expect(s.kra.callsTo('/selectCodeList')).toHaveLength(1);
    later(s, 31 * 24 * 3600_000);
    await paidOrder(s.clock.now);
    await s.run();
    expect(s.kra.callsTo('/selectCodeList')).toHaveLength(2);
    expect(s.kra.callsTo('/selectCodeList')[1]!.body!.lastReqDt).toMatch(/^\d{14}$/);
    expect(s.kra.callsTo('/saveItem')).toHaveLength(2);
  });
});

describe('sales', () => {
  it('a paid order is one sale: receipt type S, payment 06, non-VAT D, gap-free number, KRA signature stored', async () => {
    const s = await setup();
    const { order, sale } = await paidOrder(s.clock.now, { pin: 'P051234567X' });
    expect(sale).toMatchObject({
      number: 1,
      status: 'pending',
      kind: 'S',
      totalCents: 6_400_000,
      taxCents: 0,
    });
    await s.run();
    const held = s.kra.sales.get(1)!;
    expect(held.body).toMatchObject({
      invcNo: 1,
      trdInvcNo: 'INV-1',
      orgInvcNo: 0,
      rcptTyCd: 'S',
      pmtTyCd: '06',
      custTin: 'P051234567X',
      totAmt: 64_000,
      taxblAmtD: 64_000,
      totTaxAmt: 0,
      itemList: [
        expect.objectContaining({
          itemCd: 'KE2VRTNE0000001',
          qty: 40,
          qtyUnitCd: 'TNE',
          prc: 1600,
          totAmt: 64_000,
        }),
      ],
    });
    const row = await invoiceRow(sale.id);
    expect(row).toMatchObject({
      status: 'signed',
      orderId: order.id,
      receiptSignature: held.rcptSign,
      internalData: held.intrlData,
      receiptNo: '1',
      sdcId: 'KRACU0300000123',
      kraResultCode: '000',
    });
    // The same order paid again (a replayed settlement) is the same sale.
    const again = await database.db.transaction((tx) => invoiceOrderPaid(tx, order.id, s.clock.now));
    expect(again!.id).toBe(sale.id);
  });

  it('VAT-registered: tax type B at 16 %, the tax inside the price; a bank payment is type 07', async () => {
    const s = await setup({ vat: true });
    await paidOrder(s.clock.now, { trucks: 1, method: 'Equity' });
    await s.run();
    expect(s.kra.sales.get(1)!.body).toMatchObject({
      pmtTyCd: '07',
      taxblAmtB: 32_000,
      taxAmtB: 4413.79,
      totTaxAmt: 4413.79,
      totAmt: 32_000,
    });
  });

  it('stock after the sale: insertStockIO (11) and then saveStockMaster with the yard stock, never before', async () => {
    const s = await setup();
    await makeStock(database.db, { tonnes: 200, category: 'coarse' });
    const { sale } = await paidOrder(s.clock.now);
    await s.run();
    const paths = s.kra.calls.map((c) => c.path.replace('/etims-api', ''));
    const at = (p: string) => paths.indexOf(p);
    expect(at('/saveTrnsSalesOsdc')).toBeGreaterThan(-1);
    expect(at('/insertStockIO')).toBeGreaterThan(at('/saveTrnsSalesOsdc'));
    expect(at('/saveStockMaster')).toBeGreaterThan(at('/insertStockIO'));
    expect(s.kra.stockIOs.get(1)).toMatchObject({ sarNo: 1, sarTyCd: '11', remark: 'INV-1' });
    expect(s.kra.stockIOs.get(1)!.itemList[0]).toMatchObject({ qty: 40, itemCd: 'KE2VRTNE0000001' });
    expect(s.kra.stockMaster.get('KE2VRTNE0000001')).toBeGreaterThanOrEqual(200);
    expect(await invoiceRow(sale.id)).toMatchObject({ stockStatus: 'done', stockSarNo: 1 });
  });

  it('922: a sale’s stock movement sent before the sale is refused; after it, the same movement goes through', async () => {
    const s = await setup();
    expect(await s.run()).toMatchObject({ outcome: 'done', signed: 0 }); // device, code lists, items
    const key = (await branchRow(s.branchId)).cmcKey!;
    const io = stockIoPayload({
      sarNo: 1,
      originalSarNo: null,
      type: '11',
      customerName: 'Test Customer',
      customerPin: null,
      occurredAt: s.clock.now,
      taxType: 'D',
      itemClass: '1111150100',
      lines: [{ sandType: 'coarse', tonnes: 40, unitPriceCents: 160_000, amountCents: 6_400_000 }],
      remark: 'INV-1',
    });
    expect((await s.client.saveStockIO(key, io)).resultCd).toBe('922');
    expect(s.kra.stockIOs.size).toBe(0);
    const { sale } = await paidOrder(s.clock.now);
    await s.run();
    expect(s.kra.stockIOs.get(1)).toMatchObject({ sarNo: 1, sarTyCd: '11' });
    expect(await invoiceRow(sale.id)).toMatchObject({ stockStatus: 'done' });
  });
});

describe('credit notes', () => {
  it('receipt type R naming the original and the reason; never more than the original; undelivered sand back in stock', async () => {
    const s = await setup();
    const { order, sale } = await paidOrder(s.clock.now, { trucks: 2 });
    const truck = await makeTruck(database.db);
    await makeAssignment(database.db, {
      orderId: order.id,
      truckId: truck.id,
      tonnes: 20,
      status: 'DELIVERED',
      deliveredAt: s.clock.now,
    });
    const [row] = await database.db
      .insert(users)
      .values({ name: 'Admin', email: `admin-${order.id}@example.co.ke`, role: 'ADMIN', passwordHash: 'x' })
      .returning();
    const admin = {
      id: row!.id,
      role: 'ADMIN' as const,
      name: 'Admin',
      email: row!.email,
      phone: null,
      driverId: null,
    };
    // Part: KES 16,000 of the 64,000 (a quarter: 10 t, from the 20 t not delivered).
    const part = await issueCreditNote(
      database.db,
      admin,
      { id: order.id, amount: 16_000, reason: '06' },
      s.clock.now,
    );
    expect(part).toMatchObject({ label: 'CN-2', amount: 16_000, status: 'pending' });
    await expect(
      issueCreditNote(database.db, admin, { id: order.id, amount: 48_000.01, reason: '06' }, s.clock.now),
    ).rejects.toThrow(/cannot be more than what is left of the sale \(KES 48,000\)/);
    // The rest of the sale, when no amount is given.
    const rest = await issueCreditNote(database.db, admin, { id: order.id, reason: '01' }, s.clock.now);
    expect(rest.amount).toBe(48_000);
    await expect(
      issueCreditNote(database.db, admin, { id: order.id, reason: '06' }, s.clock.now),
    ).rejects.toThrow(/fully credited/);
    await s.run();
    expect(s.kra.sales.get(2)!.body).toMatchObject({
      rcptTyCd: 'R',
      orgInvcNo: 1,
      rfdRsnCd: '06',
      totAmt: 16_000,
    });
    expect(s.kra.sales.get(2)!.body.itemList[0]).toMatchObject({ qty: 10 });
    expect(s.kra.sales.get(3)!.body).toMatchObject({
      rcptTyCd: 'R',
      orgInvcNo: 1,
      rfdRsnCd: '01',
      totAmt: 48_000,
    });
    // 20 t were never delivered: 10 t come back with the first note, 10 t with the second (30 t credited).
    const returns = [...s.kra.stockIOs.values()].filter((io) => io.sarTyCd === '03');
    expect(returns.map((io) => io.itemList[0]!.qty)).toEqual([10, 10]);
    expect((await invoiceRow(sale.id)).status).toBe('signed');
  });
});

describe('KRA away', () => {
  it('a time-out after KRA took the sale: the next pass asks first and signs it — exactly one invoice at KRA', async () => {
    const s = await setup({ timeoutMs: 300 });
    const { sale } = await paidOrder(s.clock.now);
    s.kra.answerLate(1_000);
    const first = await s.run();
    expect(first).toMatchObject({ outcome: 'retry', status: 'unreachable' });
    expect(await invoiceRow(sale.id)).toMatchObject({ status: 'sent', attempts: 1 });
    // Within the back-off nothing is tried; after it, the look-up finds the sale.
    expect(await s.run()).toEqual({ outcome: 'waiting' });
    later(s, MAX_BACKOFF_MS);
    expect(await s.run()).toMatchObject({ outcome: 'done', signed: 1 });
    expect(s.kra.callsTo('/selectInvoiceDetails')).toHaveLength(1);
    expect(s.kra.callsTo('/saveTrnsSalesOsdc')).toHaveLength(1);
    expect(s.kra.sales.size).toBe(1);
    expect(await invoiceRow(sale.id)).toMatchObject({
      status: 'signed',
      receiptSignature: s.kra.sales.get(1)!.rcptSign,
      attempts: 1,
    });
  });

  it('994: sent again after a lost answer, a number KRA holds is read as accepted (gateway without the look-up)', async () => {
    const s = await setup({ timeoutMs: 300, lookup: false });
    const { sale } = await paidOrder(s.clock.now);
    s.kra.answerLate(1_000);
    await s.run();
    later(s, MAX_BACKOFF_MS);
    expect(await s.run()).toMatchObject({ outcome: 'done', signed: 1 });
    const sends = s.kra.callsTo('/saveTrnsSalesOsdc');
    // The first was taken (its answer lost); the second, the same number, is answered 994.
    expect(sends.map((c) => c.body!.invcNo)).toEqual([1, 1]);
    expect(sends[1]!.resultCd).toBe('994');
    expect(s.kra.sales.size).toBe(1);
    expect(await invoiceRow(sale.id)).toMatchObject({ status: 'signed', kraResultCode: '994', attempts: 2 });
  });

  it('a 6-hour outage: attempts at most 2 minutes apart, then every invoice in number order, without gaps', async () => {
    const s = await setup();
    await paidOrder(s.clock.now);
    await s.run(); // the device is initialised and invoice 1 signed before KRA goes away
    await s.kra.down();
    const start = s.clock.now.getTime();
    const attempts: number[] = [];
    const issued: number[] = [];
    // The sweep job runs every minute: a pass each minute, tried only once the back-off is over.
    for (let t = 0; t <= 6 * 3600_000; t += 60_000) {
      s.clock.now = new Date(start + t);
      if (t % 3600_000 === 0) issued.push((await paidOrder(s.clock.now)).sale.number);
      const r = await s.run();
      if (r.outcome === 'retry') attempts.push(t);
      expect(r.outcome).not.toBe('done');
    }
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(MAX_ATTEMPT_GAP_MS);
    expect(attempts.length).toBeGreaterThanOrEqual(170);
    expect((await branchRow(s.branchId)).status).toBe('unreachable');
    // KRA is back: within 2 minutes of simulated time the backlog is signed, in order.
    await s.kra.up();
    const back = s.clock.now.getTime();
    let signedAt: number | null = null;
    for (let t = 60_000; t <= 180_000 && signedAt === null; t += 60_000) {
      s.clock.now = new Date(back + t);
      const r = await s.run();
      if (r.outcome === 'done') signedAt = t;
    }
    expect(signedAt).not.toBeNull();
    expect(signedAt!).toBeLessThanOrEqual(MAX_ATTEMPT_GAP_MS);
    expect(issued).toEqual([2, 3, 4, 5, 6, 7, 8]);
    const order = s.kra.callsTo('/saveTrnsSalesOsdc').map((c) => c.body!.invcNo);
    expect(order).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([...s.kra.sales.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await branchRow(s.branchId)).status).toBe('ok');
  });

  it('wrong credentials: a clear status, invoices wait, and the job completes instead of crash-looping', async () => {
    const s = await setup({ secret: 'not-the-secret' });
    const { sale } = await paidOrder(s.clock.now);
    const result = await s.run();
    expect(result).toMatchObject({ outcome: 'retry', status: 'credentials' });
    const branch = await branchRow(s.branchId);
    expect(branch.statusMessage).toMatch(/KRA refused the eTIMS consumer key and secret \(HTTP 401\)/);
    expect(branch.statusMessage).toMatch(/ETIMS_CONSUMER_SECRET/);
    expect((await invoiceRow(sale.id)).status).toBe('pending');
    // As the worker runs it: the handler returns, it does not throw (no retry storm).
    later(s, MAX_BACKOFF_MS);
    const ctx = jobContext(
      { database, settings: s.settings, llm: null, now: () => s.clock.now, log: silentLogger },
      async () => ({ id: 'x' }),
      { jobId: 'etims.sweep:1', attempt: 1, transport: 'in-process', workerId: 'test' },
    );
    await expect(handlers['etims.sweep']({}, ctx)).resolves.toMatchObject({ status: 'credentials' });
    expect(s.kra.callsTo('/saveTrnsSalesOsdc')).toHaveLength(0);
  });
});

describe('numbering', () => {
  it('sales are numbered without gaps per branch, also when payments settle at once; off numbers locally', async () => {
    const s = await setup();
    const made = await Promise.all(Array.from({ length: 8 }, () => paidOrder(s.clock.now)));
    expect(made.map((m) => m.sale.number).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // A rolled-back issue gives its number back.
    const order = await makeOrder(database.db, { status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    await expect(
      database.db.transaction(async (tx) => {
        await invoiceOrderPaid(tx, order.id, s.clock.now);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await paidOrder(s.clock.now)).sale.number).toBe(9);
    // eTIMS off: receipts are still numbered, under the local branch, and never queued for KRA.
    await syncEtimsBranch(database.db, testSettings(), s.clock.now);
    const off = await paidOrder(s.clock.now);
    expect(off.sale).toMatchObject({ branchId: 'local', status: 'off' });
    expect(
      await runEtimsQueue({
        db: database.db,
        settings: testSettings(),
        now: () => s.clock.now,
        log: silentLogger,
      }),
    ).toEqual({
      outcome: 'off',
    });
  });
});
