import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../drizzle/db';
import { fuelAnomalies, fuelLogs, truckDays, truckPositions } from '../../drizzle/schema';
import { haversineKm } from '../../shared/domain/distance';
import type { JobPayload } from '../../shared/jobs';
import { makeFuelLog, makeTruck, unique } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { ingestPositions } from './ingest';
import { gpsKmBetween } from './odometer';
import { maintainPositions, positionPartitions } from './positions';

type Position = JobPayload<'telemetry.ingest'>['positions'][number];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const MIN = 60_000;
const ctx = (now: Date, retentionDays = 180) => ({
  db: t.database.db,
  now: () => now,
  settings: { ...t.deps.settings, positionRetentionDays: retentionDays },
});

/** A truck wandering east and back, a fix every `stepMin` minutes, `count` of them from `start`. */
function track(deviceId: string, truckId: string, start: number, count: number, stepMin = 10): Position[] {
  return Array.from({ length: count }, (_, i) => ({
    deviceId,
    truckId,
    fixTime: new Date(start + i * stepMin * MIN).toISOString(),
    lat: -1.1 + 0.002 * Math.sin(i / 7),
    lng: 37 + 0.003 * (i % 40 < 20 ? i % 40 : 40 - (i % 40)),
    speedKmh: i % 3 === 0 ? 0 : 35,
    heading: null,
    altitude: null,
    accuracy: null,
    battery: null,
    attributes: {},
  }));
}

