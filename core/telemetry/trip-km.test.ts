import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../drizzle/db';
import { geofenceEvents, tripKm, truckPositions } from '../../drizzle/schema';
import { haversineKm } from '../../shared/domain/distance';
import type { JobPayload } from '../../shared/jobs';
import { makeAssignment, makeDriver, makeOrder, makeTruck, unique } from '../../test/factories';
import { createTestApp, type SignedIn, type TestApp } from '../../test/helpers';
import { ingestPositions } from './ingest';
import { gpsKmBetween } from './odometer';
import { maintainPositions } from './positions';
import { rollUpTrips } from './trip-km';

type Position = JobPayload<'telemetry.ingest'>['positions'][number];

const MIN = 60_000;
const NOW = new Date('2026-11-26T06:00:00Z');
let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ now: () => NOW });
  admin = await t.signIn('ADMIN');
});
afterAll(() => t.close());

const ctx = (retentionDays = 180) => ({
  db: t.database.db,
  now: () => NOW,
  settings: { ...t.deps.settings, positionRetentionDays: retentionDays },
});

/** A trip out and back: a fix every 5 minutes, 0.01° east a fix for half of them, then west again. */
function trip(deviceId: string, truckId: string, start: number, count: number): Position[] {
  return Array.from({ length: count }, (_, i) => ({
    deviceId,
    truckId,
    fixTime: new Date(start + i * 5 * MIN).toISOString(),
    lat: -1.1 + (i % 4 === 1 ? 0.02 : 0.001 * Math.sin(i)), // every 4th a detour 2 km north
    lng: 37 + 0.01 * (i < count / 2 ? i : count - i),
    speedKmh: 40,
    heading: null,
    altitude: null,
    accuracy: null,
    battery: null,
    attributes: {},
  }));
}

const rawKm = (fixes: Position[], from: number, to: number) => {
  const inside = fixes
    .filter((f) => Date.parse(f.fixTime) >= from && Date.parse(f.fixTime) <= to)
    .sort((a, b) => (a.fixTime < b.fixTime ? -1 : 1));
  return inside.slice(1).reduce((km, f, i) => km + haversineKm(inside[i]!, f), 0);
};

/** A delivered load of a tracked truck, its yard exit and entry recorded as the geofence step does. */
async function trackedLoad(start: number, count: number, exitFix: number, entryFix: number) {
  const db = t.database.db;
  const driver = await makeDriver(db);
  const truck = await makeTruck(db, { deviceId: unique('trip-').toLowerCase() });
  const fixes = trip(truck.deviceId!, truck.id, start, count);
  const order = await makeOrder(db, { site: 'Ruiru', status: 'DELIVERED', paymentStatus: 'CONFIRMED' });
  const load = await makeAssignment(db, {
    orderId: order.id,
    truckId: truck.id,
    driverId: driver.id,
    status: 'DELIVERED',
    deliveredAt: new Date(start + 60 * MIN),
  });
  const exitAt = Date.parse(fixes[exitFix]!.fixTime);
  const entryAt = Date.parse(fixes[entryFix]!.fixTime);
  const record = async () => {
    await db.insert(geofenceEvents).values(
      (
        [
          ['YARD_EXIT', exitAt],
          ['YARD_ENTRY', entryAt],
        ] as const
      ).map(([kind, at]) => ({
        truckId: truck.id,
        kind,
        orderId: order.id,
        assignmentId: load.id,
        at: new Date(at),
        confirmedAt: new Date(at),
        lat: -1.1,
        lng: 37,
      })),
    );
    await rollUpTrips(db, [load.id]);
  };
  return { truck, load, fixes, exitAt, entryAt, record };
}

const rolledUp = async (assignmentId: number) =>
  (await t.database.db.select().from(tripKm).where(eq(tripKm.assignmentId, assignmentId)))[0];

describe('the per-trip rollup (trip_km)', () => {
  it('equals the km over the raw fixes of the window, and late fixes inside it measure it again', async () => {
    const start = Date.parse('2026-11-20T04:00:00Z');
    const { truck, load, fixes, exitAt, entryAt, record } = await trackedLoad(start, 40, 3, 34);
    // Every 4th fix comes late (a phone offline), one of them before the window.
    const late = fixes.filter((_, i) => i % 4 === 1);
    const onTime = fixes.filter((_, i) => i % 4 !== 1);
    await ingestPositions(ctx(), onTime);
    await record();
    const first = await rolledUp(load.id);
    expect(first).toMatchObject({
      truckId: truck.id,
      yardExitAt: new Date(exitAt),
      yardEntryAt: new Date(entryAt),
    });
    expect(first!.km).toBeCloseTo(rawKm(onTime, exitAt, entryAt), 6);

    await ingestPositions(ctx(), late);
    const want = rawKm(fixes, exitAt, entryAt);
    expect(want).toBeGreaterThan(first!.km! + 1); // the late fixes make the trip measurably longer
    const second = await rolledUp(load.id);
    expect(second!.km).toBeCloseTo(want, 6);
    // The same as the odometer probes over the raw fixes.
    expect(second!.km).toBeCloseTo(
      (await gpsKmBetween(t.database.db, truck.id, new Date(exitAt), new Date(entryAt)))!,
      9,
    );
    // Recording the events again (a re-run job) changes nothing.
    await rollUpTrips(t.database.db, [load.id]);
    expect((await rolledUp(load.id))!.km).toBe(second!.km);
  });

  it('keeps the trip view right after retention dropped its raw fixes', async () => {
    const start = Date.parse('2026-03-10T05:00:00Z');
    const { truck, load, fixes, exitAt, entryAt, record } = await trackedLoad(start, 30, 2, 26);
    await ingestPositions(ctx(), fixes);
    await record();
    const want = rawKm(fixes, exitAt, entryAt);
    const view = async () => {
      const res = await t.call('GET', '/api/admin/finance/trips?from=2026-03-10&to=2026-03-10', admin);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().trips.find((x: { assignmentId: number }) => x.assignmentId === load.id);
    };
    const before = await view();
    expect(before).toMatchObject({ kmSource: 'gps', km: Math.round(want * 10) / 10 });

    const dropped = (await maintainPositions(ctx(180))).dropped;
    expect(dropped).toContain('truck_positions_p2026_03');
    const [left] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from ${truckPositions} where truck_id = ${truck.id}`,
    );
    expect(left!.n).toBe(0);
    // Read from the raw fixes the trip would have no km now …
    expect(await gpsKmBetween(t.database.db, truck.id, new Date(exitAt), new Date(entryAt))).toBeNull();
    // … the view reads the rollup: the same trip, the same km.
    expect(await view()).toEqual(before);
    // Recording its events again (with no fixes left) keeps the km it had.
    await rollUpTrips(t.database.db, [load.id]);
    expect((await rolledUp(load.id))!.km).toBeCloseTo(want, 6);
  });
});
