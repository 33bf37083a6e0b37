/**
 * `npm run simulate`: drives three demo trucks along the Thika–Juja–Ruiru road through the same public
 * endpoint a driver's phone uses (/api/telemetry/osmand), so the fleet map is alive on a new install.
 * Creates the demo drivers and trucks through the admin API when missing.
 *   BASE_URL (http://localhost:3000), ADMIN_EMAIL/ADMIN_PASSWORD or DATA_DIR/admin-credentials.txt,
 *   SIM_INTERVAL_MS (5000), --ticks N to stop after N rounds.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pointAlong, THIKA_ROAD } from '../shared/domain/route';

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

async function ensureDemoFleet() {
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
}

async function tick(n: number) {
  const now = Date.now();
  await Promise.all(
    DEMO.map(async (d) => {
      const km = d.startKm + (d.kmh * n * INTERVAL_MS * SPEEDUP) / 3_600_000;
      const p = pointAlong(THIKA_ROAD, km);
      const params = new URLSearchParams({
        id: d.device,
        lat: p.lat.toFixed(6),
        lon: p.lng.toFixed(6),
        timestamp: String(Math.floor(now / 1000)),
        speed: (d.kmh / 1.852).toFixed(1),
        bearing: p.bearing.toFixed(0),
        batt: '87',
      });
      const res = await fetch(`${BASE_URL}/api/telemetry/osmand?${params}`, { method: 'POST' });
      if (!res.ok) console.error(`${d.plate}: ${res.status} ${await res.text()}`);
    }),
  );
}

async function main() {
  await ensureDemoFleet();
  console.log(
    `simulating ${DEMO.length} trucks against ${BASE_URL} every ${INTERVAL_MS / 1000} s (Ctrl-C to stop)`,
  );
  let stop = false;
  process.on('SIGINT', () => {
    stop = true;
  });
  process.on('SIGTERM', () => {
    stop = true;
  });
  for (let n = 0; n < MAX_TICKS && !stop; n++) {
    await tick(n);
    if (n + 1 < MAX_TICKS) await new Promise((r) => setTimeout(r, INTERVAL_MS));
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
