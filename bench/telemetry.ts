/**
 * Telemetry end to end with real PostgreSQL and Redis: Traccar Client JSON posted to
 * /api/telemetry/osmand (single fixes, then buffered lists of 50 as the app sends after a dead zone),
 * queued in BullMQ, written by the worker in batches. For each load it reports req/s against a bare
 * Fastify route, positions accepted/s and written/s, the lag from acceptance to stored (per batch, from
 * the server's receive time to the job's commit) and how long after the load stopped the last position
 * was in the database (budget ≤ 2 s at 30,000 positions/s), then Redis memory before and after.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 npm run bench:telemetry
 */
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import type { Job } from 'bullmq';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { Redis } from 'ioredis';
import postgres from 'postgres';
import { createLimiters } from '../core/auth/rate-limit';
import { BullProducer } from '../core/jobs/bullmq-producer';
import { createDb, rows as sqlRows } from '../drizzle/db';
import { buildApp } from '../server/app';
import { loadSettings } from '../shared/settings';
import { withDatabase } from '../test/global-db';
import { startBullWorkers } from '../worker/transport/bullmq';
import { percentile } from './stats';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
/** Only the loads whose label contains this (e.g. `30,000`). */
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const TRUCKS = 50;
const LAG_BUDGET_MS = 2_000;
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const dbName = 'mchanga_bench_telemetry';
const prefix = `bench-${Date.now()}`;

/** Redis `used_memory`, and what this run's own keys take (the server is shared with other work). */
async function redisMemory(redis: Redis) {
  const info = await redis.info('memory');
  const field = (name: string) => info.match(new RegExp(`^${name}:(.*)$`, 'm'))?.[1]?.trim() ?? '?';
  let own = 0;
  let keys = 0;
  const stream = redis.scanStream({ match: `${prefix}:*`, count: 1000 });
  for await (const batch of stream as AsyncIterable<string[]>) {
    for (const key of batch) {
      keys++;
      own += Number((await redis.memory('USAGE', key)) ?? 0);
    }
  }
  return `used_memory_human ${field('used_memory_human')}, this run's keys ${(own / 1024 / 1024).toFixed(2)} MiB in ${keys}`;
}

