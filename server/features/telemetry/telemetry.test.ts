import { and, eq, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows as sqlRows } from '../../../drizzle/db';
import { alertDeliveries, truckPositions } from '../../../drizzle/schema';
import {
  makeAssignment,
  makeDriver,
  makeLatestPosition,
  makeOrder,
  makeTruck,
  unique,
} from '../../../test/factories';
import { sendPoisonRounds, storedPositions } from '../../../test/fixtures/telemetry-poison';
import { NOW, TRACKER_REQUESTS, type TrackerRequest } from '../../../test/fixtures/traccar-requests';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { until } from '../../../test/until';

let t: TestApp;
let now: Date;

beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(() => t.close());

const osmand = (query: string) => t.call('POST', `/api/telemetry/osmand?${query}`);
/** A device's discard counters, once the batcher has passed them on (they never hold the answer). */
async function discardsOf(deviceId: string, total = 1) {
  return until(
    async () => {
      await t.jobs.drain();
      const rows = await sqlRows<{ reason: string; count: number }>(
        t.database.db,
        sql`select reason, count from telemetry_discards where device_id = ${deviceId} order by reason`,
      );
      return rows.reduce((n, r) => n + r.count, 0) >= total ? rows : undefined;
    },
    3_000,
    `discards of ${deviceId}`,
  );
}
const epoch = (d: Date) => Math.floor(d.getTime() / 1000);
const trackedTruck = (over: Parameters<typeof makeTruck>[1] = {}) =>
  makeTruck(t.database.db, { deviceId: unique('dev-').toLowerCase(), ...over });
/** The live-trucks list as ADMIN sees it. */
const liveTrucks = async () =>
  (await t.call('GET', '/api/telemetry/trucks', await t.signIn('ADMIN'))).json() as Array<
    Record<string, unknown> & { truckId: string }
  >;

