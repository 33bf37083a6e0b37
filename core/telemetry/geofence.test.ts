import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows as sqlRows } from '../../drizzle/db';
import {
  alertDeliveries,
  assignments,
  geofenceEvents,
  loadEvents,
  orders,
  outbox,
  tripKm,
} from '../../drizzle/schema';
import { haversineKm, type LatLng } from '../../shared/domain/distance';
import { distanceM, type Fence } from '../../shared/domain/geofence';
import { makeAssignment, makeDriver, makeOrder, makeTruck, unique } from '../../test/factories';
import { createTestApp, type TestApp } from '../../test/helpers';
import { type OpenLoad, planTruck } from './geofence';

const YARD: Fence = { lat: -1.099, lng: 37.014, radiusM: 250 };
/** A site on the way to Ruiru, 5.4 km from the yard as the crow flies. */
const SITE = { lat: -1.1319, lng: 36.9784 };
const T0 = Date.parse('2026-11-26T05:00:00Z'); // 08:00 in Nairobi

let t: TestApp;
let now = new Date(T0);
beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(() => t.close());

/** Deterministic jitter, so a failure reproduces. */
function jitter(seed: number) {
  let a = seed;
  return () => {
    a = (a * 1664525 + 1013904223) % 4294967296;
    return (a / 4294967296) * 2 - 1;
  };
}

function toward(a: LatLng, b: LatLng, f: number): LatLng {
  return { lat: a.lat + (b.lat - a.lat) * f, lng: a.lng + (b.lng - a.lng) * f };
}

interface Fix extends LatLng {
  at: number;
  speedKmh: number;
}

/**
 * A trip as the driver's phone reports it, a fix every 5 s with ±15 m of GPS noise: `park` seconds at
 * `from`, then driving to `to` at 40 km/h.
 */
function leg(from: LatLng, to: LatLng, startAt: number, park: number, seed: number): Fix[] {
  const noise = jitter(seed);
  const wobble = (p: LatLng): LatLng => ({
    lat: p.lat + (noise() * 15) / 111_320,
    lng: p.lng + (noise() * 15) / 111_320,
  });
  const fixes: Fix[] = [];
  let at = startAt;
  for (let s = 0; s < park; s += 5, at += 5000) fixes.push({ ...wobble(from), at, speedKmh: 0 });
  const metres = distanceM(from, to);
  const step = (40 / 3.6) * 5;
  for (let m = 0; m <= metres; m += step, at += 5000)
    fixes.push({ ...wobble(toward(from, to, m / metres)), at, speedKmh: 40 });
  return fixes;
}

/** One OsmAnd report through the public endpoint, as Traccar Client sends it; the server's clock follows. */
async function report(deviceId: string, f: Fix) {
  now = new Date(f.at + 2000);
  const q = new URLSearchParams({
    id: deviceId,
    lat: f.lat.toFixed(6),
    lon: f.lng.toFixed(6),
    timestamp: String(Math.floor(f.at / 1000)),
    speed: (f.speedKmh / 1.852).toFixed(1),
    accuracy: '8',
  });
  const res = await t.call('POST', `/api/telemetry/osmand?${q}`);
  expect(res.statusCode, res.body).toBe(200);
}

async function drive(deviceId: string, fixes: Fix[]) {
  for (const f of fixes) await report(deviceId, f);
  await t.jobs.drain();
}

/**
 * A crossing is dated at the first fix on the new side. Reports sent back to back become batches that may
 * run side by side; one handled after a later one is skipped as old, so the date may be a fix or two late.
 */
const within = (at: number) => (v: number | undefined) => v !== undefined && v >= at && v <= at + 10_000;

const loadOf = async (id: number) =>
  (await t.database.db.select().from(assignments).where(eq(assignments.id, id)))[0]!;