async function main() {
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.unsafe(`create database ${dbName}`);
  await admin.end();
  const url = withDatabase(base, dbName);
  const database = await createDb({ databaseUrl: url, poolSize: 10 });
  await sqlRows(
    database.db,
    sql`insert into trucks (id, plate, device_id) select 'T' || g, 'KB' || g, 'dev-' || g from generate_series(1, ${TRUCKS}) g`,
  );
  const redis = new Redis(redisUrl);
  const memoryBefore = await redisMemory(redis);

  const settings = loadSettings({
    ...process.env,
    DATABASE_URL: url,
    REDIS_URL: redisUrl,
    JWT_SECRET: 'x'.repeat(48),
    DATA_DIR: '/tmp/mchanga-bench',
  });
  const jobs = new BullProducer(redisUrl, prefix);
  const app = await buildApp({
    database,
    settings,
    jobs,
    llm: null,
    limiters: createLimiters(),
    log: console,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const workers = await startBullWorkers({
    redisUrl,
    prefix,
    schedules: false,
    only: ['telemetry.ingest'],
    runtime: { database, settings, llm: null, now: () => new Date(), log: console },
    concurrency: CONCURRENCY,
  });
  // Every committed batch: how many positions it stored and how long after the server took them.
  const done = { stored: 0, lastAt: 0, lags: [] as number[] };
  for (const worker of workers.workers)
    worker.on('completed', (job: Job, result: { stored?: number }) => {
      const now = Date.now();
      done.stored += result?.stored ?? 0;
      done.lastAt = now;
      const receivedAt = (job.data as { receivedAt?: string }).receivedAt;
      if (receivedAt) done.lags.push(now - Date.parse(receivedAt));
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
    (await sqlRows<{ n: number }>(database.db, sql`select count(*)::int as n from truck_positions`))[0]!.n;

  const load = loadavg().map((n) => n.toFixed(1));
  console.log(
    `${DURATION_S} s per load, ${TRUCKS} trucks, worker concurrency ${CONCURRENCY}; machine load average ${load.join(' / ')} (1 / 5 / 15 min)`,
  );
  const scenarios: Array<{ label: string; perRequest: number; rate?: number; budget?: boolean }> = [
    { label: 'single fixes, as fast as possible', perRequest: 1 },
    { label: 'lists of 50 at 15,000 positions/s', perRequest: 50, rate: 300 },
    { label: 'lists of 50 at 30,000 positions/s', perRequest: 50, rate: 600, budget: true },
    { label: 'lists of 50, as fast as possible', perRequest: 50 },
  ];
  const failures: string[] = [];
  const only = process.env.BENCH_ONLY;
  for (const { label, perRequest, rate, budget } of scenarios) {
    if (only && !label.includes(only)) continue;
    const before = await count();
    const sentBefore = seq;
    done.stored = 0;
    done.lags = [];
    const startedAt = Date.now();
    done.lastAt = startedAt;
    const result = await run(`${address}/api/telemetry/osmand`, perRequest, rate);
    const stoppedAt = Date.now();
    const accepted = (result['2xx'] ?? 0) * perRequest;
    // Bodies sent but refused are not stored; a request still in flight when the load stopped may be.
    const refused = (result.non2xx ?? 0) * perRequest;
    const expected = seq - sentBefore - refused;
    let last = { stored: -1, at: Date.now() };
    while (done.stored < expected && Date.now() - last.at < 10_000) {
      if (done.stored !== last.stored) last = { stored: done.stored, at: Date.now() };
      await new Promise((r) => setTimeout(r, 20));
    }
    const drainMs = Math.max(0, done.lastAt - stoppedAt);
    const written = (await count()) - before;
    const lags = done.lags.sort((a, b) => a - b);
    const maxLag = lags.at(-1) ?? 0;
    console.log(
      `${label}: ${result.requests.average.toFixed(0)} req/s (${(result.requests.average / baseline.requests.average).toFixed(3)}× bare), ` +
        `${(accepted / ((stoppedAt - startedAt) / 1000)).toFixed(0)} positions/s accepted, ` +
        `${(written / ((Math.max(done.lastAt, stoppedAt) - startedAt) / 1000)).toFixed(0)} positions/s written (${written} of ${expected}), ` +
        `lag accepted → stored p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms, max ${maxLag} ms over ${lags.length} batches, ` +
        `last one in the database ${drainMs} ms after the load stopped${budget ? ` (budget ${LAG_BUDGET_MS} ms)` : ''}, non-2xx ${result.non2xx}`,
    );
    if (budget && (maxLag > LAG_BUDGET_MS || drainMs > LAG_BUDGET_MS || written < expected))
      failures.push(`${label}: lag ${maxLag} ms, drain ${drainMs} ms, ${written} of ${expected} written`);
  }
  console.log(`bare Fastify route: ${baseline.requests.average.toFixed(0)} req/s`);

  await app.close();
  await bare.close();
  await workers.close();
  await jobs.close();
  console.log(`Redis memory before: ${memoryBefore}`);
  console.log(`Redis memory after:  ${await redisMemory(redis)}`);
  // What the run left behind (retention keeps failed jobs a while; there should be none) goes now.
  const leftover = await redis.keys(`${prefix}:*`);
  if (leftover.length > 0) await redis.del(...leftover);
  redis.disconnect();
  await database.close();
  const cleanup = postgres(base, { max: 1, onnotice: () => {} });
  await cleanup.unsafe(`drop database if exists ${dbName} with (force)`);
  await cleanup.end();
  if (failures.length > 0) {
    console.log(`Over budget:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
