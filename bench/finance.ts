/**
 * Dashboards and finance at volume: seeds 1 M orders over two years (one load each, most delivered),
 * 1 M stock transactions (a DELIVERY per delivered load plus yard receipts) and 500 k costs into a fresh
 * PostgreSQL database, then times the admin dashboard, the driver dashboard and the finance calls through
 * the app (REST adapter → procedure → SQL) for 30- and 365-day ranges, against GET /api/health in the same
 * run as the baseline.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:finance
 * Budget: each dashboard and finance call ≤ 10 ms p95.
 */
import { loadavg } from 'node:os';
import postgres from 'postgres';
import { createLimiters } from '../core/auth/rate-limit';
import { signToken } from '../core/auth/tokens';
import { createDb } from '../drizzle/db';
import { buildApp } from '../server/app';
import { loadSettings } from '../shared/settings';
import { withDatabase } from '../test/global-db';
import { InProcessRunner } from '../worker/transport/in-process';
import { percentile } from './stats';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const STOCK_TX = Number(process.env.BENCH_STOCK_TX ?? 1_000_000);
const COSTS = Number(process.env.BENCH_COSTS ?? 500_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const DAYS = 730;
const FLEET = 40;
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = 'mchanga_bench_finance';

/**
 * Bulk load with row triggers and foreign-key checks off (session_replication_role = replica), then every
 * rollup is rebuilt once from the raw rows by its `*_rebuild()` function. Orders are spread evenly over
 * the last two years, the newest last; the newest day's are still open (awaiting payment, in review,
 * received with a scheduled load, or on the road), 2 % of the rest were cancelled, the others delivered.
 */
async function seed(sql: postgres.Sql) {
  const step = (DAYS * 86_400) / ORDERS; // seconds between orders
  const openFrom = ORDERS - Math.round(86_400 / step);
  await sql.begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`insert into drivers (id, name) select 'D' || g, 'Driver ' || g from generate_series(1, ${FLEET}) g`;
    await tx`insert into trucks (id, plate, primary_driver_id) select 'T' || g, 'KC' || g, 'D' || g from generate_series(1, ${FLEET}) g`;
    await tx`insert into users (id, name, email, role, password_hash) values (1, 'Bench Admin', 'bench@example.co.ke', 'ADMIN', 'x')`;
    await tx`select setval('users_id_seq', 1)`;
    await tx`
      insert into orders (id, name, site, sand_type, trucks, per_truck_cents, total_cents, distance_km, distance_source, status, payment_status, created_at)
      select g, 'Customer ' || g, 'Site ' || (g % 500), case when g % 3 = 0 then 'smooth' else 'coarse' end, 1,
             3200000 + (g % 20) * 100000, 3200000 + (g % 20) * 100000, 10 + (g % 60), 'heuristic',
             case when g > ${openFrom} then (array['AWAITING_PAYMENT','PAYMENT_REVIEW','RECEIVED','IN_TRANSIT'])[1 + g % 4]
                  when g % 50 = 0 then 'CANCELLED' else 'DELIVERED' end,
             case when g > ${openFrom} and g % 4 < 2 then 'PENDING' else 'CONFIRMED' end,
             now() - make_interval(secs => (${ORDERS} - g) * ${step}::float8)
      from generate_series(1, ${ORDERS}) g`;
    await tx`select setval('orders_id_seq', ${ORDERS})`;
    await tx`
      insert into assignments (id, order_id, truck_id, driver_id, tonnes, status, scheduled_at, in_transit_at, delivered_at, cancelled_at, created_at)
      select o.id, o.id, 'T' || (1 + o.id % ${FLEET}), 'D' || (1 + (o.id / 7) % ${FLEET}),
             case when o.id % 10 = 0 then 18 else 20 end,
             case o.status when 'DELIVERED' then 'DELIVERED' when 'CANCELLED' then 'CANCELLED'
                           when 'IN_TRANSIT' then 'IN_TRANSIT' else 'SCHEDULED' end,
             o.created_at + interval '1 hour',
             case when o.status in ('DELIVERED', 'IN_TRANSIT') then o.created_at + interval '2 hours' end,
             case when o.status = 'DELIVERED' then o.created_at + interval '3 hours' end,
             case when o.status = 'CANCELLED' then o.created_at + interval '2 hours' end,
             o.created_at
      from orders o where o.status in ('DELIVERED', 'CANCELLED', 'IN_TRANSIT', 'RECEIVED')`;
    await tx`select setval('assignments_id_seq', (select max(id) from assignments))`;
    await tx`
      insert into stock_transactions (kind, trucks, tonnes, category, truck_id, reason, assignment_id, created_by_id, created_at)
      select 'DELIVERY', -a.tonnes / 20, -a.tonnes, o.sand_type, a.truck_id, 'Delivered to order #' || o.id, a.id, 1, a.delivered_at
      from assignments a join orders o on o.id = a.order_id where a.status = 'DELIVERED'`;
    const [loaded] = await tx<{ n: number }[]>`select count(*)::int as n from stock_transactions`;
    const receipts = Math.max(1, STOCK_TX - loaded!.n);
    await tx`
      insert into stock_transactions (kind, trucks, tonnes, category, truck_id, reason, cost_per_tonne_cents, created_by_id, created_at)
      select 'RECEIPT', 45, 900, case when g % 3 = 0 then 'smooth' else 'coarse' end, 'T' || (1 + g % ${FLEET}),
             'Yard receipt', 120000, 1, now() - make_interval(secs => g * ${(DAYS * 86_400) / receipts}::float8)
      from generate_series(1, ${receipts}) g`;
    await tx`
      insert into costs (type, truck_id, amount_cents, description, incurred_at, created_by_id, voided_at)
      select (array['FUEL','SALARY','REPAIR','MAINTENANCE','LOADING','OFFLOADING','STOCK_PURCHASE','OTHER'])[1 + g % 8],
             case when g % 8 = 1 then null else 'T' || (1 + g % ${FLEET}) end,
             50000 + (g % 1000) * 100, 'Cost ' || g, now() - make_interval(secs => g * ${(DAYS * 86_400) / COSTS}::float8), 1,
             case when g % 100 = 0 then now() end
      from generate_series(1, ${COSTS}) g`;
  });
  const rebuilds = await sql<{ name: string }[]>`
    select proname as name from pg_proc
    where proname like '%\\_rebuild' and pronamespace = 'public'::regnamespace order by proname`;
  for (const { name } of rebuilds) await sql.unsafe(`select ${name}()`);
  await sql`vacuum analyze`;
  return rebuilds.map((r) => r.name);
}

