import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows as sqlRows } from '../../drizzle/db';
import { telemetryQuarantine, truckLatest, truckPositions, truckSeen } from '../../drizzle/schema';
import type { JobPayload } from '../../shared/jobs';
import { makeLatestPosition, makeTruck, unique } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';

type Position = JobPayload<'telemetry.ingest'>['positions'][number];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const T0 = Date.parse('2026-11-23T06:00:00Z');
const position = (deviceId: string, truckId: string, i: number, over: Partial<Position> = {}): Position => ({
  deviceId,
  truckId,
  lat: -1.1 + i * 1e-5,
  lng: 37,
  fixTime: new Date(T0 + i * 1000).toISOString(),
  speedKmh: 30,
  heading: null,
  altitude: null,
  accuracy: null,
  battery: 80,
  attributes: {},
  ...over,
});

describe('telemetry.ingest', () => {
  // Batches queued by an older server (or any producer) reach the job unsanitised: the database refuses
  // these rows, and must refuse only them.
  it('quarantines the rows the database refuses and stores the other 199 of the batch, once', async () => {
    const a = await makeTruck(t.database.db, { deviceId: unique('dev-a-') });
    const b = await makeTruck(t.database.db, { deviceId: unique('dev-b-') });
    const p = await makeTruck(t.database.db, { deviceId: unique('dev-p-') });
    const valid = Array.from({ length: 199 }, (_, i) =>
      i % 2 ? position(a.deviceId!, a.id, i) : position(b.deviceId!, b.id, i),
    );
    const poison = [
      position(p.deviceId!, p.id, 1, { attributes: { note: 'a\u0000b' } }),
      position(p.deviceId!, p.id, 2, { attributes: { half: '\ud800' } }),
      position(p.deviceId!, p.id, 3, { attributes: { 'k\u0000': 1 } }),
      // The truck was deleted while its fix waited in the queue.
      position(p.deviceId!, `TRK-GONE-${unique()}`, 4),
    ];
    const positions = [...valid.slice(0, 50), ...poison.slice(0, 2), ...valid.slice(50), ...poison.slice(2)];
    for (let run = 0; run < 2; run++) {
      await t.jobs.enqueue('telemetry.ingest', { positions });
      await t.jobs.drain();
    }

    const stored = await t.database.db
      .select()
      .from(truckPositions)
      .where(inArray(truckPositions.truckId, [a.id, b.id, p.id]));
    expect(stored).toHaveLength(199);
    expect(new Set(stored.map((r) => `${r.deviceId}@${r.fixTime.toISOString()}`)).size).toBe(199);
    const held = await t.database.db
      .select()
      .from(telemetryQuarantine)
      .where(eq(telemetryQuarantine.deviceId, p.deviceId!))
      .orderBy(telemetryQuarantine.fixTime);
    expect(held).toHaveLength(4);
    expect(held.map((h) => h.fixTime)).toEqual(poison.map((x) => x.fixTime));
    expect(held[0]!.raw).toContain('a\\u0000b');
    expect(held[1]!.raw).toContain('\\ud800');
    expect(held.every((h) => /^2[23]\w{3} /.test(h.error))).toBe(true);
    const latest = await t.database.db
      .select()
      .from(truckLatest)
      .where(inArray(truckLatest.truckId, [a.id, b.id]));
    expect(latest.map((l) => l.fixTime.toISOString()).sort()).toEqual(
      [valid[197]!.fixTime, valid[198]!.fixTime].sort(),
    );
  });

  it('heartbeats set battery and last-seen and keep the position; discards are counted per device and reason', async () => {
    const truck = await makeTruck(t.database.db, { deviceId: unique('dev-h-') });
    const fresh = await makeTruck(t.database.db, { deviceId: unique('dev-n-') });
    await makeLatestPosition(t.database.db, {
      truckId: truck.id,
      lat: -1.2,
      lng: 36.9,
      fixTime: new Date(T0),
    });
    const receivedAt = new Date(T0 + 60_000).toISOString();
    await t.jobs.enqueue('telemetry.ingest', {
      receivedAt,
      positions: [],
      heartbeats: [
        { deviceId: truck.deviceId!, truckId: truck.id, battery: 61 },
        { deviceId: truck.deviceId!, truckId: truck.id, battery: null },
        { deviceId: fresh.deviceId!, truckId: fresh.id, battery: 50 },
      ],
      discards: [
        {
          deviceId: truck.deviceId!,
          reason: 'Fix time is out of range.',
          count: 2,
          sample: '9007199254740993',
        },
        { deviceId: truck.deviceId!, reason: 'Fix time is out of range.', count: 1, sample: '1795600000' },
      ],
    });
    await t.jobs.drain();
    const [latest] = await t.database.db.select().from(truckLatest).where(eq(truckLatest.truckId, truck.id));
    expect(latest).toMatchObject({ lat: -1.2, lng: 36.9, battery: 61, lastSeenAt: new Date(receivedAt) });
    // No position yet: nothing to keep, and a heartbeat does not invent one.
    expect(await t.database.db.select().from(truckLatest).where(eq(truckLatest.truckId, fresh.id))).toEqual(
      [],
    );
    // …but the device is recorded as heard from, with its battery: the fleet view shows it alive.
    expect(await t.database.db.select().from(truckSeen).where(eq(truckSeen.truckId, fresh.id))).toEqual([
      { truckId: fresh.id, battery: 50, lastSeenAt: new Date(receivedAt) },
    ]);
    const fleet = await t.call('GET', '/api/telemetry/trucks', await t.signIn('ADMIN'));
    const listed = fleet.json().find((x: { truckId: string }) => x.truckId === fresh.id);
    expect(listed).toMatchObject({ battery: 50, lastSeen: receivedAt, lat: null });
    const counted = await sqlRows<{ count: number; last_sample: string }>(
      t.database.db,
      sql`select count, last_sample from telemetry_discards where device_id = ${truck.deviceId}`,
    );
    expect(counted).toEqual([{ count: 3, last_sample: '1795600000' }]);
  });
});
