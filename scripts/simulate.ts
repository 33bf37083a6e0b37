/**
 * `npm run simulate`: drives three demo trucks along the Thika–Juja–Ruiru road through the same public
 * endpoint a driver's phone uses (/api/telemetry/osmand), so the fleet map is alive on a new install.
 * A fourth truck (KDD 404S) makes whole trips: it waits at the yard with a scheduled load, drives out to
 * a pinned demo site, stops there, delivers (a photo and the receiver's name) and drives back, so its load
 * moves SCHEDULED → IN_TRANSIT → ARRIVED by itself (the geofences) and its tracking page moves with it.
 * Creates the demo drivers, trucks and the trip's order and load through the admin API when missing.
 *   BASE_URL (http://localhost:3000), ADMIN_EMAIL/ADMIN_PASSWORD or DATA_DIR/admin-credentials.txt,
 *   SIM_INTERVAL_MS (5000), SIM_SPEEDUP (1), YARD_LAT/YARD_LNG (the server's yard), --ticks N to stop
 *   after N rounds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { distanceM } from '../shared/domain/geofence';
import { pointAlong, THIKA_ROAD } from '../shared/domain/route';
import { isOpenLoad } from '../shared/enums';

const BASE_URL = (process.env.BASE_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
const INTERVAL_MS = Number(process.env.SIM_INTERVAL_MS ?? 5000);
// Demo and test runs may fast-forward the road (distance per tick × this factor).
const SPEEDUP = Number(process.env.SIM_SPEEDUP ?? 1);
const ticksArg = process.argv.indexOf('--ticks');
const MAX_TICKS = ticksArg > 0 ? Number(process.argv[ticksArg + 1]) : Number.POSITIVE_INFINITY;

const DEMO = [
  {
    truck: 'SIM-1',
    plate: 'KDA 101S',
    device: 'sim-kda-101',
    driver: 'SIM-D1',
    name: 'Mwangi Kamau',
    startKm: 0,
    kmh: 48,
  },
  {
    truck: 'SIM-2',
    plate: 'KDB 202S',
    device: 'sim-kdb-202',
    driver: 'SIM-D2',
    name: 'Achieng Otieno',
    startKm: 11,
    kmh: 40,
  },
  {
    truck: 'SIM-3',
    plate: 'KDC 303S',
    device: 'sim-kdc-303',
    driver: 'SIM-D3',
    name: 'Kiprono Cheruiyot',
    startKm: 22,
    kmh: 0,
  },
];

function adminCredentials(): { email: string; password: string } {
  if (process.env.ADMIN_EMAIL && process.env.ADMIN_PASSWORD)
    return { email: process.env.ADMIN_EMAIL, password: process.env.ADMIN_PASSWORD };
  const file = join(resolve(process.env.DATA_DIR ?? './data'), 'admin-credentials.txt');
  if (!existsSync(file))
    throw new Error(`Set ADMIN_EMAIL and ADMIN_PASSWORD, or run next to the ${file} that npm start wrote.`);
  const text = readFileSync(file, 'utf8');
  return { email: /email: (.+)/.exec(text)![1]!.trim(), password: /password: (.+)/.exec(text)![1]!.trim() };
}

async function call<T>(
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<{ status: number; data: T }> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, data: (text ? JSON.parse(text) : null) as T };
}

async function ensureDemoFleet(): Promise<string> {
  const login = await call<{ token: string; error?: string }>('POST', '/api/auth/login', adminCredentials());
  if (login.status !== 200) throw new Error(`Admin sign-in failed: ${login.data.error}`);
  const token = login.data.token;
  const trucks = await call<Array<{ id: string }>>('GET', '/api/admin/trucks', undefined, token);
  const have = new Set(trucks.data.map((t) => t.id));
  for (const d of DEMO) {
    if (have.has(d.truck)) continue;
    await call('POST', '/api/admin/drivers', { id: d.driver, name: d.name, phone: '0700000000' }, token);
    const res = await call<{ error?: string }>(
      'POST',
      '/api/admin/trucks',
      { id: d.truck, plate: d.plate, capacityT: 20, primaryDriverId: d.driver, deviceId: d.device },
      token,
    );
    if (res.status !== 201) throw new Error(`Could not create ${d.truck}: ${res.data.error}`);
    console.log(`created demo truck ${d.plate} (device ${d.device})`);
  }
  if (!have.has(TRIP.truck)) {
    await call(
      'POST',
      '/api/admin/drivers',
      { id: TRIP.driver, name: TRIP.name, phone: '0700000000' },
      token,
    );
    const res = await call<{ error?: string }>(
      'POST',
      '/api/admin/trucks',
      {
        id: TRIP.truck,
        plate: TRIP.plate,
        capacityT: 20,
        primaryDriverId: TRIP.driver,
        deviceId: TRIP.device,
      },
      token,
    );
    if (res.status !== 201) throw new Error(`Could not create ${TRIP.truck}: ${res.data.error}`);
    console.log(`created trip truck ${TRIP.plate} (device ${TRIP.device})`);
  }
  return token;
}

// ── A whole trip: yard, out, site, back ─────────────────────────────────────────────────────────────────

const YARD = { lat: Number(process.env.YARD_LAT ?? -1.099), lng: Number(process.env.YARD_LNG ?? 37.014) };
/** A pinned demo site on the road to Ruiru, about 3 km from the yard. */
const TRIP_SITE = { lat: -1.1199, lng: 36.993 };
const TRIP = {
  truck: 'TRIP-1',
  plate: 'KDD 404S',
  device: 'sim-kdd-404',
  driver: 'SIM-D4',
  name: 'Njeri Wambui',
  kmh: 40,
  /** Simulated seconds parked at the yard, then at the site. */
  yardS: 60,
  siteS: 180,
};
const tripKm = distanceM(YARD, TRIP_SITE) / 1000;
const driveS = (tripKm / TRIP.kmh) * 3600;
const CYCLE_S = TRIP.yardS + driveS + TRIP.siteS + driveS;