describe('telemetry ingestion', () => {
  it('accepts OsmAnd by GET, POST query and POST form, and Traccar Client JSON', async () => {
    now = new Date('2026-11-26T09:00:00Z'); // Thursday
    const driver = await makeDriver(t.database.db, { name: 'Kamau One', phone: '0700000001' });
    const phone = await trackedTruck({ primaryDriverId: driver.id });
    const tracker = await trackedTruck();
    const idle = await makeTruck(t.database.db);
    const ts = epoch(new Date(now.getTime() - 10 * 60_000));
    expect(
      (
        await t.call(
          'GET',
          `/api/telemetry/osmand?id=${phone.deviceId}&lat=-1.1466&lon=36.9609&timestamp=${ts}&speed=0`,
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await osmand(
          `deviceid=${phone.deviceId}&location=-1.1400,36.9700&timestamp=${ts + 60}&speed=20&bearing=90&batt=80`,
        )
      ).statusCode,
    ).toBe(200);
    const form = await t.call(
      'POST',
      '/api/telemetry/osmand',
      null,
      `id=${tracker.deviceId}&lat=-1.0333&lon=37.0693&timestamp=${(ts + 60) * 1000}&speed=0&ignition=false`,
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(form.statusCode).toBe(200);
    const json = await t.call('POST', '/api/telemetry/osmand', null, {
      device_id: phone.deviceId,
      location: {
        timestamp: new Date(now.getTime() - 60_000).toISOString(),
        coords: { latitude: -1.1, longitude: 37.01, speed: 0, heading: 10 },
        battery: { level: 0.5 },
      },
    });
    expect(json.statusCode).toBe(200);
    await t.jobs.drain();
    const history = await t.database.db.select().from(truckPositions);
    expect(history.filter((p) => p.truckId === phone.id || p.truckId === tracker.id)).toHaveLength(4);
    const live = await liveTrucks();
    const one = live.find((r) => r.truckId === phone.id)!;
    expect(one).toMatchObject({
      plate: phone.plate,
      lat: -1.1,
      lng: 37.01,
      speed: 0,
      status: 'stopped',
      driverName: 'Kamau One',
      driverPhone: '0700000001',
      lastUpdated: new Date(now.getTime() - 60_000).toISOString(),
    });
    // Last moved at ts+60 (20 knots): 9 minutes idle since.
    expect(one.idleMinutes).toBe(9);
    expect(one.address).toMatch(/^Near /);
    expect(live.find((r) => r.truckId === idle.id)).toMatchObject({
      lat: null,
      idleMinutes: null,
      lastUpdated: null,
    });
  });

  it('writes nothing twice when the same fixes arrive again or a job re-runs', async () => {
    now = new Date('2026-11-26T09:00:00Z');
    const truck = await trackedTruck();
    await osmand(`id=${truck.deviceId}&lat=-1.0333&lon=37.0693&timestamp=${epoch(now) - 9 * 60}&speed=0`);
    const ts = epoch(new Date(now.getTime() - 30 * 60_000));
    await osmand(`id=${truck.deviceId}&lat=-1.0&lon=37.0&timestamp=${ts}`);
    await osmand(`id=${truck.deviceId}&lat=-1.0&lon=37.0&timestamp=${ts}`);
    await t.jobs.drain();
    const rows = await t.database.db
      .select()
      .from(truckPositions)
      .where(and(eq(truckPositions.truckId, truck.id), eq(truckPositions.fixTime, new Date(ts * 1000))));
    expect(rows).toHaveLength(1);
    // An older fix never replaces the latest position.
    const latest = (await liveTrucks()).find((r) => r.truckId === truck.id)!;
    expect(latest.lat).toBe(-1.0333);
  });

  it.each([
    ['id=unknown-device&lat=1&lon=2', 404, /Unknown device/],
    ['lat=1&lon=2', 400, /device id/],
  ])('refuses %s with %i', async (query, status, message) => {
    now = new Date('2026-11-26T09:00:00Z');
    const res = await osmand(query);
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toMatch(message);
  });

  // A refused fix is resent by the tracker forever and holds back every later one: answered, discarded, counted.
  it.each([
    ['id={device}&lat=91&lon=2', /Latitude/],
    ['id={device}&lat=1&lon=-181', /Longitude/],
    ['id={device}&lat=1&lon=2&timestamp=915148799', /Fix time/],
    [`id={device}&lat=1&lon=2&timestamp=${epoch(new Date('2026-11-28T00:00:00Z'))}`, /Fix time/],
    ['id={device}&lat=1&lon=2&speed=870', /Speed/],
  ])('answers %s with 200 and counts the fix as discarded', async (query, reason) => {
    now = new Date('2026-11-26T09:00:00Z');
    const truck = await trackedTruck();
    const res = await osmand(query.replace('{device}', truck.deviceId!));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accepted: 0, discarded: 1 });
    const counted = await discardsOf(truck.deviceId!);
    expect(counted).toEqual([{ reason: expect.stringMatching(reason), count: 1 }]);
    expect(
      await t.database.db.select().from(truckPositions).where(eq(truckPositions.truckId, truck.id)),
    ).toEqual([]);
  });

  it('lets a DRIVER see only their trucks and FUEL read; customers are refused', async () => {
    now = new Date('2026-11-26T09:00:00Z');
    const driver = await makeDriver(t.database.db);
    const own = await trackedTruck({ primaryDriverId: driver.id });
    await trackedTruck();
    const self = await t.signIn('DRIVER', { driverId: driver.id });
    const seen = (await t.call('GET', '/api/telemetry/trucks', self)).json();
    expect(seen.map((r: { truckId: string }) => r.truckId)).toEqual([own.id]);
    expect((await t.call('GET', '/api/telemetry/trucks', await t.signIn('FUEL'))).statusCode).toBe(200);
    expect((await t.call('GET', '/api/telemetry/trucks', await t.signIn('CUSTOMER'))).statusCode).toBe(403);
    expect((await t.call('GET', '/api/telemetry/trucks')).statusCode).toBe(401);
  });

  it('alerts once when a loaded truck stands idle too long', async () => {
    now = new Date('2026-11-26T09:00:00Z');
    await t.signIn('OPS');
    const driver = await makeDriver(t.database.db);
    const truck = await trackedTruck({ primaryDriverId: driver.id });
    const order = await makeOrder(t.database.db, { status: 'RECEIVED' });
    await makeAssignment(t.database.db, {
      orderId: order.id,
      truckId: truck.id,
      driverId: driver.id,
      status: 'IN_TRANSIT',
    });
    // Stopped 9 minutes ago: not yet idle too long.
    await osmand(`id=${truck.deviceId}&lat=-1.0333&lon=37.0693&timestamp=${epoch(now) - 9 * 60}&speed=0`);
    await t.jobs.drain();
    now = new Date(now.getTime() + 60 * 60_000);
    await osmand(`id=${truck.deviceId}&lat=-1.0333&lon=37.0693&timestamp=${epoch(now)}&speed=0`);
    await osmand(`id=${truck.deviceId}&lat=-1.0333&lon=37.0693&timestamp=${epoch(now) + 30}&speed=0`);
    await t.jobs.drain();
    const alerts = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(like(alertDeliveries.eventKey, `truck.idle:${truck.id}@%`));
    expect(new Set(alerts.map((a) => a.eventKey)).size).toBe(1);
  });
});

describe('poison mixed with valid fixes: every acknowledged position is stored', () => {
  it('in one batch and across batches (embedded)', async () => {
    now = new Date('2026-11-26T09:00:00Z');
    const [a, b, p] = [await trackedTruck(), await trackedTruck(), await trackedTruck()];
    const devices = { a: a.deviceId!, b: b.deviceId!, p: p.deviceId! };
    const { acknowledged, poisonAcknowledged } = await sendPoisonRounds(t, devices, now.getTime());
    await t.jobs.drain();
    const stored = (truckIds: string[]) => storedPositions(t.database.db, truckIds);
    expect(acknowledged).toBe(398);
    expect(await stored([a.id, b.id])).toBe(398);
    // Five of the seven poison requests carry a fix that is stored made safe; two are discarded.
    expect(poisonAcknowledged).toBe(10);
    expect(await stored([p.id])).toBe(10);
    const notes = await sqlRows<{ attributes: Record<string, unknown> }>(
      t.database.db,
      sql`select attributes from truck_positions where truck_id = ${p.id} and attributes ? 'note'`,
    );
    expect(notes.map((n) => n.attributes.note)).toEqual(['ab', 'ab']);
    expect(
      await sqlRows(t.database.db, sql`select 1 from telemetry_quarantine where device_id = ${p.deviceId}`),
    ).toEqual([]);
  });
});