const orderOf = async (id: number) =>
  (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!;
const eventsOf = (truckId: string) =>
  t.database.db
    .select()
    .from(geofenceEvents)
    .where(eq(geofenceEvents.truckId, truckId))
    .orderBy(asc(geofenceEvents.at));

async function scheduledTrip(site: Partial<typeof orders.$inferInsert> = SITE_POINT) {
  const driver = await makeDriver(t.database.db);
  const truck = await makeTruck(t.database.db, {
    deviceId: unique('dev-').toLowerCase(),
    primaryDriverId: driver.id,
  });
  const order = await makeOrder(t.database.db, {
    status: 'RECEIVED',
    paymentStatus: 'CONFIRMED',
    site: 'Plot 9, Ruiru road',
    ...site,
  });
  const load = await makeAssignment(t.database.db, {
    orderId: order.id,
    truckId: truck.id,
    driverId: driver.id,
    scheduledAt: new Date(T0),
  });
  return { driver, truck, order, load, device: truck.deviceId! };
}

const SITE_POINT = { siteLat: SITE.lat, siteLng: SITE.lng, siteRadiusM: 150, siteSource: 'pin' as const };

describe('a load tracked from yard to site without a tap (through /api/telemetry/osmand)', () => {
  it('SCHEDULED → IN_TRANSIT on leaving the yard → ARRIVED on entering the site, and the way back recorded', async () => {
    const { truck, order, load, device } = await scheduledTrip();
    const out = leg(YARD, SITE, T0, 120, 1);

    // Loading in the yard for two minutes: nothing moves.
    await drive(device, out.slice(0, 24));
    expect((await loadOf(load.id)).status).toBe('SCHEDULED');

    // Out of the yard's fence (250 m + 50 m band): two fixes beyond it and the load is on the road.
    const leaving = out.findIndex((f) => distanceM(YARD, f) >= 300);
    await drive(device, out.slice(24, leaving + 2));
    const onRoad = await loadOf(load.id);
    expect(onRoad.status).toBe('IN_TRANSIT');
    expect(onRoad.inTransitAt?.getTime()).toSatisfy(within(out[leaving]!.at));
    expect((await orderOf(order.id)).status).toBe('IN_TRANSIT');

    // Most of the way there: still in transit.
    const entering = out.findIndex((f) => distanceM(SITE, f) <= 110);
    await drive(device, out.slice(leaving + 2, entering));
    expect((await loadOf(load.id)).status).toBe('IN_TRANSIT');

    // Inside the site's fence (150 m − 40 m band), parked to offload.
    const onSite = leg(SITE, YARD, out[out.length - 1]!.at + 5000, 300, 2);
    await drive(device, [...out.slice(entering), ...onSite.slice(0, 60)]);
    const arrived = await loadOf(load.id);
    expect(arrived.status).toBe('ARRIVED');
    expect(arrived.arrivedAt?.getTime()).toSatisfy(within(out[entering]!.at));
    expect((await orderOf(order.id)).status).toBe('IN_TRANSIT');

    // Back to the yard after offloading (the rest of the leg that parked on site), and parked there.
    const home = leg(YARD, YARD, onSite.at(-1)!.at + 5000, 60, 4);
    await drive(device, [...onSite.slice(60), ...home]);

    const events = await eventsOf(truck.id);
    expect(events.map((e) => [e.kind, e.assignmentId, e.orderId])).toEqual([
      ['YARD_EXIT', load.id, order.id],
      ['SITE_ENTRY', load.id, order.id],
      ['SITE_EXIT', load.id, order.id],
      ['YARD_ENTRY', load.id, order.id],
    ]);
    // Dated at the first fix on the new side: the trip's cycle times come from these.
    expect(events[0]!.at.getTime()).toBe(onRoad.inTransitAt?.getTime());
    expect(events[1]!.at.getTime()).toBe(arrived.arrivedAt?.getTime());
    expect(events.every((e) => e.confirmedAt.getTime() - e.at.getTime() <= 60_000)).toBe(true);

    const history = await t.database.db
      .select()
      .from(loadEvents)
      .where(eq(loadEvents.assignmentId, load.id))
      .orderBy(asc(loadEvents.at));
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.source, h.byUserId, h.reason])).toEqual([
      ['SCHEDULED', 'IN_TRANSIT', 'geofence', null, 'The truck left the yard'],
      ['IN_TRANSIT', 'ARRIVED', 'geofence', null, 'The truck entered the site'],
    ]);
    expect(history.map((h) => h.geofenceEventId)).toEqual([events[0]!.id, events[1]!.id]);
    // ARRIVED waits for the proof of delivery: the geofences never deliver.
    expect((await loadOf(load.id)).status).toBe('ARRIVED');
    // About 700 one-fix batches, each also keeping the odometer and day rollups exact (issue 26).
    // The trip's km rolled up when its yard entry was recorded: the raw fixes' km from yard exit to entry.
    // (as reported: six decimals)
    const all = [...out, ...onSite, ...home].map((f) => ({
      at: f.at,
      lat: Number(f.lat.toFixed(6)),
      lng: Number(f.lng.toFixed(6)),
    }));
    const inside = all.filter((f) => f.at >= events[0]!.at.getTime() && f.at <= events[3]!.at.getTime());
    const rawKm = inside.slice(1).reduce((km, f, i) => km + haversineKm(inside[i]!, f), 0);
    const [trip] = await t.database.db.select().from(tripKm).where(eq(tripKm.assignmentId, load.id));
    expect(trip).toMatchObject({ truckId: truck.id, yardExitAt: events[0]!.at, yardEntryAt: events[3]!.at });
    expect(rawKm).toBeGreaterThan(10);
    expect(trip!.km).toBeCloseTo(rawKm, 6);
  }, 120_000);

  it('writes nothing twice when the same batch runs again', async () => {
    const { truck, load, device } = await scheduledTrip();
    const out = leg(YARD, SITE, T0, 30, 5);
    await drive(device, out);
    const before = await eventsOf(truck.id);
    expect(before.map((e) => e.kind)).toEqual(['YARD_EXIT', 'SITE_ENTRY']);
    const positions = out.map((f) => ({
      deviceId: device,
      truckId: truck.id,
      lat: f.lat,
      lng: f.lng,
      fixTime: new Date(f.at).toISOString(),
      speedKmh: f.speedKmh,
      heading: null,
      altitude: null,
      accuracy: 8,
      battery: null,
      attributes: {},
    }));
    await t.jobs.enqueue('telemetry.ingest', { positions });
    await t.jobs.drain();
    expect(await eventsOf(truck.id)).toEqual(before);
    const moves = await t.database.db.select().from(loadEvents).where(eq(loadEvents.assignmentId, load.id));
    expect(moves).toHaveLength(2);
  });

  it('a truck parked on the yard fence with GPS drift moves nothing', async () => {
    const { truck, load, device } = await scheduledTrip();
    const noise = jitter(7);
    const edge = { lat: YARD.lat - 250 / 111_320, lng: YARD.lng };
    const fixes: Fix[] = Array.from({ length: 200 }, (_, i) => ({
      lat: edge.lat + (noise() * 30) / 111_320,
      lng: edge.lng + (noise() * 30) / 111_320,
      at: T0 + i * 5000,
      speedKmh: 0,
    }));
    await drive(device, fixes);
    expect((await loadOf(load.id)).status).toBe('SCHEDULED');
    expect(await eventsOf(truck.id)).toEqual([]);
  });

  it("the driver's first stop sets a site nobody placed, and the load arrives there", async () => {
    const { order, load, device } = await scheduledTrip({ siteLat: null, siteLng: null, siteRadiusM: null });
    const out = leg(YARD, SITE, T0, 30, 8);
    // A jam on the way (two minutes at a standstill) is not the site.
    const jam = Math.floor(out.length / 2);
    const stuck = Array.from({ length: 24 }, (_, i) => ({ ...out[jam]!, at: out[jam]!.at + (i + 1) * 5000 }));
    const shifted = out.slice(jam + 1).map((f) => ({ ...f, at: f.at + 24 * 5000 }));
    await drive(device, [...out.slice(0, jam + 1), ...stuck, ...shifted]);
    expect((await loadOf(load.id)).status).toBe('IN_TRANSIT');
    expect((await orderOf(order.id)).siteLat).toBeNull();

    const parked = leg(SITE, SITE, shifted.at(-1)!.at + 5000, 240, 9).slice(0, 48);
    await drive(device, parked);
    const placed = await orderOf(order.id);
    expect(placed.siteSource).toBe('driver');
    expect(distanceM({ lat: placed.siteLat!, lng: placed.siteLng! }, SITE)).toBeLessThan(40);
    expect(placed.siteRadiusM).toBe(150);
    const arrived = await loadOf(load.id);
    expect(arrived.status).toBe('ARRIVED');
    expect(arrived.arrivedAt?.getTime()).toSatisfy(within(parked[0]!.at));
  });

  it('a heartbeat confirms an arrival a minute after the last fix (Traccar Client stops sending fixes when parked)', async () => {
    const { load, device } = await scheduledTrip();
    const out = leg(YARD, SITE, T0, 0, 10);
    const entering = out.findIndex((f) => distanceM(SITE, f) <= 100);
    await drive(device, out.slice(0, entering + 1));
    expect((await loadOf(load.id)).status).toBe('IN_TRANSIT');
    now = new Date(out[entering]!.at + 70_000);
    const beat = await t.call('POST', '/api/telemetry/osmand', null, `id=${device}&batt=80`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(beat.statusCode).toBe(200);
    await t.jobs.drain();
    expect((await loadOf(load.id)).status).toBe('ARRIVED');
  });

  it("leaves tomorrow's load and a load moved by hand alone", async () => {
    const ops = await t.signIn('OPS');
    const { truck, load, device } = await scheduledTrip();
    await t.database.db
      .update(assignments)
      .set({ scheduledAt: new Date(T0 + 24 * 3600_000) })
      .where(eq(assignments.id, load.id));
    const out = leg(YARD, SITE, T0, 30, 11);
    await drive(device, out.slice(0, 60));
    expect((await loadOf(load.id)).status).toBe('SCHEDULED');
    expect((await eventsOf(truck.id)).map((e) => [e.kind, e.assignmentId])).toEqual([['YARD_EXIT', null]]);

    const cancelled = await t.call('PATCH', `/api/admin/assignments/${load.id}`, ops, {
      status: 'CANCELLED',
      reason: 'Customer postponed',
    });
    expect(cancelled.json()).toMatchObject({
      status: 'CANCELLED',
      history: [
        {
          from: 'SCHEDULED',
          to: 'CANCELLED',
          source: 'manual',
          by: ops.user.name,
          reason: 'Customer postponed',
        },
      ],
    });
    await drive(device, out.slice(60));
    expect((await loadOf(load.id)).status).toBe('CANCELLED');
  });
});

