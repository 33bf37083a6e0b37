import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertHistory } from '../../../core/telemetry/ingest.queries';
import { fuelAnomalies, outbox } from '../../../drizzle/schema';
import { haversineKm } from '../../../shared/domain/distance';
import { makeTruck } from '../../../test/factories';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

let t: TestApp;
let fuel: SignedIn;
let ops: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ now: () => new Date('2026-11-30T12:00:00Z') });
  fuel = await t.signIn('FUEL');
  ops = await t.signIn('OPS');
});
afterAll(() => t.close());

const DAY0 = Date.parse('2026-11-16T00:00:00Z'); // Monday
const MIN = 60_000;
type Fix = { at: number; lat: number; lng: number; speed: number };

/**
 * A truck's working day as its tracker reports it: parked at the pump 02:56–03:00 UTC (06:00 Nairobi),
 * then shuttling along a 30 km road at 40 km/h (a fix every 2 minutes) until 09:00, parked 09:00–09:10,
 * shuttling again until 15:00.
 */
function dayFixes(day: number): Fix[] {
  const base = DAY0 + day * 24 * 60 * MIN;
  const fixes: Fix[] = [];
  let x = 0; // km along the road
  let dir = 1;
  const at = (m: number) => base + m * MIN;
  const point = (m: number, speed: number) =>
    fixes.push({ at: at(m), lat: -1.05, lng: 36.9 + x / 111.3, speed });
  for (let m = 176; m <= 180; m += 2) point(m, 0);
  for (let m = 182; m <= 900; m += 2) {
    const parked = m >= 540 && m <= 550;
    if (!parked) {
      x += dir * (40 / 30);
      if (x >= 30 || x <= 0) dir = -dir;
    }
    point(m, parked ? 0 : 40);
  }
  return fixes;
}

/** Through the worker's write path, which keeps the truck's odometer and day rollups. */
async function storeFixes(truckId: string, deviceId: string, fixes: Fix[]) {
  for (let i = 0; i < fixes.length; i += 500)
    await insertHistory(
      t.database.db,
      fixes.slice(i, i + 500).map((f) => ({
        device_id: deviceId,
        truck_id: truckId,
        fix_time: new Date(f.at).toISOString(),
        lat: f.lat,
        lng: f.lng,
        speed_kmh: f.speed,
        heading: null,
        altitude: null,
        accuracy: null,
        battery: null,
        attributes: {},
      })),
    );
}

