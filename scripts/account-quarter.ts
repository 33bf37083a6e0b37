/**
 * A contractor's quarter on terms (issue 24), through the real use cases: an account with a limit and
 * 30-day terms, 60 loads scheduled on its credit and delivered over 13 weeks (each delivered load one tax
 * invoice), 12 payments (bank transfers ops confirm, some naming an invoice, one paid over) and 2 credit
 * notes, each at its own time in the quarter. Prints the statement's figures and checks them against the
 * receivables view and the CSV.
 *
 *   npm run seed:account              # on the embedded database (DATA_DIR) or DATABASE_URL
 *   npm run seed:account -- 2026-07-01   # the quarter's first day (default: the last full quarter)
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { toCtxUser } from '../core/access/actor';
import { recordAccountPayment } from '../core/accounts/account-payments';
import { creditLoadInvoice, putAccount, receivablesView, statement } from '../core/accounts/accounts.service';
import { createUser } from '../core/auth/auth.service';
import { statementCsv } from '../core/documents/statement-pdf';
import { syncEtimsBranch } from '../core/etims/etims.service';
import { addAssignment, moveLoad } from '../core/loads/loads.service';
import { createDb, type Db } from '../drizzle/db';
import { drivers, invoices, orders, trucks } from '../drizzle/schema';
import { fromCents } from '../shared/domain/money';
import { addDays, localDate, startOfLocalDate } from '../shared/domain/time';
import { loadSettings, type Settings } from '../shared/settings';

export const QUARTER_LOADS = 60;
export const QUARTER_PAYMENTS = 12;

/** The instant `hours` after a Nairobi day starts. */
const atHour = (day: string, hours: number) => new Date(startOfLocalDate(day).getTime() + hours * 3_600_000);

/** A fixed-seed generator, so the same quarter comes out every run. */
function seeded(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4_294_967_296;
  };
}

export interface QuarterResult {
  customerId: number;
  from: string;
  to: string;
  loads: number;
  payments: number;
  credits: number;
}

/** Seeds one contractor's quarter starting on `from` (a Nairobi date) and answers what it made. */
export async function simulateAccountQuarter(
  db: Db,
  settings: Pick<Settings, 'trips' | 'alerts' | 'tracking'>,
  from: string,
): Promise<QuarterResult> {
  const random = seeded(Date.parse(from) / 86_400_000);
  const tag = randomBytes(3).toString('hex');
  const admin = toCtxUser(
    await createUser(db, {
      name: 'Quarter Admin',
      email: `quarter-admin-${tag}@mchanga.local`,
      phone: '',
      password: randomBytes(12).toString('hex'),
      role: 'ADMIN',
    }),
  );
  const customer = await createUser(db, {
    name: `Kamau Developers ${tag}`,
    email: `accounts-${tag}@kamau.co.ke`,
    phone: '0722000111',
    password: randomBytes(12).toString('hex'),
    role: 'CUSTOMER',
  });
  await putAccount(db, admin, { id: customer.id, creditLimit: 5_000_000, termsDays: 30 }, atHour(from, 7));
  await db.insert(drivers).values({ id: `DRV-Q${tag}`, name: 'Quarter Driver' });
  await db
    .insert(trucks)
    .values({ id: `TRK-Q${tag}`, plate: `KQ${tag.slice(0, 3).toUpperCase()} 1A`, capacityT: 20 });
  const fleet = { truckId: `TRK-Q${tag}`, driverId: `DRV-Q${tag}` };

  // 60 loads: orders of 1–4 trucks at prices that do not divide evenly, 13.5–20 t a load.
  let loads = 0;
  let day = 0;
  while (loads < QUARTER_LOADS) {
    const trucksN = Math.min(QUARTER_LOADS - loads, 1 + Math.floor(random() * 4));
    const perTruckCents = 2_950_000 + Math.floor(random() * 600_000) + 33;
    const orderDay = addDays(from, day);
    const [order] = await db
      .insert(orders)
      .values({
        customerId: customer.id,
        createdById: admin.id,
        name: customer.name,
        phone: customer.phone ?? '',
        email: customer.email,
        site: 'Ruiru, Kamakis (block C)',
        sandType: random() < 0.5 ? 'coarse' : 'smooth',
        trucks: trucksN,
        perTruckCents,
        totalCents: perTruckCents * trucksN,
        distanceKm: 18,
        distanceSource: 'heuristic',
        dateNeeded: orderDay,
        createdAt: atHour(orderDay, 8),
        updatedAt: atHour(orderDay, 8),
      })
      .returning();
    for (let i = 0; i < trucksN; i++) {
      const tonnes = Math.round((13.5 + random() * 6.5) * 100) / 100;
      const scheduled = atHour(orderDay, 9 + i);
      const load = await addAssignment(db, admin, { id: order!.id, ...fleet, tonnes }, settings, scheduled);
      for (const [status, h] of [
        ['IN_TRANSIT', 10],
        ['ARRIVED', 11],
        ['DELIVERED', 12],
      ] as const)
        await moveLoad(db, admin, load.id, status, atHour(orderDay, h + i), settings, 'Quarter simulation');
      loads += 1;
    }
    day += 1 + Math.floor(random() * 2);
  }

  // 12 payments, about one a week: bank transfers ops confirm; every third names an invoice.
  const sales = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(eq(invoices.customerId, customer.id), eq(invoices.kind, 'S')))
    .orderBy(asc(invoices.issuedAt));
  for (let p = 0; p < QUARTER_PAYMENTS; p++) {
    const payDay = addDays(from, 7 * (p + 1) + 1);
    const amount = Math.round((60_000 + random() * 110_000) * 100) / 100;
    await recordAccountPayment(
      db,
      admin,
      {
        id: customer.id,
        amount,
        method: p % 2 ? 'Equity' : 'KCB',
        reference: `Q${tag}-${p + 1}`,
        paidAt: atHour(payDay, 10).toISOString(),
        invoiceId: p % 3 === 2 ? sales[sales.length - 1 - p]?.id : undefined,
      },
      atHour(payDay, 10),
    );
  }

  // Two credit notes: a short load and a refund.
  await creditLoadInvoice(
    db,
    admin,
    { id: sales[3]!.id, amount: 1_575.5, reason: '01' },
    atHour(addDays(from, 20), 15),
  );
  await creditLoadInvoice(
    db,
    admin,
    { id: sales[40]!.id, amount: 3_200, reason: '06' },
    atHour(addDays(from, 70), 15),
  );
  return {
    customerId: customer.id,
    from,
    to: quarterEnd(from),
    loads,
    payments: QUARTER_PAYMENTS,
    credits: 2,
  };
}