type TripPhase = 'yard' | 'out' | 'site' | 'back';

/** Where the trip truck is `s` simulated seconds into its cycle. */
function tripAt(s: number): { phase: TripPhase; lat: number; lng: number; kmh: number; intoPhase: number } {
  const along = (from: typeof YARD, to: typeof YARD, f: number) => ({
    lat: from.lat + (to.lat - from.lat) * f,
    lng: from.lng + (to.lng - from.lng) * f,
  });
  let t = s % CYCLE_S;
  if (t < TRIP.yardS) return { phase: 'yard', ...YARD, kmh: 0, intoPhase: t };
  t -= TRIP.yardS;
  if (t < driveS) return { phase: 'out', ...along(YARD, TRIP_SITE, t / driveS), kmh: TRIP.kmh, intoPhase: t };
  t -= driveS;
  if (t < TRIP.siteS) return { phase: 'site', ...TRIP_SITE, kmh: 0, intoPhase: t };
  t -= TRIP.siteS;
  return { phase: 'back', ...along(TRIP_SITE, YARD, t / driveS), kmh: TRIP.kmh, intoPhase: t };
}

interface TripLoad {
  id: number;
  orderId: number;
  status: string;
  trackingUrl: string;
}

/** The trip truck's open load (scheduled, on the road or at the site), if any. */
async function openTripLoad(token: string): Promise<TripLoad | undefined> {
  const res = await call<
    Array<{
      id: number;
      trackingUrl: string;
      assignments: Array<{ id: number; truckId: string; status: string }>;
    }>
  >('GET', '/api/admin/orders?assigned=true', undefined, token);
  for (const o of res.data ?? [])
    for (const a of o.assignments)
      if (a.truckId === TRIP.truck && isOpenLoad(a.status))
        return { id: a.id, orderId: o.id, status: a.status, trackingUrl: o.trackingUrl };
  return undefined;
}

/** A new demo order with its site pinned, and a load on the trip truck. */
async function scheduleTrip(token: string): Promise<void> {
  const order = await call<{ id: number; error?: string }>(
    'POST',
    '/api/admin/orders',
    {
      name: 'Demo Site Owner',
      site: 'Demo site, Ruiru road (simulator)',
      sandType: 'coarse',
      trucks: 1,
      distanceKm: 4,
    },
    token,
  );
  if (order.status !== 201) throw new Error(`Could not create the trip's order: ${order.data.error}`);
  await call('PUT', `/api/orders/${order.data.id}/site`, TRIP_SITE, token);
  const load = await call<{ error?: string }>(
    'POST',
    `/api/admin/orders/${order.data.id}/assignments`,
    { truckId: TRIP.truck, driverId: TRIP.driver, confirmUnpaid: true },
    token,
  );
  if (load.status !== 201) throw new Error(`Could not schedule the trip's load: ${load.data.error}`);
  const open = await openTripLoad(token);
  console.log(
    `trip: ${TRIP.plate} scheduled for order #${order.data.id}; track it at ${BASE_URL}${open?.trackingUrl ?? ''}`,
  );
}

let photo: string | undefined;

