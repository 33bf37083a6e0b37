/**
 * Positions at scale (issue 26): fills a fresh PostgreSQL database with SOAK_DAYS of GPS fixes for 50 trucks
 * (one every SOAK_INTERVAL_S seconds; monthly partitions, the odometer and the day rollups as the worker keeps
 * them), fuel logs every 2 days per truck and two delivered loads per truck a day with their yard exit and entry
 * and the per-trip rollups (trip_km; trip_facts, kept by its triggers as they are written), then times through the app (REST → procedure → SQL): the fuel-log save, the
 * fleet map, the driver dashboard and the trip views (cycle times, trip profit) (p50/p95), the fill-history query
 * the save used to run on raw fixes (before); then, per call, every statement the app sent replayed under
 * EXPLAIN (ANALYZE, BUFFERS) in a rolled-back transaction: the server-side execution time and the buffers a call
 * touches, which the machine's load inflates far less than the wall-clock p95s. Then EXPLAIN buffers of the
 * odometer probe, and the database size before and after the positions job drops months past
 * POSITION_RETENTION_DAYS, with the rollups (truck_days, trip_km) the same after.
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:positions
 * Defaults (200 days, a fix every 300 s: 2.9 M fixes, ~1 GB) keep a run to a few minutes on a shared machine;
 * a year at 5 s is 315 M rows: the probes are index look-ups, so their buffers (printed) stay the same.
 */
import { cpus, loadavg } from 'node:os';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { createLimiters } from '../core/auth/rate-limit';
import { signToken } from '../core/auth/tokens';
import { maintainPositions } from '../core/telemetry/positions';
import { createDb, type Database } from '../drizzle/db';
import * as schema from '../drizzle/schema';
import { buildApp } from '../server/app';
import { loadSettings } from '../shared/settings';
import { withDatabase } from '../test/global-db';
import { InProcessRunner } from '../worker/transport/in-process';
import { percentile } from './stats';

const TRUCKS = 50;
const DAYS = Number(process.env.SOAK_DAYS ?? 200);
const INTERVAL_S = Number(process.env.SOAK_INTERVAL_S ?? 300);
const RUNS = Number(process.env.SOAK_RUNS ?? 100);
const EXPLAIN_RUNS = Number(process.env.SOAK_EXPLAIN_RUNS ?? 20);
const base = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = 'mchanga_bench_positions';
// Each step moves 0.001° of latitude up or down a 200-step shuttle: exactly 0.1112 km a segment.
const STEP_KM = (6371 * Math.PI * 0.001) / 180;

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