/** The last day of the quarter that starts on `from`. */
export function quarterEnd(from: string): string {
  const [y, m] = from.split('-').map(Number) as [number, number];
  const next =
    m + 3 > 12
      ? `${y + 1}-${String(m - 9).padStart(2, '0')}-01`
      : `${y}-${String(m + 3).padStart(2, '0')}-01`;
  return addDays(next, -1);
}

/** The first day of the last full calendar quarter before `now` (Nairobi). */
export function lastQuarterStart(now: Date): string {
  const [y, m] = localDate(now).split('-').map(Number) as [number, number];
  const q = Math.floor((m - 1) / 3);
  const year = q === 0 ? y - 1 : y;
  const month = q === 0 ? 10 : (q - 1) * 3 + 1;
  return `${year}-${String(month).padStart(2, '0')}-01`;
}

async function main() {
  const settings = loadSettings();
  const database = await createDb(
    settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : { dataDir: `${settings.dataDir}/pglite` },
  );
  try {
    await syncEtimsBranch(database.db, settings, new Date());
    const from = process.argv[2] ?? lastQuarterStart(new Date());
    const made = await simulateAccountQuarter(database.db, settings, from);
    const s = await statement(database.db, made.customerId, made.from, made.to);
    const view = await receivablesView(database.db, made.to);
    const row = view.rows.find((r) => r.customerId === made.customerId)!;
    const csvClosing = Number(statementCsv(s).trim().split('\r\n').at(-1)!.split(',').at(-1));
    const expected = fromCents(
      Math.round(s.opening * 100) +
        Math.round(s.invoices * 100) -
        Math.round(s.payments * 100) -
        Math.round(s.credits * 100) +
        Math.round(s.reversals * 100),
    );
    console.log(
      JSON.stringify(
        {
          customer: `${s.name} (${s.accountRef})`,
          period: `${s.from} to ${s.to}`,
          loads: made.loads,
          payments: made.payments,
          creditNotes: made.credits,
          opening: s.opening,
          invoices: s.invoices,
          paid: s.payments,
          credits: s.credits,
          closing: s.closing,
          'opening + invoices - payments - credits': expected,
          receivablesView: row.balance,
          csvClosing,
          ageing: s.ageing,
        },
        null,
        2,
      ),
    );
    if (s.closing !== expected || row.balance !== s.closing || csvClosing !== s.closing) process.exitCode = 1;
  } finally {
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
