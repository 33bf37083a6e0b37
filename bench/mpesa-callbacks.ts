/**
 * M-Pesa callback latency: Daraja's callbacks posted to the real app over HTTP in bursts of 50 at once,
 * while the jobs they queue run beside them. A callback is stored, answered
 * {"ResultCode":0,"ResultDesc":"Accepted"} and processed after; the budget is the answer's p99 ≤ 1 s over the
 * bursts. A sustained load (50 connections that never let go, far beyond a paybill's traffic) is printed
 * for information: on embedded PGlite it measures how the one database thread shares out. The mix: C2B confirmations paying orders in full, the same receipts delivered again
 * (replays), unknown account numbers, validations (MPESA_VALIDATE_ACCOUNT=true, so each reads an order),
 * and STK results for recorded prompts. A bare Fastify route under the same bursts is the baseline.
 * Afterwards it waits for every callback to be processed and checks each payment was credited once.
 *   npm run bench:mpesa                          (embedded PGlite, in-process jobs, as `npm start`)
 *   DATABASE_URL=… REDIS_URL=… npm run bench:mpesa   (PostgreSQL and BullMQ)
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import postgres from 'postgres';
import { createLimiters } from '../core/auth/rate-limit';
import { BullProducer } from '../core/jobs/bullmq-producer';
import { OutboxRelay } from '../core/jobs/outbox-relay';
import { createDb, rows } from '../drizzle/db';
import { buildApp } from '../server/app';
import type { JobQueue } from '../shared/jobs';
import { silentLogger } from '../shared/logger';
import { loadSettings } from '../shared/settings';
import { withDatabase } from '../test/global-db';
import { startBullWorkers } from '../worker/transport/bullmq';
import { InProcessRunner } from '../worker/transport/in-process';
import { percentile } from './stats';

const CONCURRENT = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const SUSTAINED_S = Number(process.env.BENCH_SECONDS ?? 8);
const BUDGET_P99_MS = 1_000;
const STALL_MS = 30_000;
const SECRET = `bench-secret-${randomBytes(8).toString('hex')}`;
const ORDERS = ROUNDS * CONCURRENT;

const figures = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s.at(-1) ?? 0 };
};
const fmt = (f: ReturnType<typeof figures>) =>
  `p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, max ${f.max.toFixed(1)} ms`;

let seq = 0;
const receipt = () => `B${(++seq).toString(36).toUpperCase().padStart(9, '0')}`;
const c2b = (account: string, amount: number, transId = receipt()) => ({
  TransactionType: 'Pay Bill',
  TransID: transId,
  TransTime: '20261123121325',
  TransAmount: amount.toFixed(2),
  BusinessShortCode: '174379',
  BillRefNumber: account,
  InvoiceNumber: '',
  OrgAccountBalance: '',
  ThirdPartyTransID: '',
  MSISDN: '2547 ***** 126',
  FirstName: 'BENCH',
  MiddleName: '',
  LastName: 'PAYER',
});

async function main() {
  const services = Boolean(process.env.DATABASE_URL && process.env.REDIS_URL);
  const dataDir = join('/tmp', `mchanga-bench-mpesa-${process.pid}`);
  let dbUrl: string | undefined;
  if (services) {
    const base = process.env.DATABASE_URL!;
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe('drop database if exists mchanga_bench_mpesa with (force)');
    await admin.unsafe('create database mchanga_bench_mpesa');
    await admin.end();
    dbUrl = withDatabase(base, 'mchanga_bench_mpesa');
  }
  const settings = loadSettings({
    ...process.env,
    DATABASE_URL: dbUrl,
    REDIS_URL: services ? process.env.REDIS_URL : undefined,
    JWT_SECRET: 'x'.repeat(48),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    MPESA_CALLBACK_SECRET: SECRET,
    MPESA_SHORTCODE: '174379',
    MPESA_VALIDATE_ACCOUNT: 'true',
  });
  const loadAtStart = loadavg();
  // The database as `npm start` opens it: PostgreSQL with the server's pool, or PGlite in its own thread.
  const database = await createDb({
    databaseUrl: settings.databaseUrl,
    dataDir: services ? undefined : join(dataDir, 'pglite'),
    poolSize: 10,
    thread: !services,
  });
  const runtime = { database, settings, llm: null, now: () => new Date(), log: silentLogger };
  let jobs: JobQueue;
  let stopWorkers: () => Promise<void>;
  const prefix = `bench-mpesa-${Date.now()}`;
  if (services) {
    jobs = new BullProducer(settings.redisUrl!, prefix);
    // As `npm run worker` runs (worker/main.ts): its own connection pool, not the server's.
    const workerDatabase = await createDb({ databaseUrl: settings.databaseUrl, poolSize: 5, migrate: false });
    const workers = await startBullWorkers({
      redisUrl: settings.redisUrl!,
      prefix,
      schedules: false,
      only: ['mpesa.process', 'alert.fanout', 'alert.telegram'],
      runtime: { ...runtime, database: workerDatabase },
      concurrency: settings.workerConcurrency,
    });
    const relay = new OutboxRelay(workerDatabase.db, workers.producer.enqueue.bind(workers.producer), {
      intervalMs: 500,
    }).start();
    stopWorkers = async () => {
      await relay.stop();
      await workers.close();
      await jobs.close();
      await workerDatabase.close();
    };
  } else {
    // As `npm start` runs: the jobs and the outbox relay in the server's own process.
    const runner = new InProcessRunner(runtime, { schedules: false, outboxIntervalMs: 250 });
    jobs = runner;
    stopWorkers = () => runner.close();
  }
  const app = await buildApp({
    database,
    settings,
    jobs,
    llm: null,
    limiters: createLimiters(),
    log: silentLogger,
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  // Orders to pay (KES 32,000 each) and prompts waiting for their result.
  await rows(
    database.db,
    sql`insert into orders (name, site, sand_type, trucks, per_truck_cents, total_cents, distance_km, distance_source)
        select 'Bench ' || g, 'Juja', 'coarse', 1, 3200000, 3200000, 12, 'manual' from generate_series(1, ${ORDERS}) g`,
  );
  const ids = (await rows<{ id: number }>(database.db, sql`select id from orders order by id`)).map(
    (r) => r.id,
  );
  const prompts = ids.slice(0, Math.floor(ORDERS / 10));
  await rows(
    database.db,
    sql`insert into mpesa_stk_requests (order_id, checkout_request_id, amount_cents, phone_masked)
        select id, 'ws_CO_bench_' || id, 3200000, '2547 ***** 678' from orders where id = any(${`{${prompts.join(',')}}`}::int[])`,
  );

  // The load runs in a process of its own, so that the database work of this one (PGlite runs on its
  // thread) delays only the answers, never the clock that times them.
  const config = join(dataDir, 'load.json');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(config, JSON.stringify({ address, secret: SECRET, ids, prompts } satisfies LoadConfig));
  const loaded = await runLoad(config);
  const { appMs, bareMs, wrong, burstSeconds, sustained } = loaded;

  // Everything processed, each receipt credited once.
  // The sustained load leaves a backlog (thousands of callbacks); processing fails only when it stops
  // moving for STALL_MS, not when it is merely long.
  const drainStart = Date.now();
  let open = Number.POSITIVE_INFINITY;
  let lastProgress = Date.now();
  while (open > 0 && Date.now() - lastProgress < STALL_MS) {
    const before = open;
    open = (
      await rows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from mpesa_callbacks where processed_at is null`,
      )
    )[0]!.n;
    if (open < before) lastProgress = Date.now();
    if (open > 0) await new Promise((r) => setTimeout(r, 100));
  }
  const drainMs = Date.now() - drainStart;
  const [check] = await rows<{
    receipts: number;
    payments: number;
    duplicates: number;
    callbacks: number;
    received: number;
  }>(
    database.db,
    sql`select
      (select count(distinct ref)::int from mpesa_callbacks where kind in ('C2B_CONFIRMATION','STK') and outcome in ('credited','unmatched','duplicate')) as receipts,
      (select count(*)::int from payments) as payments,
      (select count(*)::int from (select mpesa_receipt from payments where mpesa_receipt is not null group by 1 having count(*) > 1) d) as duplicates,
      (select count(*)::int from mpesa_callbacks) as callbacks,
      (select count(*)::int from orders where status = 'RECEIVED') as received`,
  );

  const app50 = figures(appMs);
  const bare50 = figures(bareMs);
  const avg = (l: number[]) => l.map((n) => n.toFixed(1)).join(' / ');
  console.log(
    `${services ? 'PostgreSQL + BullMQ worker' : 'embedded PGlite (own thread) + in-process jobs'}; machine load average ${avg(loadAtStart)} at the start, ${avg(loadavg())} at the end (1 / 5 / 15 min, ${cpus().length} CPUs)`,
  );
  console.log(
    `bursts of ${CONCURRENT} at once × ${ROUNDS} (${appMs.length} callbacks in ${burstSeconds.toFixed(1)} s): answer ${fmt(app50)}`,
  );
  console.log(
    `bare Fastify route, same bursts: ${fmt(bare50)}; app p99 = ${(app50.p99 / Math.max(bare50.p99, 0.1)).toFixed(1)}× bare`,
  );
  console.log(
    `sustained (for information), ${CONCURRENT} connections for ${SUSTAINED_S} s: ${sustained.rps.toFixed(0)} callbacks/s, p50 ${sustained.p50} ms, p99 ${sustained.p99} ms, max ${sustained.max} ms, non-2xx ${sustained.non2xx}`,
  );
  console.log(
    `processed: ${check!.callbacks} stored callbacks, the last of them ${drainMs} ms after the load (${open} left unprocessed); ${check!.payments} payments for ${check!.receipts} receipts, ${check!.duplicates} receipts credited twice; ${check!.received} orders Received`,
  );

  await app.close();
  await stopWorkers();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  if (services) {
    const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe('drop database if exists mchanga_bench_mpesa with (force)');
    await admin.end();
  }

  const failures: string[] = [];
  if (app50.p99 > BUDGET_P99_MS) failures.push(`burst p99 ${app50.p99.toFixed(0)} ms > ${BUDGET_P99_MS} ms`);
  if (wrong > 0 || sustained.non2xx > 0)
    failures.push(`${wrong + sustained.non2xx} answers were not 200 Accepted`);
  if (open > 0) failures.push(`${open} callbacks not processed`);
  if (check!.duplicates > 0 || check!.payments !== check!.receipts)
    failures.push('a receipt was not credited exactly once');
  if (failures.length) {
    console.error(`FAILED: ${failures.join('; ')}`);
    process.exit(1);
  }
  console.log(`OK: p99 of the answer ≤ ${BUDGET_P99_MS} ms under ${CONCURRENT} concurrent callbacks`);
  process.exit(0);
}

interface LoadConfig {
  address: string;
  secret: string;
  ids: number[];
  prompts: number[];
}

interface LoadResult {
  appMs: number[];
  bareMs: number[];
  wrong: number;
  burstSeconds: number;
  sustained: { rps: number; p50: number; p99: number; max: number; non2xx: number };
}

function runLoad(config: string): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--load', config],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`load process exited ${code}`)),
    );
  });
}

/** The load process: bursts of 50 callbacks at once, a bare route under the same bursts, then 50 connections. */
async function load(configFile: string) {
  const { address, secret, ids, prompts } = JSON.parse(readFileSync(configFile, 'utf8')) as LoadConfig;
  const bare = Fastify();
  bare.post('/bare', async () => ({ ResultCode: 0, ResultDesc: 'Accepted' }));
  const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });
  const SECRET = secret;
  const url = (kind: string) => `${address}/api/payments/mpesa/${kind}/${SECRET}`;
  const sent: Array<{ receipt: string }> = [];
  let next = 0;
  /** The i-th callback of a burst: mostly full payments, with replays, strangers, validations and STK results. */
  function callbackFor(i: number): { target: string; body: unknown } {
    const slot = i % 10;
    if (slot === 9 && sent.length > 0) {
      // A replay of a payment already delivered (Daraja repeats some): answered, never credited again.
      const earlier = sent[Math.floor(Math.random() * sent.length)]!;
      return { target: url('c2b/confirmation'), body: c2b('MCHX', 32_000, earlier.receipt) };
    }
    if (slot === 8) return { target: url('c2b/confirmation'), body: c2b(`UNKNOWN-${i}`, 5_000) };
    if (slot === 7) return { target: url('c2b/validation'), body: c2b(`MCH${ids[i % ids.length]}`, 32_000) };
    if (slot === 6 && next < prompts.length) {
      const orderId = prompts[next++]!;
      return {
        target: url('stk'),
        body: {
          Body: {
            stkCallback: {
              MerchantRequestID: `bench-${orderId}`,
              CheckoutRequestID: `ws_CO_bench_${orderId}`,
              ResultCode: 0,
              ResultDesc: 'The service request is processed successfully.',
              CallbackMetadata: {
                Item: [
                  { Name: 'Amount', Value: 32_000 },
                  { Name: 'MpesaReceiptNumber', Value: receipt() },
                  { Name: 'TransactionDate', Value: 20261123102115 },
                  { Name: 'PhoneNumber', Value: 254712345678 },
                ],
              },
            },
          },
        },
      };
    }
    const orderId = ids[(prompts.length + i * 7) % ids.length]!;
    return { target: url('c2b/confirmation'), body: c2b(`mch ${orderId}`, 32_000) };
  }

  async function post(target: string, body: unknown) {
    const started = performance.now();
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { ms: performance.now() - started, status: res.status, text };
  }

  // Warm both servers up.
  await Promise.all(Array.from({ length: CONCURRENT }, () => post(`${bareAddress}/bare`, {})));
  await Promise.all(
    Array.from({ length: 10 }, (_, i) => post(url('c2b/validation'), c2b(`MCH${ids[i]}`, 1))),
  );

  const bareMs: number[] = [];
  const appMs: number[] = [];
  let wrong = 0;
  const startedAt = Date.now();
  for (let round = 0; round < ROUNDS; round++) {
    const baseline = await Promise.all(
      Array.from({ length: CONCURRENT }, () => post(`${bareAddress}/bare`, {})),
    );
    bareMs.push(...baseline.map((b) => b.ms));
    const batch = Array.from({ length: CONCURRENT }, (_, i) => callbackFor(round * CONCURRENT + i));
    const answers = await Promise.all(batch.map((c) => post(c.target, c.body)));
    answers.forEach((a, i) => {
      appMs.push(a.ms);
      const body = batch[i]!.body as { TransID?: string };
      const isValidation = batch[i]!.target.includes('/validation/');
      if (a.status !== 200 || !a.text.includes('"ResultDesc"')) wrong += 1;
      if (!isValidation && body.TransID) sent.push({ receipt: body.TransID });
    });
  }
  const burstSeconds = (Date.now() - startedAt) / 1000;

  // Sustained: 50 connections for a few seconds, fresh full payments each.
  let sustainedIndex = 0;
  const sustained = await autocannon({
    url: url('c2b/confirmation'),
    connections: CONCURRENT,
    duration: SUSTAINED_S,
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify(c2b(`MCH${ids[sustainedIndex++ % ids.length]}`, 1_000)),
        }),
      },
    ],
  });

  await bare.close();
  const result: LoadResult = {
    appMs,
    bareMs,
    wrong,
    burstSeconds,
    sustained: {
      rps: sustained.requests.average,
      p50: sustained.latency.p50,
      p99: sustained.latency.p99,
      max: sustained.latency.max,
      non2xx: sustained.non2xx,
    },
  };
  process.stdout.write(JSON.stringify(result));
}

const loadArg = process.argv.indexOf('--load');
(loadArg > 0 ? load(process.argv[loadArg + 1]!) : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
