/**
 * Finance at volume: seeds 1 M orders (each with a delivered load) and 500 k costs into a fresh
 * PostgreSQL database, then times the three finance calls through the app (REST adapter → procedure →
 * SQL) for a 30-day and a 365-day range, against GET /api/health in the same run as the baseline.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:finance
 * Budget: each finance call ≤ 10 ms p95.
 */
import postgres from 'postgres';
import { createDb } from '../drizzle/db';
import { buildApp } from '../server/app';
import { createLimiters } from '../server/auth/rate-limit';
import { signToken } from '../server/auth/tokens';
import { loadConfig } from '../server/config';
import { withDatabase } from '../test/global-db';
import { createHandlers } from '../worker/handlers';
import { InProcessRunner } from '../worker/transport/in-process';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const COSTS = Number(process.env.BENCH_COSTS ?? 500_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = 'mchanga_bench_finance';

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main() {
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${dbName} with (force)`);
  await admin.unsafe(`create database ${dbName}`);
  await admin.end();
  const url = withDatabase(base, dbName);
  const database = await createDb({ databaseUrl: url });
  const sql = postgres(url, { max: 1, onnotice: () => {} });

  const t0 = Date.now();
  // Bulk load with row triggers off, then rebuild the rollup once from the raw rows.
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`insert into drivers (id, name) select 'D' || g, 'Driver ' || g from generate_series(1, 40) g`;
    await tx`insert into trucks (id, plate, primary_driver_id) select 'T' || g, 'KC' || g, 'D' || g from generate_series(1, 40) g`;
    await tx`insert into users (id, name, email, role, password_hash) values (1, 'Bench Admin', 'bench@example.co.ke', 'ADMIN', 'x')`;
    await tx`
      insert into orders (id, name, site, sand_type, trucks, per_truck_cents, total_cents, distance_km, distance_source, status, payment_status, created_at)
      select g, 'Customer ' || g, 'Site ' || (g % 500), case when g % 3 = 0 then 'smooth' else 'coarse' end, 1,
             3200000 + (g % 20) * 100000, 3200000 + (g % 20) * 100000, 10 + (g % 60), 'heuristic', 'DELIVERED', 'CONFIRMED',
             now() - ((g % 365) || ' days')::interval - ((g % 1440) || ' minutes')::interval
      from generate_series(1, ${ORDERS}) g`;
    await tx`select setval('orders_id_seq', ${ORDERS})`;
    await tx`
      insert into assignments (order_id, truck_id, driver_id, tonnes, status, delivered_at)
      select id, 'T' || (1 + id % 40), 'D' || (1 + id % 40), 20, 'DELIVERED', created_at + interval '3 hours' from orders`;
    await tx`
      insert into costs (type, truck_id, amount_cents, description, incurred_at, created_by_id)
      select (array['FUEL','SALARY','REPAIR','MAINTENANCE','LOADING','OFFLOADING','OTHER'])[1 + g % 7], 'T' || (1 + g % 40),
             50000 + (g % 1000) * 100, 'Cost ' || g, now() - ((g % 365) || ' days')::interval, 1
      from generate_series(1, ${COSTS}) g`;
  });
  await sql`select finance_rebuild()`;
  await sql`analyze`;
  const seeded = await sql`select count(*)::int as n from finance_daily`;
  console.log(
    `seeded ${ORDERS} orders + loads and ${COSTS} costs in ${((Date.now() - t0) / 1000).toFixed(1)} s (${seeded[0]!.n} rollup rows)`,
  );

  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    REDIS_URL: undefined,
    JWT_SECRET: 'x'.repeat(48),
    DATA_DIR: '/tmp/mchanga-bench',
  });
  const jobs = new InProcessRunner(createHandlers({ database }));
  const app = await buildApp({ database, config, jobs, limiters: createLimiters(), log: console });
  const token = await signToken({ userId: 1, role: 'ADMIN', version: 0 }, config.jwtSecret, '1h');
  const headers = { authorization: `Bearer ${token}` };

  const today = new Date().toISOString().slice(0, 10);
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const calls: Array<[string, string]> = [
    ['health (baseline)', '/api/health'],
    ['summary 30 d', `/api/admin/finance/summary?from=${daysAgo(29)}&to=${today}`],
    ['timeseries 30 d', `/api/admin/finance/timeseries?from=${daysAgo(29)}&to=${today}`],
    ['truck-breakdown 30 d', `/api/admin/finance/truck-breakdown?from=${daysAgo(29)}&to=${today}`],
    ['summary 365 d', `/api/admin/finance/summary?from=${daysAgo(364)}&to=${today}`],
    ['timeseries 365 d', `/api/admin/finance/timeseries?from=${daysAgo(364)}&to=${today}`],
    ['truck-breakdown 365 d', `/api/admin/finance/truck-breakdown?from=${daysAgo(364)}&to=${today}`],
  ];
  let baselineP95 = 0;
  for (const [name, url] of calls) {
    const times: number[] = [];
    for (let i = 0; i < RUNS + 20; i++) {
      const start = process.hrtime.bigint();
      const res = await app.inject({ url, headers });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (res.statusCode !== 200) throw new Error(`${url} → ${res.statusCode} ${res.body}`);
      if (i >= 20) times.push(ms);
    }
    times.sort((a, b) => a - b);
    const p95 = percentile(times, 95);
    if (name.startsWith('health')) baselineP95 = p95;
    console.log(
      `${name.padEnd(24)} p50 ${percentile(times, 50).toFixed(2)} ms  p95 ${p95.toFixed(2)} ms  (${(p95 / baselineP95).toFixed(1)}× health)  ${p95 <= 10 ? 'within' : 'OVER'} the 10 ms budget`,
    );
  }

  await app.close();
  await jobs.close();
  await database.close();
  await sql.end();
  if (!process.env.BENCH_KEEP) {
    const cleanup = postgres(base, { max: 1, onnotice: () => {} });
    await cleanup.unsafe(`drop database if exists ${dbName} with (force)`);
    await cleanup.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