describe('a load moved by the geofence outside the transport hours (06:00-18:00 Nairobi)', () => {
  const windowAlerts = async (assignmentId: number) => ({
    outbox: (
      await t.database.db
        .select({ id: outbox.id })
        .from(outbox)
        .where(
          sql`${outbox.payload}->>'kind' = 'load.outside_window' and (${outbox.payload}->>'assignmentId')::int = ${assignmentId}`,
        )
    ).length,
    delivered: await t.database.db
      .select({ recipientId: alertDeliveries.recipientId })
      .from(alertDeliveries)
      .where(eq(alertDeliveries.eventKey, `load.outside_window:${assignmentId}`)),
  });

  it('raises load.outside_window once, as a move by hand does, and the ops listing flags it', async () => {
    const admin = await t.signIn('ADMIN');
    // Scheduled for 08:00 (inside the hours), on the road at 20:00 and at the site after: two moves at night.
    const { load, order, device } = await scheduledTrip();
    const night = T0 + 12 * 3600_000;
    await drive(device, leg(YARD, SITE, night, 30, 12));
    expect((await loadOf(load.id)).status).toBe('ARRIVED');

    const alerts = await windowAlerts(load.id);
    expect(alerts.outbox).toBe(1);
    expect(alerts.delivered.filter((d) => d.recipientId === admin.user.id)).toHaveLength(1);
    const listed = (await t.call('GET', `/api/admin/orders/${order.id}/assignments`, admin)).json();
    expect(listed.find((l: { id: number }) => l.id === load.id).outsideWindow).toBe(true);
  });

  it('raises nothing for a trip within the hours', async () => {
    const { load, device } = await scheduledTrip();
    await drive(device, leg(YARD, SITE, T0, 30, 13));
    expect((await loadOf(load.id)).status).toBe('ARRIVED');
    expect((await windowAlerts(load.id)).outbox).toBe(0);
  });
});