async function seed(sql: postgres.Sql) {
  const perTruck = Math.floor((DAYS * 86_400) / INTERVAL_S);
  await sql`insert into drivers (id, name) select 'D' || g, 'Driver ' || g from generate_series(1, ${TRUCKS}) g`;
  await sql`insert into trucks (id, plate, primary_driver_id, device_id, tank_capacity_l)
            select 'T' || g, 'KS' || g, 'D' || g, 'dev-' || g, 400 from generate_series(1, ${TRUCKS}) g`;
  await sql`insert into users (id, name, email, role, password_hash) values (1, 'Soak Admin', 'soak@example.co.ke', 'ADMIN', 'x')`;
  await sql`select setval('users_id_seq', 1)`;
  await sql`select truck_positions_partition(m) from generate_series(now() - make_interval(days => ${DAYS + 31}), now() + interval '2 months', interval '1 month') m`;
  // One truck at a time, oldest first (as trackers report): the odometer is i × STEP_KM.
  for (let t = 1; t <= TRUCKS; t++) {
    await sql`
      insert into truck_positions (device_id, fix_time, truck_id, lat, lng, speed_kmh, cum_km, received_at)
      select 'dev-' || ${t}, now() - make_interval(secs => (${perTruck} - i) * ${INTERVAL_S}::float8), 'T' || ${t},
             -1.1 + 0.001 * (case when i % 400 < 200 then i % 400 else 400 - i % 400 end), 37 + ${t} * 0.01,
             case when i % 5 = 0 then 0 else 40 end, i * ${STEP_KM}::float8, now()
      from generate_series(0, ${perTruck - 1}) i`;
  }
  await sql`insert into truck_days (truck_id, day, km, fixes, moving_fixes, first_fix_at, last_fix_at, max_speed_kmh)
    select truck_id, (fix_time at time zone 'Africa/Nairobi')::date, coalesce(sum(cum_km - prev_cum), 0), count(*)::int,
      (count(*) filter (where speed_kmh > 5))::int, min(fix_time), max(fix_time), max(speed_kmh)
    from (select truck_id, fix_time, speed_kmh, cum_km, lag(cum_km) over (partition by truck_id order by fix_time, device_id) as prev_cum
          from truck_positions) p group by 1, 2`;
  await sql`insert into truck_latest (truck_id, lat, lng, speed_kmh, status, fix_time, last_moved_at, last_seen_at)
    select distinct on (truck_id) truck_id, lat, lng, speed_kmh, 'moving', fix_time, fix_time, fix_time
    from truck_positions order by truck_id, fix_time desc`;
  await sql`insert into fuel_logs (truck_id, litres, odometer, cost_cents, captured_at, created_by_id, gps_km)
    select 'T' || t, 120, 10000 + d * 200, 2040000, now() - make_interval(days => ${DAYS} - d) + interval '1 hour', 1,
           case when d > 0 then 190 end
    from generate_series(1, ${TRUCKS}) t, generate_series(0, ${DAYS - 1}, 2) d`;
  await sql`insert into orders (id, name, site, sand_type, trucks, per_truck_cents, total_cents, distance_km, distance_source, status, payment_status, created_at)
    select g, 'Customer ' || g, 'Site ' || (g % 300), 'coarse', 1, 3200000, 3200000, 20, 'heuristic', 'DELIVERED', 'CONFIRMED',
           now() - make_interval(hours => g / ${TRUCKS * 2} * 24 + 8)
    from generate_series(1, ${TRUCKS * 2 * DAYS}) g`;
  await sql`select setval('orders_id_seq', ${TRUCKS * 2 * DAYS})`;
  await sql`insert into assignments (id, order_id, truck_id, driver_id, tonnes, status, scheduled_at, in_transit_at, arrived_at, delivered_at, created_at)
    select o.id, o.id, 'T' || (1 + o.id % ${TRUCKS}), 'D' || (1 + o.id % ${TRUCKS}), 20, 'DELIVERED', o.created_at,
           o.created_at + interval '30 minutes', o.created_at + interval '90 minutes', o.created_at + interval '2 hours', o.created_at
    from orders o`;
  await sql`select setval('assignments_id_seq', (select max(id) from assignments))`;
  // Each load's yard exit and entry (the truck's two loads of a day 4 hours apart), and its trip rollup as
  // the geofence step writes it: the odometer between the two.
  await sql`insert into geofence_events (truck_id, kind, order_id, assignment_id, at, confirmed_at, lat, lng)
    select a.truck_id, k.kind, a.order_id, a.id, k.at, k.at, -1.1, 37
    from assignments a cross join lateral (values
      ('YARD_EXIT', a.in_transit_at + (a.id / ${TRUCKS} % 2) * interval '4 hours'),
      ('YARD_ENTRY', a.delivered_at + interval '40 minutes' + (a.id / ${TRUCKS} % 2) * interval '4 hours')) k(kind, at)`;
  await sql`insert into trip_km (assignment_id, truck_id, yard_exit_at, yard_entry_at, km)
    select w.assignment_id, w.truck_id, w.yard_exit, w.yard_entry,
      (select case when f.fix_time < l.fix_time then greatest(l.cum_km - f.cum_km, 0) end from (select 1) one
       left join lateral (select fix_time, cum_km from truck_positions p where p.truck_id = w.truck_id
         and p.fix_time >= w.yard_exit and p.fix_time <= w.yard_entry order by p.fix_time, p.device_id limit 1) f on true
       left join lateral (select fix_time, cum_km from truck_positions p where p.truck_id = w.truck_id
         and p.fix_time >= w.yard_exit and p.fix_time <= w.yard_entry order by p.fix_time desc, p.device_id desc limit 1) l on true)
    from (select a.id as assignment_id, a.truck_id,
            min(g.at) filter (where g.kind = 'YARD_EXIT') as yard_exit, min(g.at) filter (where g.kind = 'YARD_ENTRY') as yard_entry
          from assignments a join geofence_events g on g.assignment_id = a.id group by 1, 2) w`;
  await sql`vacuum analyze`;
}