describe('device-id guessing', () => {
  const from = (ip: string, query: string) =>
    t.app.inject({ method: 'POST', url: `/api/telemetry/osmand?${query}`, remoteAddress: ip });

  it('answers 404 twenty times per address in 15 minutes, then 429 for any device new to that address', async () => {
    now = new Date('2026-11-26T09:00:00Z');
    const fix = (device: string) => `id=${device}&lat=-1.1&lon=37.0&timestamp=${epoch(now)}`;
    const regular = await trackedTruck();
    const other = await trackedTruck();
    expect((await from('10.9.0.1', fix(regular.deviceId!))).statusCode).toBe(200);
    for (let i = 0; i < 20; i++) {
      const res = await from('10.9.0.1', fix(`guess-${i}`));
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toMatch(/Unknown device/);
    }
    const guess = await from('10.9.0.1', fix('guess-20'));
    expect(guess.statusCode).toBe(429);
    expect(Number(guess.headers['retry-after'])).toBeGreaterThan(800);
    // A right guess past the limit gets the same answer as a wrong one: nothing to learn.
    const right = await from('10.9.0.1', fix(other.deviceId!));
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual(guess.json());
    // The device that was already sending from there goes on; other addresses are not affected.
    expect((await from('10.9.0.1', fix(regular.deviceId!))).statusCode).toBe(200);
    expect((await from('10.9.0.2', fix(other.deviceId!))).statusCode).toBe(200);
    expect((await from('10.9.0.2', fix('guess-21'))).statusCode).toBe(404);
  });

  it('counts every unknown id of a JSON list', async () => {
    const list = Array.from({ length: 25 }, (_, i) => ({ id: `list-guess-${i}`, lat: -1.1, lon: 37 }));
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/telemetry/osmand',
      payload: list,
      remoteAddress: '10.9.0.3',
    });
    expect(first.statusCode).toBe(404);
    expect((await from('10.9.0.3', 'id=list-guess-99&lat=-1.1&lon=37.0')).statusCode).toBe(429);
  });
});

describe("Traccar compatibility: the decoder test vectors and the clients' exact requests", () => {
  /** The request as the tracker sends it, with its device id swapped for the truck's own. */
  function send(r: TrackerRequest, deviceId: string) {
    const swap = (text: string) =>
      r.deviceId ? text.replace(new RegExp(`(?<=[=":])${r.deviceId}(?=[&"]|$)`, 'g'), deviceId) : text;
    const url = `/api/telemetry/osmand${r.query ? swap(r.query) : ''}`;
    if (r.json !== undefined)
      return t.call(r.method, url, null, swap(r.json), { 'content-type': 'application/json' });
    if (r.form !== undefined)
      return t.call(r.method, url, null, swap(r.form), {
        'content-type': 'application/x-www-form-urlencoded',
      });
    return t.call(r.method, url);
  }

  it.each(TRACKER_REQUESTS.map((r) => [r.name, r] as const))('%s', async (_name, r) => {
    now = NOW;
    const truck = await trackedTruck();
    const before = { lat: -1.5, lng: 36.5, fixTime: new Date(NOW.getTime() - 2 * 3600_000) };
    await makeLatestPosition(t.database.db, { truckId: truck.id, ...before });
    const res = await send(r, truck.deviceId!);
    expect(res.statusCode, res.body).toBe(r.expect.status);
    await t.jobs.drain();
    const rows = await t.database.db
      .select()
      .from(truckPositions)
      .where(eq(truckPositions.deviceId, truck.deviceId!))
      .orderBy(truckPositions.fixTime);
    const round = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);
    expect(
      rows.map((p) => ({ ...p, fixTime: p.fixTime.toISOString(), speedKmh: round(p.speedKmh) })),
    ).toMatchObject(r.expect.stored ?? []);
    expect(rows).toHaveLength(r.expect.stored?.length ?? 0);
    if (r.expect.heartbeat) {
      const [latest] = await sqlRows<{
        lat: number;
        lng: number;
        battery: number | null;
        last_seen_at: Date;
      }>(
        t.database.db,
        sql`select lat, lng, battery, last_seen_at from truck_latest where truck_id = ${truck.id}`,
      );
      expect(latest).toMatchObject({ lat: before.lat, lng: before.lng, ...r.expect.heartbeat });
      expect(new Date(latest!.last_seen_at).toISOString()).toBe(NOW.toISOString());
    }
    if (r.expect.discarded !== undefined) {
      const counted = await discardsOf(truck.deviceId!, r.expect.discarded);
      expect(counted.reduce((n, c) => n + c.count, 0)).toBe(r.expect.discarded);
    }
  });
});