const nairobiDay = (iso: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Nairobi' }).format(new Date(iso));

/** What the rollup must say, from the fixes themselves: km of the segments ending each Nairobi day. */
function expectedDays(fixes: Position[]) {
  const sorted = [...fixes].sort((a, b) => (a.fixTime < b.fixTime ? -1 : 1));
  const days = new Map<string, { km: number; fixes: number; moving: number }>();
  sorted.forEach((f, i) => {
    const day = nairobiDay(f.fixTime);
    const d = days.get(day) ?? { km: 0, fixes: 0, moving: 0 };
    if (i > 0) d.km += haversineKm(sorted[i - 1]!, f);
    d.fixes += 1;
    if ((f.speedKmh ?? 0) > 5) d.moving += 1;
    days.set(day, d);
  });
  return days;
}

async function dayRows(truckId: string) {
  return t.database.db.select().from(truckDays).where(eq(truckDays.truckId, truckId)).orderBy(truckDays.day);
}

describe('the per-truck rollups kept as fixes are written', () => {
  it('are the same, and exact, whether fixes come in order, shuffled, late or twice', async () => {
    const start = Date.parse('2026-09-29T18:00:00Z'); // across Nairobi midnights and a month end
    const inOrder = await makeTruck(t.database.db, { deviceId: unique('odo-a-') });
    const shuffled = await makeTruck(t.database.db, { deviceId: unique('odo-b-') });
    const a = track(inOrder.deviceId!, inOrder.id, start, 600);
    const b = track(shuffled.deviceId!, shuffled.id, start, 600);
    for (let i = 0; i < a.length; i += 50) await ingestPositions(ctx(new Date()), a.slice(i, i + 50));
    // Every 7th fix held back and sent last (a phone offline for days), the rest in reverse batches.
    const late = b.filter((_, i) => i % 7 === 3);
    const onTime = b.filter((_, i) => i % 7 !== 3);
    for (let i = onTime.length; i > 0; i -= 80)
      await ingestPositions(ctx(new Date()), onTime.slice(Math.max(0, i - 80), i));
    await ingestPositions(ctx(new Date()), late);
    await ingestPositions(ctx(new Date()), b.slice(100, 200)); // a re-run adds nothing

    const want = expectedDays(a);
    for (const truck of [inOrder, shuffled]) {
      const got = await dayRows(truck.id);
      expect(got.map((d) => d.day)).toEqual([...want.keys()]);
      for (const d of got) {
        const w = want.get(d.day)!;
        expect(d.km, `${truck.id} ${d.day}`).toBeCloseTo(w.km, 6);
        expect([d.fixes, d.movingFixes]).toEqual([w.fixes, w.moving]);
      }
      const total = a.slice(1).reduce((km, f, i) => km + haversineKm(a[i]!, f), 0);
      expect(
        await gpsKmBetween(t.database.db, truck.id, new Date(start), new Date(start + 600 * 10 * MIN)),
      ).toBeCloseTo(total, 6);
    }
  });
});

describe('late GPS', () => {
  it('re-runs the fuel checks of the log whose interval it lands in, in the worker', async () => {
    const truck = await makeTruck(t.database.db, { deviceId: unique('late-') });
    const at = Date.parse('2026-10-20T08:00:00Z');
    const fill = await t.call('POST', '/api/fuel/logs', await t.signIn('FUEL'), {
      truckId: truck.id,
      litres: 80,
      odometer: 5000,
      cost: 14_000,
      capturedAt: new Date(at).toISOString(),
    });
    expect(fill.statusCode, fill.body).toBe(201);
    const id = fill.json().id as number;
    const moving = async () =>
      t.database.db
        .select()
        .from(fuelAnomalies)
        .where(and(eq(fuelAnomalies.fuelLogId, id), eq(fuelAnomalies.kind, 'TRUCK_MOVING')));
    expect(await moving()).toHaveLength(0);
    // The tracker's fixes around the pump arrive after the log: it was doing 50 km/h.
    const fixes = track(truck.deviceId!, truck.id, at - 2 * MIN, 5, 1).map((p) => ({ ...p, speedKmh: 50 }));
    await ingestPositions(ctx(new Date(at + 30 * MIN)), fixes);
    expect(await moving()).toHaveLength(1);
    await ingestPositions(ctx(new Date(at + 30 * MIN)), fixes); // again: nothing new
    expect(await moving()).toHaveLength(1);
  });
});

describe('positions retention', () => {
  it('drops whole months past POSITION_RETENTION_DAYS, makes months ahead, and keeps every rollup exact', async () => {
    const truck = await makeTruck(t.database.db, { deviceId: unique('ret-') });
    const start = Date.parse('2026-01-10T05:00:00Z');
    // A fix an hour from January to June; fuel logs every 20 days, entered before their fixes arrived.
    const fixes = track(truck.deviceId!, truck.id, start, 24 * 150, 60);
    const logs: Array<{ capturedAt: Date }> = [];
    for (let day = 20; day < 150; day += 20)
      logs.push(
        await makeFuelLog(t.database.db, {
          truckId: truck.id,
          capturedAt: new Date(start + day * 24 * 60 * MIN + 30 * MIN),
        }),
      );
    for (let i = 0; i < fixes.length; i += 500)
      await ingestPositions(ctx(new Date()), fixes.slice(i, i + 500));

    const km = async () =>
      (
        await t.database.db
          .select({ id: fuelLogs.id, gpsKm: fuelLogs.gpsKm })
          .from(fuelLogs)
          .where(eq(fuelLogs.truckId, truck.id))
          .orderBy(fuelLogs.capturedAt)
      ).map((l) => ({ ...l, gpsKm: l.gpsKm === null ? null : Math.round(l.gpsKm * 1e6) / 1e6 }));
    const kmBefore = await km();
    // Each log's km is the GPS distance since the log before (the first has none before it).
    for (const [i, log] of logs.entries()) {
      if (i === 0) continue;
      const inside = fixes.filter((f) => {
        const ms = Date.parse(f.fixTime);
        return ms >= logs[i - 1]!.capturedAt.getTime() && ms <= log.capturedAt.getTime();
      });
      const want = inside.slice(1).reduce((s, f, j) => s + haversineKm(inside[j]!, f), 0);
      expect(kmBefore[i]!.gpsKm).toBeCloseTo(want, 5);
    }
    const daysBefore = await dayRows(truck.id);
    expect(daysBefore.length).toBeGreaterThan(140);

    const now = new Date('2026-11-26T06:00:00Z');
    const result = await maintainPositions(ctx(now, 180));
    // Cut-off 2026-05-30: January to April go whole; May holds younger fixes and stays.
    expect(result.dropped).toEqual(
      expect.arrayContaining(['truck_positions_p2026_01', 'truck_positions_p2026_04']),
    );
    expect(result.dropped).not.toContain('truck_positions_p2026_05');
    const names = (await positionPartitions(t.database.db)).map((p) => p.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'truck_positions_p2026_11',
        'truck_positions_p2026_12',
        'truck_positions_p2027_01',
      ]),
    );
    expect(names.filter((n) => n < 'truck_positions_p2026_05')).toEqual([]);
    const [left] = await rows<{ n: number; first: string }>(
      t.database.db,
      sql`select count(*)::int as n, min(fix_time)::text as first from ${truckPositions} where truck_id = ${truck.id}`,
    );
    expect(new Date(left!.first).getTime()).toBeGreaterThanOrEqual(Date.parse('2026-05-01T00:00:00Z'));
    expect(left!.n).toBeLessThan(fixes.length);
    // The rollups did not move.
    expect(await dayRows(truck.id)).toEqual(daysBefore);
    expect(await km()).toEqual(kmBefore);
    // Run again: nothing more to drop, nothing changes.
    expect((await maintainPositions(ctx(now, 180))).dropped).toEqual([]);
    // New fixes keep the odometer going from what is left.
    const more = track(truck.deviceId!, truck.id, Date.parse('2026-11-25T05:00:00Z'), 10, 10);
    await ingestPositions(ctx(now), more);
    const nov = (await dayRows(truck.id)).find((d) => d.day === '2026-11-25')!;
    // The day's first segment runs from the truck's last fix in June (still kept) to its first today.
    const want = haversineKm(fixes.at(-1)!, more[0]!) + expectedDays(more).get('2026-11-25')!.km;
    expect(nov.km).toBeCloseTo(want, 6);
  });
});