async function main() {
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  // SOAK_KEEP=1: time again on the database a previous run filled (and already cut by retention).
  const keep =
    process.env.SOAK_KEEP === '1' &&
    (await admin`select 1 from pg_database where datname = ${dbName}`).length > 0;
  if (!keep) {
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.unsafe(`create database ${dbName}`);
  }
  await admin.end();
  const url = withDatabase(base, dbName);
  const database = await createDb({ databaseUrl: url });
  // Seeding runs statements of minutes: this one session lifts the app's 15 s default (a role setting).
  const sql = postgres(url, { max: 1, onnotice: () => {}, idle_timeout: 0, max_lifetime: null });
  await sql`set statement_timeout = 0`;
  const t0 = Date.now();
  if (!keep) await seed(sql);
  const [n] = await sql<{ fixes: number; days: number; logs: number; loads: number }[]>`
    select (select count(*) from truck_positions)::int as fixes, (select count(*) from truck_days)::int as days,
           (select count(*) from fuel_logs)::int as logs, (select count(*) from assignments)::int as loads`;
  const size = async () =>
    (await sql<{ b: string }[]>`select pg_database_size(current_database())::text as b`)[0]!.b;
  const positionsSize = async () =>
    (
      await sql<
        { b: string }[]
      >`select coalesce(sum(pg_total_relation_size(c.oid)), 0)::text as b from pg_inherits i
      join pg_class c on c.oid = i.inhrelid where i.inhparent = 'truck_positions'::regclass`
    )[0]!.b;
  console.log(
    `${keep ? 'kept' : 'seeded'} ${n!.fixes.toLocaleString()} fixes (${keep ? `${TRUCKS} trucks, as a previous run left them` : `${TRUCKS} trucks × ${DAYS} days, every ${INTERVAL_S} s`}), ${n!.days} truck-days, ${n!.logs} fuel logs, ${n!.loads} loads in ${((Date.now() - t0) / 1000).toFixed(0)} s; database ${mb(Number(await size()))}, positions ${mb(Number(await positionsSize()))}`,
  );

  const settings = loadSettings({
    ...process.env,
    DATABASE_URL: url,
    REDIS_URL: undefined,
    JWT_SECRET: 'x'.repeat(48),
    DATA_DIR: '/tmp/mchanga-bench-positions',
  });
  // The app's pool as createDb makes it, plus a hook that keeps every statement a call sends (for EXPLAIN).
  let captured: Array<{ query: string; params: unknown[] }> | null = null;
  const appClient = postgres(url, {
    max: 10,
    onnotice: () => {},
    debug: (_conn, query, params) => {
      if (captured && /^\s*(select|with|insert|update|delete)\b/i.test(query))
        captured.push({ query, params: [...params] });
    },
  });
  const appDatabase: Database = { ...database, db: drizzle(appClient, { schema }) as Database['db'] };
  const jobs = new InProcessRunner({
    database: appDatabase,
    settings,
    llm: null,
    now: () => new Date(),
    log: console,
  });
  const app = await buildApp({
    database: appDatabase,
    settings,
    jobs,
    llm: null,
    limiters: createLimiters(),
    log: console,
  });
  const token = await signToken({ userId: 1, role: 'ADMIN', version: 0 }, settings.jwtSecret, '1h');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  // Before: the fill history the save used to read, over raw fixes since the truck's 21st-last log.
  const oldHistory = (truck: string) => sql`
    with logs as (select id, litres::float8 as litres, captured_at, lag(captured_at) over (order by captured_at, id) as prev_at
                  from fuel_logs where truck_id = ${truck} and voided_at is null order by captured_at desc, id desc limit 20)
    select l.id, k.km from logs l cross join lateral (
      select sum(2 * 6371 * asin(sqrt(power(sin(radians(p.lat - p.prev_lat) / 2), 2)
        + cos(radians(p.prev_lat)) * cos(radians(p.lat)) * power(sin(radians(p.lng - p.prev_lng) / 2), 2)))) as km
      from (select lat, lng, lag(lat) over w as prev_lat, lag(lng) over w as prev_lng from truck_positions
            where truck_id = ${truck} and fix_time >= l.prev_at and fix_time <= l.captured_at window w as (order by fix_time)) p) k
    where l.prev_at is not null`;

  const day = (offset: number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone: 'Africa/Nairobi' }).format(
      new Date(Date.now() + offset * 86_400_000),
    );
  const load = () =>
    loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ');
  const runCents = (1 + (Date.now() % 99)) / 100;
  // Above every odometer stored (a kept database has the previous run's saves: they would be duplicates).
  let odometer =
    1_000_000 +
    Number((await sql<{ m: number }[]>`select coalesce(max(odometer), 0)::int as m from fuel_logs`)[0]!.m);
  const calls: Array<[string, () => Promise<number>]> = [
    ['health (baseline)', async () => (await app.inject({ url: '/api/health' })).statusCode],
    [
      'fuel-log save',
      async () => {
        const t = 1 + (odometer % TRUCKS);
        odometer += 37;
        const res = await app.inject({
          method: 'POST',
          url: '/api/fuel/logs',
          headers,
          payload: {
            truckId: `T${t}`,
            litres: 100 + (odometer % 50),
            odometer,
            // Cents of this run's own (a kept database's earlier saves within 6 h would be duplicates).
            cost: 17_000 + (odometer % 900) + runCents,
          },
        });
        return res.statusCode === 201 ? 200 : res.statusCode;
      },
    ],
    ['fleet map', async () => (await app.inject({ url: '/api/telemetry/trucks', headers })).statusCode],
    [
      'driver dashboard',
      async () => (await app.inject({ url: '/api/driver/dashboard?driverId=D7', headers })).statusCode,
    ],
    ['trips 7 d', async () => (await app.inject({ url: '/api/admin/trips?days=7', headers })).statusCode],
    ['trips 30 d', async () => (await app.inject({ url: '/api/admin/trips?days=30', headers })).statusCode],
    [
      'trip profit 7 d',
      async () =>
        (await app.inject({ url: `/api/admin/finance/trips?from=${day(-7)}&to=${day(-1)}`, headers }))
          .statusCode,
    ],
    [
      'trip profit 30 d (default)',
      async () => (await app.inject({ url: '/api/admin/finance/trips', headers })).statusCode,
    ],
    [
      'fill history on raw fixes (before)',
      async () => {
        await oldHistory(`T${1 + (odometer++ % TRUCKS)}`);
        return 200;
      },
    ],
  ];
  const times = calls.map(() => [] as number[]);
  console.log(`load average before the rounds ${load()} (1 / 5 / 15 min; ${cpus().length} cores)`);
  for (let round = 0; round < RUNS + 5; round++) {
    for (const [i, [name, call]] of calls.entries()) {
      const start = process.hrtime.bigint();
      const status = await call();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (status !== 200) throw new Error(`${name} → ${status}`);
      if (round >= 5) times[i]!.push(ms);
    }
  }
  console.log(`${RUNS} interleaved rounds; load average after ${load()}`);
  for (const [i, [name]] of calls.entries()) {
    const s = times[i]!.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(36)} p50 ${percentile(s, 50).toFixed(1).padStart(7)} ms   p95 ${percentile(s, 95).toFixed(1).padStart(7)} ms`,
    );
  }

  // Server-side cost per call: each statement a call sent, replayed under EXPLAIN ANALYZE in a transaction
  // that is rolled back (a write replays as a write, then is undone; one that fails, e.g. on a unique key
  // the original already took, is counted and skipped).
  type Plan = { 'Execution Time': number; 'Planning Time': number; Plan: Record<string, number> };
  const explainCall = async (query: string, params: unknown[], r: postgres.ReservedSql) => {
    await r.unsafe('savepoint s');
    try {
      const [row] = await r.unsafe(`explain (analyze, buffers, format json) ${query}`, params as never[]);
      await r.unsafe('release savepoint s');
      return (row as Record<string, Plan[]>)['QUERY PLAN']![0]!;
    } catch {
      await r.unsafe('rollback to savepoint s');
      return null;
    }
  };
  console.log(
    `per call, server side (${EXPLAIN_RUNS} calls each, every statement under EXPLAIN ANALYZE, BUFFERS): execution ms p50 / p95, statements, shared buffers hit + read`,
  );
  for (const [name, call] of calls) {
    if (name.startsWith('health') || name.includes('(before)')) continue;
    const exec: number[] = [];
    let statements = 0;
    let hit = 0;
    let read = 0;
    let skipped = 0;
    for (let i = 0; i < EXPLAIN_RUNS; i++) {
      captured = [];
      await call();
      const list: Array<{ query: string; params: unknown[] }> = captured;
      captured = null;
      const r = await sql.reserve();
      try {
        await r.unsafe('begin');
        await r.unsafe('set local statement_timeout = 0');
        let ms = 0;
        for (const q of list) {
          const plan = await explainCall(q.query, q.params, r);
          if (!plan) {
            skipped++;
            continue;
          }
          ms += plan['Execution Time'];
          hit += plan.Plan['Shared Hit Blocks'] ?? 0;
          read += plan.Plan['Shared Read Blocks'] ?? 0;
        }
        exec.push(ms);
        statements += list.length;
      } finally {
        await r.unsafe('rollback');
        r.release();
      }
    }
    const e = exec.sort((a, b) => a - b);
    console.log(
      `  ${name.padEnd(36)} ${percentile(e, 50).toFixed(2).padStart(7)} / ${percentile(e, 95).toFixed(2).padStart(7)} ms   ${(statements / EXPLAIN_RUNS).toFixed(1)} statements   ${Math.round(hit / EXPLAIN_RUNS)} hit + ${Math.round(read / EXPLAIN_RUNS)} read buffers${skipped ? `   (${skipped} statements not replayable)` : ''}`,
    );
  }

  const plan = await sql.unsafe(`explain (analyze, buffers, costs off) select cum_km from truck_positions
    where truck_id = 'T7' and fix_time <= now() - interval '3 days' order by fix_time desc, device_id desc limit 1`);
  console.log('odometer probe:');
  for (const row of plan) console.log(`  ${(row as Record<string, string>)['QUERY PLAN']}`);

  const dayKm = await sql<
    { km: number }[]
  >`select sum(km)::float8 as km from truck_days where truck_id = 'T7'`;
  const tripSum = async () =>
    (
      await sql<
        { n: number; km: number }[]
      >`select count(km)::int as n, coalesce(sum(km), 0)::float8 as km from trip_km`
    )[0]!;
  const tripsBefore = await tripSum();
  const beforeSize = Number(await size());
  const dropped = await maintainPositions({ db: database.db, now: () => new Date(), settings, log: console });
  await sql`vacuum`;
  const dayKmAfter = await sql<
    { km: number }[]
  >`select sum(km)::float8 as km from truck_days where truck_id = 'T7'`;
  console.log(
    `retention ${settings.positionRetentionDays} d: dropped ${dropped.dropped.length} month(s) (${dropped.dropped.join(', ') || 'none'}); database ${mb(beforeSize)} → ${mb(Number(await size()))}, positions now ${mb(Number(await positionsSize()))}; T7's rolled-up km ${dayKm[0]!.km.toFixed(3)} → ${dayKmAfter[0]!.km.toFixed(3)}`,
  );
  const tripsAfter = await tripSum();
  console.log(
    `trip_km: ${tripsBefore.n} trips with GPS km, ${tripsBefore.km.toFixed(3)} km → after retention ${tripsAfter.n}, ${tripsAfter.km.toFixed(3)} km`,
  );
  await app.close();
  await jobs.close();
  await appClient.end();
  await sql.end();
  await database.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
