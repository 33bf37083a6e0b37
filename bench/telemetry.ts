/**
 * Telemetry end to end with real PostgreSQL and Redis: Traccar Client JSON posted to
 * /api/telemetry/osmand (single fixes, then buffered lists of 50 as the app sends after a dead zone),
 * queued in BullMQ, written by the worker in batches. Reports accepted positions/s, the time until the
 * last position is in the database after the load stops (budget ≤ 2 s), and req/s against a bare
 * Fastify route in the same run.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 npm run bench:telemetry
 */
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import postgres from 'postgres';
import { createDb } from '../drizzle/db';
import { buildApp } from '../server/app';
import { createLimiters } from '../server/auth/rate-limit';
import { loadConfig } from '../server/config';
import { BullProducer } from '../server/jobs/bullmq-producer';
import { withDatabase } from '../test/global-db';
import { createHandlers } from '../worker/handlers';
import { startBullWorkers } from '../worker/transport/bullmq';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const TRUCKS = 50;
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const dbName = 'mchanga_bench_telemetry';
const prefix = `bench-${Date.now()}`;

async function main() {
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.unsafe(`create database ${dbName}`);
  await admin.end();
  const url = withDatabase(base, dbName);
  const database = await createDb({ databaseUrl: url, poolSize: 10 });
  await database.rows(
    sql`insert into trucks (id, plate, device_id) select 'T' || g, 'KB' || g, 'dev-' || g from generate_series(1, ${TRUCKS}) g`,
  );

  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    REDIS_URL: redisUrl,
    JWT_SECRET: 'x'.repeat(48),
    DATA_DIR: '/tmp/mchanga-bench',
  });
  const jobs = new BullProducer(redisUrl, prefix);
  const app = await buildApp({ database, config, jobs, limiters: createLimiters(), log: console });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const workers = await startBullWorkers({
    redisUrl,
    prefix,
    schedules: false,
    only: ['telemetry.ingest'],
    handlers: createHandlers({ database }),
    concurrency: 4,
  });

  const bare = Fastify();
  bare.post('/bare', async () => ({ accepted: 1 }));
  const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

  let seq = 0;
  const t0 = Date.now() - 3_600_000;
  const location = () => {
    const n = seq++;
    return {
      timestamp: new Date(t0 + n).toISOString(),
      coords: { latitude: -1.1 + (n % 1000) * 1e-5, longitude: 37.01, speed: 10, heading: 90, accuracy: 5 },
      battery: { level: 0.8 },
    };
  };
  const body = (perRequest: number) => {
    const device = `dev-${1 + (seq % TRUCKS)}`;
    const locations = Array.from({ length: perRequest }, location);
    return JSON.stringify({ device_id: device, location: perRequest === 1 ? locations[0] : locations });
  };
  const run = (target: string, perRequest: number, overallRate?: number) =>
    autocannon({
      ...(overallRate ? { overallRate } : {}),
      url: target,
      // Many phones, each with a request in flight: acknowledgements wait for the batch to be queued.
      connections: 200,
      duration: DURATION_S,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: body(perRequest) }),
        },
      ],
    });

  const baseline = await autocannon({
    url: `${bareAddress}/bare`,
    method: 'POST',
    connections: 50,
    duration: DURATION_S,
    body: body(1),
    headers: { 'content-type': 'application/json' },
  });
  const count = async () =>
    (await database.rows<{ n: number }>(sql`select count(*)::int as n from truck_positions`))[0]!.n;

  const scenarios: Array<{ label: string; perRequest: number; rate?: number }> = [
    { label: 'single fixes, as fast as possible', perRequest: 1 },
    { label: 'lists of 50 at 15,000 positions/s', perRequest: 50, rate: 300 },
    { label: 'lists of 50, as fast as possible', perRequest: 50 },
  ];
  for (const { label, perRequest, rate } of scenarios) {
    const before = await count();
    const sentBefore = seq;
    const result = await run(`${address}/api/telemetry/osmand`, perRequest, rate);
    const stoppedAt = Date.now();
    const accepted = result.requests.sent === 0 ? 0 : (result['2xx'] ?? 0) * perRequest;
    const expected = before + (seq - sentBefore) - (result.non2xx ?? 0) * perRequest;
    let lagMs = 0;
    while ((await count()) < expected && Date.now() - stoppedAt < 60_000)
      await new Promise((r) => setTimeout(r, 50));
    lagMs = Date.now() - stoppedAt;
    const written = (await count()) - before;
    console.log(
      `${label}: ${result.requests.average.toFixed(0)} req/s (${(result.requests.average / baseline.requests.average).toFixed(3)}× bare), ` +
        `${(accepted / DURATION_S).toFixed(0)} positions/s accepted, ${written} written, last one in the database ${lagMs} ms after the load stopped (budget 2000 ms), non-2xx ${result.non2xx}`,
    );
  }
  console.log(`bare Fastify route: ${baseline.requests.average.toFixed(0)} req/s`);

  await app.close();
  await bare.close();
  await workers.close();
  await jobs.close();
  await database.close();
  const cleanup = postgres(base, { max: 1, onnotice: () => {} });
  await cleanup.unsafe(`drop database if exists ${dbName} with (force)`);
  await cleanup.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
