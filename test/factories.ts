/**
 * Test data builders: each test makes the rows it needs, with unique ids, so no test depends on rows an
 * earlier one made. Rows go in through the query builder (what the feature under test reads), never
 * through another feature's API. Extend at the end of this file; keep one builder per table.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import type { DbOrTx } from '../drizzle/db';
import {
  assignments,
  costs,
  drivers,
  fuelLogs,
  orders,
  payments,
  stockTransactions,
  truckLatest,
  truckPositions,
  trucks,
} from '../drizzle/schema';

let seq = 0;
/** A short unique suffix per call (process-wide), for ids, plates and emails. */
export function unique(prefix = ''): string {
  seq += 1;
  return `${prefix}${seq}${randomBytes(2).toString('hex')}`.toUpperCase();
}

export async function makeDriver(db: DbOrTx, over: Partial<typeof drivers.$inferInsert> = {}) {
  const id = over.id ?? unique('DRV-');
  const [row] = await db
    .insert(drivers)
    .values({ id, name: `Driver ${id}`, phone: '0712000000', ...over })
    .returning();
  return row!;
}

export async function makeTruck(db: DbOrTx, over: Partial<typeof trucks.$inferInsert> = {}) {
  const id = over.id ?? unique('TRK-');
  const [row] = await db
    .insert(trucks)
    .values({ id, plate: `K${id.slice(-6)}`, capacityT: 20, ...over })
    .returning();
  return row!;
}

export async function makeOrder(db: DbOrTx, over: Partial<typeof orders.$inferInsert> = {}) {
  const trucksN = over.trucks ?? 1;
  const perTruckCents = over.perTruckCents ?? 3_200_000;
  const [row] = await db
    .insert(orders)
    .values({
      name: 'Test Customer',
      phone: '0722000000',
      email: `${unique('c').toLowerCase()}@example.co.ke`,
      site: 'Juja, Gachororo',
      sandType: 'coarse',
      trucks: trucksN,
      perTruckCents,
      totalCents: perTruckCents * trucksN,
      distanceKm: 12,
      distanceSource: 'heuristic',
      ...over,
    })
    .returning();
  return row!;
}

/** A load on an order; pass `status: 'DELIVERED'` with `deliveredAt` for delivered revenue. */
export async function makeAssignment(
  db: DbOrTx,
  over: Partial<typeof assignments.$inferInsert> & { orderId: number; truckId: string },
) {
  const [row] = await db
    .insert(assignments)
    .values({ tonnes: 20, ...over })
    .returning();
  return row!;
}

export async function makeCost(
  db: DbOrTx,
  over: Partial<typeof costs.$inferInsert> & { truckId: string | null },
) {
  const [row] = await db
    .insert(costs)
    .values({ type: 'REPAIR', amountCents: 500_000, description: 'Test cost', ...over })
    .returning();
  return row!;
}

export async function makeFuelLog(
  db: DbOrTx,
  over: Partial<typeof fuelLogs.$inferInsert> & { truckId: string; capturedAt: Date },
) {
  const [row] = await db
    .insert(fuelLogs)
    .values({ litres: 100, costCents: 1_700_000, ...over })
    .returning();
  return row!;
}

/** Signed yard stock (a receipt of `tonnes` of `category`). */
export async function makeStock(
  db: DbOrTx,
  over: Partial<typeof stockTransactions.$inferInsert> & { tonnes: number },
) {
  const [row] = await db
    .insert(stockTransactions)
    .values({
      kind: 'RECEIPT',
      trucks: over.tonnes / 20,
      category: 'coarse',
      reason: 'Test receipt',
      ...over,
    })
    .returning();
  return row!;
}

export async function makeLatestPosition(
  db: DbOrTx,
  over: Partial<typeof truckLatest.$inferInsert> & { truckId: string },
) {
  const [row] = await db
    .insert(truckLatest)
    .values({ lat: -1.1, lng: 37.01, fixTime: new Date(), speedKmh: 0, status: 'stopped', ...over })
    .returning();
  return row!;
}

/** A real image as a data URL (with EXIF when asked, to prove it is stripped). */
export async function imageDataUrl(withExif = false): Promise<string> {
  let img = sharp({ create: { width: 32, height: 24, channels: 3, background: '#c8964f' } }).jpeg();
  if (withExif)
    img = img.withExif({ IFD0: { Copyright: 'secret-gps-owner', ImageDescription: 'plate KCX' } });
  return `data:image/jpeg;base64,${(await img.toBuffer()).toString('base64')}`;
}

export async function makePayment(
  db: DbOrTx,
  over: Partial<typeof payments.$inferInsert> & { orderId: number },
) {
  const [row] = await db
    .insert(payments)
    .values({ method: 'Equity', reference: unique('REF'), ...over })
    .returning();
  return row!;
}

/**
 * A raw GPS fix. truck_positions is partitioned by month and the migration makes the months around the
 * real date only, so a test with its own clock gets its fix's month made first (as the ingest does).
 */
export async function makePosition(
  db: DbOrTx,
  over: Partial<typeof truckPositions.$inferInsert> & { truckId: string; fixTime: Date },
) {
  await db.execute(sql`select truck_positions_partition(${over.fixTime.toISOString()}::timestamptz)`);
  const [row] = await db
    .insert(truckPositions)
    .values({ deviceId: `dev-${over.truckId}`, lat: -1.1, lng: 37.01, ...over })
    .returning();
  return row!;
}