describe('planTruck', () => {
  const load = (over: Partial<OpenLoad>): OpenLoad => ({
    id: 1,
    orderId: 10,
    status: 'SCHEDULED',
    scheduledAt: new Date(T0),
    inTransitAt: null,
    site: { ...SITE, radiusM: 150 },
    ...over,
  });
  const outside = (i: number) => ({ lat: YARD.lat - 600 / 111_320, lng: YARD.lng, at: T0 + i * 5000 });
  const yardInside = { fence: YARD, state: { side: 'inside', pending: null, lastAt: T0 - 5000 } };

  it.each<[string, OpenLoad[], Array<[number, string]>]>([
    [
      'the next scheduled load goes on the road',
      [load({ id: 1 }), load({ id: 2, scheduledAt: new Date(T0 + 3600_000) })],
      [[1, 'IN_TRANSIT']],
    ],
    ['none while another is on the road', [load({ id: 1, status: 'IN_TRANSIT' }), load({ id: 2 })], []],
    [
      'an arrived load does not hold back the next one',
      [load({ id: 1, status: 'ARRIVED' }), load({ id: 2 })],
      [[2, 'IN_TRANSIT']],
    ],
    ['a load scheduled without a time goes too', [load({ id: 3, scheduledAt: null })], [[3, 'IN_TRANSIT']]],
    ["tomorrow's load stays", [load({ id: 4, scheduledAt: new Date(T0 + 86_400_000) })], []],
  ])('leaving the yard: %s', (_name, loads, moves) => {
    const plan = planTruck(
      {
        truckId: 'T',
        fixes: [outside(1), outside(2)],
        tickAt: null,
        saved: new Map([['yard', yardInside]]),
        loads,
      },
      YARD,
      150,
    );
    expect(plan.events.map((e) => e.kind)).toEqual(['YARD_EXIT']);
    expect(plan.moves.map((m) => [m.assignmentId, m.to])).toEqual(moves);
  });

  it('a site whose point moved (the customer refined it) starts afresh', () => {
    const saved = new Map<string, unknown>([
      [
        'site:10',
        {
          fence: { lat: 0, lng: 36, radiusM: 150 },
          state: { side: 'outside', pending: null, lastAt: T0 },
          orderId: 10,
          assignmentId: 1,
        },
      ],
    ]);
    const atSite = [1, 2].map((i) => ({ ...SITE, at: T0 + i * 5000 }));
    const plan = planTruck(
      { truckId: 'T', fixes: atSite, tickAt: null, saved, loads: [load({ status: 'IN_TRANSIT' })] },
      YARD,
      150,
    );
    // First sight of the new fence: a side found, no crossing.
    expect(plan.events).toEqual([]);
    expect(plan.save.find((s) => s.fence === 'site:10')?.state).toMatchObject({
      fence: { ...SITE, radiusM: 150 },
      state: { side: 'inside' },
    });
  });

  it('keeps watching a site it is inside after its load is delivered, until it leaves', () => {
    const saved = new Map<string, unknown>([
      [
        'site:10',
        {
          fence: { ...SITE, radiusM: 150 },
          state: { side: 'inside', pending: null, lastAt: T0 },
          orderId: 10,
          assignmentId: 1,
        },
      ],
    ]);
    const away = [1, 2].map((i) => ({ lat: SITE.lat + 0.01, lng: SITE.lng, at: T0 + i * 5000 }));
    const plan = planTruck({ truckId: 'T', fixes: away, tickAt: null, saved, loads: [] }, YARD, 150);
    expect(plan.events.map((e) => [e.kind, e.assignmentId, e.orderId])).toEqual([['SITE_EXIT', 1, 10]]);
    expect(plan.drop).toContain('site:10');
  });
});

describe('geofence events in the database', () => {
  it('are unique per truck, kind and time', async () => {
    const truck = await makeTruck(t.database.db);
    const row = {
      truckId: truck.id,
      kind: 'YARD_EXIT' as const,
      at: new Date(T0),
      confirmedAt: new Date(T0),
      lat: 0,
      lng: 0,
    };
    await t.database.db.insert(geofenceEvents).values(row);
    await expect(t.database.db.insert(geofenceEvents).values(row)).rejects.toThrow();
    const [n] = await sqlRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from geofence_events where truck_id = ${truck.id}`,
    );
    expect(n!.n).toBe(1);
  });
});