/** The database a BENCH_KEEP run left, when it holds the volumes asked for (then it is not seeded again). */
async function kept(url: string) {
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  const [found] = await admin<
    { n: number }[]
  >`select count(*)::int as n from pg_database where datname = ${dbName}`;
  await admin.end();
  if (!found?.n) return false;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [counts] = await sql<{ orders: number; costs: number }[]>`
      select (select count(*) from orders)::int as orders, (select count(*) from costs)::int as costs`;
    return counts?.orders === ORDERS && counts.costs === COSTS;
  } catch {
    return false;
  } finally {
    await sql.end();
  }
}

async function main() {
  const url = withDatabase(base, dbName);
  const reuse = !!process.env.BENCH_KEEP && (await kept(url));
  if (!reuse) {
    const admin = postgres(base, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.unsafe(`create database ${dbName}`);
    await admin.end();
  }
  const database = await createDb({ databaseUrl: url });
  // Seeding runs statements of minutes: this one session lifts the app's 15 s default (a role setting).
  const sql = postgres(url, { max: 1, onnotice: () => {}, idle_timeout: 0, max_lifetime: null });
  await sql`set statement_timeout = 0`;

  const t0 = Date.now();
  const rebuilt = reuse ? [] : await seed(sql);
  // A kept database may predate a migration that added a rollup: every rollup is rebuilt once more.
  if (reuse) {
    for (const { name } of await sql<{ name: string }[]>`
      select proname as name from pg_proc
      where proname like '%\\_rebuild' and pronamespace = 'public'::regnamespace order by proname`) {
      await sql.unsafe(`select ${name}()`);
      rebuilt.push(name);
    }
    await sql`vacuum analyze`;
  }
  const [counts] = await sql<{ orders: number; loads: number; stock: number; costs: number }[]>`
    select (select count(*) from orders)::int as orders, (select count(*) from assignments)::int as loads,
           (select count(*) from stock_transactions)::int as stock, (select count(*) from costs)::int as costs`;
  console.log(
    `${reuse ? 'kept' : 'seeded'} ${counts!.orders} orders, ${counts!.loads} loads, ${counts!.stock} stock transactions and ${counts!.costs} costs in ${((Date.now() - t0) / 1000).toFixed(1)} s (rebuilt: ${rebuilt.join(', ')})`,
  );

  const settings = loadSettings({
    ...process.env,
    DATABASE_URL: url,
    REDIS_URL: undefined,
    JWT_SECRET: 'x'.repeat(48),
    DATA_DIR: '/tmp/mchanga-bench',
  });
  const jobs = new InProcessRunner({ database, settings, llm: null, now: () => new Date(), log: console });
  const app = await buildApp({
    database,
    settings,
    jobs,
    llm: null,
    limiters: createLimiters(),
    log: console,
  });
  const token = await signToken({ userId: 1, role: 'ADMIN', version: 0 }, settings.jwtSecret, '1h');
  const headers = { authorization: `Bearer ${token}` };

  const today = new Date().toISOString().slice(0, 10);
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  const range = (days: number) => `from=${daysAgo(days - 1)}&to=${today}`;
  const calls: Array<[string, string]> = [
    ['health (baseline)', '/api/health'],
    ['admin dashboard', '/api/admin/dashboard'],
    ['driver dashboard', '/api/driver/dashboard?driverId=D7'],
    ['cost-mix 30 d', `/api/admin/finance/cost-mix?${range(30)}`],
    ['cost-mix 365 d', `/api/admin/finance/cost-mix?${range(365)}`],
    ['summary 30 d', `/api/admin/finance/summary?${range(30)}`],
    ['timeseries 30 d', `/api/admin/finance/timeseries?${range(30)}`],
    ['truck-breakdown 30 d', `/api/admin/finance/truck-breakdown?${range(30)}`],
    ['summary 365 d', `/api/admin/finance/summary?${range(365)}`],
    ['timeseries 365 d', `/api/admin/finance/timeseries?${range(365)}`],
    ['truck-breakdown 365 d', `/api/admin/finance/truck-breakdown?${range(365)}`],
  ];
  // Interleaved rounds (every call once per round), so a busy moment of the machine weighs on every call
  // alike and the health baseline stays comparable.
  const times = calls.map(() => [] as number[]);
  for (let round = 0; round < RUNS + 20; round++) {
    for (const [i, [, path]] of calls.entries()) {
      const start = process.hrtime.bigint();
      const res = await app.inject({ url: path, headers });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (res.statusCode !== 200) throw new Error(`${path} → ${res.statusCode} ${res.body}`);
      if (round >= 20) times[i]!.push(ms);
    }
  }
  const sorted = times.map((t) => t.sort((a, b) => a - b));
  const load = loadavg().map((n) => n.toFixed(1));
  console.log(`${RUNS} interleaved rounds; machine load average ${load.join(' / ')} (1 / 5 / 15 min)`);
  const baselineP95 = percentile(sorted[0]!, 95);
  for (const [i, [name]] of calls.entries()) {
    const p95 = percentile(sorted[i]!, 95);
    const verdict = i === 0 ? '' : p95 <= 10 ? 'within the 10 ms budget' : 'OVER the 10 ms budget';
    console.log(
      `${name.padEnd(24)} p50 ${percentile(sorted[i]!, 50).toFixed(2).padStart(7)} ms  p95 ${p95.toFixed(2).padStart(7)} ms  (${(p95 / baselineP95).toFixed(1)}× health)  ${verdict}`,
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