/** The driver's proof at the site: a photo and the receiver's name (the simulator has no customer code). */
async function deliverTrip(token: string, load: TripLoad): Promise<void> {
  photo ??= `data:image/jpeg;base64,${(
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c8964f' } })
      .jpeg()
      .toBuffer()
  ).toString('base64')}`;
  const res = await call<{ error?: string }>(
    'POST',
    `/api/admin/assignments/${load.id}/delivery`,
    { photoData: photo, receiverName: 'Site foreman (simulated)' },
    token,
  );
  if (res.status === 200) console.log(`trip: ${TRIP.plate} delivered order #${load.orderId}`);
  else console.error(`trip: delivery refused: ${res.status} ${res.data.error}`);
}

let lastPhase: TripPhase | undefined;

/** One round of the trip truck: its fix, and the office work a trip needs (a load to carry, its proof). */
async function tripTick(token: string, startedAt: number, now: number) {
  const at = tripAt(((now - startedAt) * SPEEDUP) / 1000);
  if (at.phase !== lastPhase) {
    console.log(
      `trip: ${TRIP.plate} ${{ yard: 'at the yard', out: 'driving out', site: 'at the site', back: 'driving back' }[at.phase]}`,
    );
    lastPhase = at.phase;
  }
  const fix = {
    id: TRIP.device,
    lat: at.lat.toFixed(6),
    lon: at.lng.toFixed(6),
    timestamp: String(Math.floor(now / 1000)),
    speed: (at.kmh / 1.852).toFixed(1),
    accuracy: '8',
    batt: '90',
  };
  const res = await fetch(`${BASE_URL}/api/telemetry/osmand?${new URLSearchParams(fix)}`, { method: 'POST' });
  if (!res.ok) console.error(`${TRIP.plate}: ${res.status} ${await res.text()}`);
  if (at.phase === 'yard' || at.phase === 'site') {
    const load = await openTripLoad(token);
    if (at.phase === 'yard' && !load) await scheduleTrip(token);
    // A minute (simulated) at the site, once the geofence has it ARRIVED: the driver hands over.
    if (at.phase === 'site' && load?.status === 'ARRIVED' && at.intoPhase >= 60)
      await deliverTrip(token, load);
  }
}

/** A moving truck posts OsmAnd fixes in the query (the old clients); a parked one acts as Traccar Client 10. */
async function send(d: (typeof DEMO)[number], n: number, now: number) {
  const km = d.startKm + (d.kmh * n * INTERVAL_MS * SPEEDUP) / 3_600_000;
  const p = pointAlong(THIKA_ROAD, km);
  const fix = {
    id: d.device,
    lat: p.lat.toFixed(6),
    lon: p.lng.toFixed(6),
    timestamp: String(Math.floor(now / 1000)),
    speed: (d.kmh / 1.852).toFixed(1),
    bearing: p.bearing.toFixed(0),
    batt: '87',
  };
  if (d.kmh > 0)
    return fetch(`${BASE_URL}/api/telemetry/osmand?${new URLSearchParams(fix)}`, { method: 'POST' });
  // Stationary, Traccar Client 10 sends a heartbeat without a fix (form body), and a fix now and then.
  const battery = String(Math.max(20, 87 - Math.floor(n / 12)));
  const form =
    n % 12 === 0
      ? { ...fix, batt: battery, charge: 'false' }
      : { id: d.device, timestamp: fix.timestamp, batt: battery, charge: 'false' };
  return fetch(`${BASE_URL}/api/telemetry/osmand`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
}

async function tick(n: number, token: string, startedAt: number) {
  const now = Date.now();
  await Promise.all([
    ...DEMO.map(async (d) => {
      const res = await send(d, n, now);
      if (!res.ok) console.error(`${d.plate}: ${res.status} ${await res.text()}`);
    }),
    tripTick(token, startedAt, now).catch((err: unknown) =>
      console.error(`trip: ${err instanceof Error ? err.message : String(err)}`),
    ),
  ]);
}

async function main() {
  const token = await ensureDemoFleet();
  const startedAt = Date.now();
  console.log(
    `simulating ${DEMO.length + 1} trucks against ${BASE_URL} every ${INTERVAL_MS / 1000} s (Ctrl-C to stop); ` +
      `${TRIP.plate} makes a ${tripKm.toFixed(1)} km trip every ${Math.round(CYCLE_S / SPEEDUP / 60)} min`,
  );
  let stop = false;
  process.on('SIGINT', () => {
    stop = true;
  });
  process.on('SIGTERM', () => {
    stop = true;
  });
  for (let n = 0; n < MAX_TICKS && !stop; n++) {
    await tick(n, token, startedAt);
    if (n + 1 < MAX_TICKS) await new Promise((r) => setTimeout(r, INTERVAL_MS));
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