/** GPS km of the fixes in [from, to] (what the server sums), to build odometer and litres from. */
function kmBetween(fixes: Fix[], from: number, to: number) {
  const inside = fixes.filter((f) => f.at >= from && f.at <= to);
  let km = 0;
  for (let i = 1; i < inside.length; i++) km += haversineKm(inside[i - 1]!, inside[i]!);
  return km;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

async function log(truckId: string, body: { litres: number; odometer: number; at: number; cost?: number }) {
  const res = await t.call('POST', '/api/fuel/logs', fuel, {
    truckId,
    litres: body.litres,
    odometer: body.odometer,
    cost: body.cost ?? Math.round(body.litres * 170),
    capturedAt: new Date(body.at).toISOString(),
  });
  expect(res.statusCode, JSON.stringify(res.json())).toBe(201);
  return res.json().id as number;
}

async function anomaliesOf(truckId: string) {
  return (await t.call('GET', `/api/admin/fuel/anomalies?truckId=${truckId}`, ops)).json() as Array<{
    kind: string;
    detail: string;
    fuelLogId: number;
    id: number;
    status: string;
  }>;
}

/**
 * A tracked truck filling twice a day (06:00 and 12:05 Nairobi) for `days` days, parked at the pump, odometer
 * 2–4% above GPS, 34.5–37 L/100 km. `tweak` may change a fill (the last, say) before it is sent.
 */
async function normalFills(
  days: number,
  tweak?: (i: number, fill: { litres: number; odometer: number }) => void,
) {
  const truck = await makeTruck(t.database.db, {
    tankCapacityL: 400,
    deviceId: `dev-${crypto.randomUUID()}`,
  });
  const fixes = Array.from({ length: days + 1 }, (_, d) => dayFixes(d)).flat();
  await storeFixes(truck.id, truck.deviceId!, fixes);
  const times = Array.from({ length: days }, (_, d) => [
    DAY0 + d * 24 * 60 * MIN + 180 * MIN,
    DAY0 + d * 24 * 60 * MIN + 545 * MIN,
  ]).flat();
  let odometer = 120_000;
  const ids: number[] = [];
  for (const [i, at] of times.entries()) {
    const km = i === 0 ? 0 : kmBetween(fixes, times[i - 1]!, at);
    odometer = r1(odometer + km * (1.02 + (i % 3) / 100));
    const fill = { litres: i === 0 ? 200 : r1((km * (34.5 + (i % 6) / 2)) / 100), odometer };
    tweak?.(i, fill);
    ids.push(await log(truck.id, { ...fill, at }));
  }
  return { truck, ids, times, fixes };
}

describe('fuel anomalies from real fuel logs', () => {
  it('a week of normal fills (14, twice a day, tracked) raises none', async () => {
    const { truck, ids } = await normalFills(7);
    expect(ids).toHaveLength(14);
    expect(await anomaliesOf(truck.id)).toEqual([]);
  });

  it('CONSUMPTION_OUTLIER: a fill of half again the usual litres after 5 tracked fills', async () => {
    const { truck, ids } = await normalFills(4, (i, fill) => {
      if (i === 7) fill.litres = r1(fill.litres * 1.5);
    });
    const found = await anomaliesOf(truck.id);
    expect(found.map((a) => [a.kind, a.fuelLogId])).toEqual([['CONSUMPTION_OUTLIER', ids[7]]]);
    expect(found[0]!.detail).toMatch(
      /^\d+(\.\d)? L\/100 km over [\d,.]+ km tracked; this truck usually uses /,
    );
  });

  it('ODOMETER_GPS_MISMATCH: a normal day with 60 km typed onto the odometer', async () => {
    const { truck, ids } = await normalFills(2, (i, fill) => {
      if (i === 3) fill.odometer = r1(fill.odometer + 60);
    });
    const found = await anomaliesOf(truck.id);
    expect(found.map((a) => [a.kind, a.fuelLogId])).toEqual([['ODOMETER_GPS_MISMATCH', ids[3]]]);
  });

  it.each([
    [
      'ODOMETER_BACKWARDS',
      { odometer: 9_000 },
      "Odometer 9,000 km is lower than the previous log's 10,000 km.",
    ],
    ['OVER_TANK_CAPACITY', { litres: 320 }, '320 L is more than the 300 L tank holds.'],
  ] as const)('%s', async (kind, second, detail) => {
    const truck = await makeTruck(t.database.db, { tankCapacityL: 300 });
    await log(truck.id, { litres: 100, odometer: 10_000, at: DAY0 });
    const id = await log(truck.id, { litres: 100, odometer: 10_300, at: DAY0 + 26 * 60 * MIN, ...second });
    const found = await anomaliesOf(truck.id);
    expect(found.map((a) => ({ kind: a.kind, fuelLogId: a.fuelLogId, detail: a.detail }))).toEqual([
      { kind, fuelLogId: id, detail },
    ]);
    const alerts = await t.database.db
      .select({ payload: outbox.payload })
      .from(outbox)
      .where(
        sql`${outbox.payload}->>'kind' = 'fuel.anomaly' and (${outbox.payload}->>'anomalyId')::int = ${found[0]!.id}`,
      );
    expect(alerts).toHaveLength(1);
  });

  it('TRUCK_MOVING: the tracker shows 50 km/h at the capture time', async () => {
    const truck = await makeTruck(t.database.db, { deviceId: `dev-${crypto.randomUUID()}` });
    const at = DAY0 + 10 * 60 * MIN;
    await storeFixes(truck.id, truck.deviceId!, [
      { at: at - 4 * MIN, lat: -1.1, lng: 36.9, speed: 0 },
      { at: at + MIN, lat: -1.1, lng: 36.91, speed: 50 },
    ]);
    const id = await log(truck.id, { litres: 90, odometer: 5_000, at });
    expect((await anomaliesOf(truck.id)).map((a) => [a.kind, a.fuelLogId, a.detail])).toEqual([
      ['TRUCK_MOVING', id, 'GPS shows the truck moving at 50 km/h when the fill was captured.'],
    ]);
  });

  it('ODOMETER_GPS_MISMATCH: odometer 300 km, tracker 100 km', async () => {
    const truck = await makeTruck(t.database.db, { deviceId: `dev-${crypto.randomUUID()}` });
    // 100 km due east in 10 fixes, parked at both ends.
    const fixes = Array.from({ length: 11 }, (_, i) => ({
      at: DAY0 + (i + 1) * 10 * MIN,
      lat: -1.1,
      lng: 36.9 + (i * 10) / 111.3,
      speed: i === 0 || i === 10 ? 0 : 60,
    }));
    await storeFixes(truck.id, truck.deviceId!, fixes);
    const gps = kmBetween(fixes, DAY0, DAY0 + 200 * MIN);
    expect(gps).toBeCloseTo(100, 0);
    await log(truck.id, { litres: 50, odometer: 20_000, at: DAY0 + 10 * MIN });
    const id = await log(truck.id, { litres: 36, odometer: 20_300, at: DAY0 + 110 * MIN });
    const found = await anomaliesOf(truck.id);
    expect(found.map((a) => [a.kind, a.fuelLogId])).toEqual([['ODOMETER_GPS_MISMATCH', id]]);
    expect(found[0]!.detail).toMatch(
      /^The odometer moved 300 km since the previous log; GPS tracked 99\.\d km \(20\d%\)\.$/,
    );
  });

  it('ADMIN and OPS review or dismiss a finding (with a reason); who and when are kept', async () => {
    const truck = await makeTruck(t.database.db, { tankCapacityL: 100 });
    await log(truck.id, { litres: 150, odometer: 1_000, at: DAY0 });
    await log(truck.id, { litres: 90, odometer: 900, at: DAY0 + 30 * 60 * MIN });
    const [a, b] = await anomaliesOf(truck.id);
    const url = (id: number) => `/api/admin/fuel/anomalies/${id}/review`;
    const noReason = await t.call('POST', url(a!.id), ops, { decision: 'dismissed' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toBe('Give a reason for dismissing the finding.');
    const dismissed = await t.call('POST', url(a!.id), ops, {
      decision: 'dismissed',
      reason: 'Jerrycans filled too',
    });
    expect(dismissed.json()).toMatchObject({
      status: 'dismissed',
      reason: 'Jerrycans filled too',
      reviewedBy: expect.any(String),
      reviewedAt: '2026-11-30T12:00:00.000Z',
    });
    const admin = await t.signIn('ADMIN');
    expect((await t.call('POST', url(b!.id), admin, { decision: 'reviewed' })).json().status).toBe(
      'reviewed',
    );
    const again = await t.call('POST', url(b!.id), admin, { decision: 'reviewed' });
    expect(again.statusCode).toBe(409);
    expect((await t.call('POST', url(999_999), admin, { decision: 'reviewed' })).statusCode).toBe(404);
    const open = (
      await t.call('GET', `/api/admin/fuel/anomalies?status=open&truckId=${truck.id}`, ops)
    ).json();
    expect(open).toEqual([]);
    const rows = await t.database.db.select().from(fuelAnomalies).where(eq(fuelAnomalies.truckId, truck.id));
    expect(rows.every((r) => r.reviewedById !== null)).toBe(true);
  });
});

describeRoleMatrix('fuel anomalies', () => t, [
  ['GET', '/api/admin/fuel/anomalies', ['ADMIN', 'OPS']],
  ['POST', '/api/admin/fuel/anomalies/1/review', ['ADMIN', 'OPS']],
]);
