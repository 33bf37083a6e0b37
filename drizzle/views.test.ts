import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeAssignment, makeOrder, makeStock, makeTruck } from '../test/factories';
import { createTestDatabase } from '../test/helpers';
import { type Database, rows } from './db';
import { deliveredLoads, yardStock } from './schema';

// The revenue rule and the yard stock sum are written once, in SQL (migration 0003); every reader
// selects from these. Rounding policy: half-up to the cent, once, per delivered load.
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('load_revenue_cents (per-truck price × tonnes / 20, half-up to the cent)', () => {
  it.each([
    [3_200_000, 20, 3_200_000],
    [3_200_000, 10, 1_600_000],
    [3_300_000, 19.5, 3_217_500],
    [3_100_050, 20, 3_100_050],
    [1_001, 10, 501], // 500.5 cents → 501 (half-up)
    [999, 10, 500], // 499.5 → 500
    [1_000, 0.01, 1], // 0.5 → 1
  ])('%s cents per truck × %s t → %s cents', async (perTruck, tonnes, cents) => {
    const [r] = await rows<{ c: string | number }>(
      database.db,
      sql`select load_revenue_cents(${perTruck}::bigint, ${tonnes}::numeric) as c`,
    );
    expect(Number(r!.c)).toBe(cents);
  });
});

describe('the delivered_loads and yard_stock views', () => {
  it('count only delivered loads, on their Nairobi day, and sum signed stock by category', async () => {
    const truck = await makeTruck(database.db);
    const order = await makeOrder(database.db, { perTruckCents: 3_300_000, trucks: 3 });
    const at = new Date('2026-11-22T22:30:00Z'); // 01:30 on 23 November in Nairobi
    const delivered = await makeAssignment(database.db, {
      orderId: order.id,
      truckId: truck.id,
      tonnes: 19.5,
      status: 'DELIVERED',
      deliveredAt: at,
    });
    await makeAssignment(database.db, { orderId: order.id, truckId: truck.id, status: 'SCHEDULED' });
    await makeAssignment(database.db, { orderId: order.id, truckId: truck.id, status: 'CANCELLED' });
    const loads = await database.db.select().from(deliveredLoads);
    expect(loads).toEqual([
      expect.objectContaining({
        assignmentId: delivered.id,
        day: '2026-11-23',
        revenueCents: 3_217_500,
        tonnes: 19.5,
      }),
    ]);

    const before = (await database.db.select().from(yardStock))[0]!;
    await makeStock(database.db, { tonnes: 50, category: 'coarse' });
    await makeStock(database.db, { tonnes: 20.25, category: 'smooth' });
    await makeStock(database.db, { tonnes: -19.5, category: 'coarse', kind: 'DELIVERY' });
    const after = (await database.db.select().from(yardStock))[0]!;
    expect(after.coarseTonnes - before.coarseTonnes).toBeCloseTo(30.5, 2);
    expect(after.smoothTonnes - before.smoothTonnes).toBeCloseTo(20.25, 2);
    expect(after.tonnes - before.tonnes).toBeCloseTo(50.75, 2);
  });
});
