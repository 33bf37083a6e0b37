/**
 * The REST hot path against a bare Fastify route of the same run: POST /api/pricing/quote,
 * GET /api/pricing and GET /api/health of the real server (`server/main.ts`, its own process) next to a
 * bare route answering a constant (another process), loaded by autocannon from this one: 50 connections,
 * 10 s each, in services mode (PostgreSQL + Redis on this machine) and in the embedded default (PGlite).
 *   npm run bench:quote                      both modes (services needs PostgreSQL and Redis here)
 *   npm run bench:quote -- embedded          one mode
 *   npm run bench:quote -- services --profile   a CPU profile of the quote under load: top five self time
 *     (BENCH_PROFILE_DIR=dir keeps the .cpuprofile there, for Chrome DevTools)
 * Budget: the quote and GET /api/pricing ≥ 0.45× the bare route, p99 ≤ 15 ms (services mode), judged on
 * the median of BENCH_ROUNDS (3) pairs of bare route then call.
 * Then, in each mode, the server's responsiveness while an admin dashboard reloads in a loop: GET
 * /api/health idle, and again while one client reloads GET /api/admin/dashboard back to back on a small
 * seeded business (budget in embedded mode, where PGlite runs in a worker thread: ≥ 0.5× idle).
 * BENCH_SECONDS and BENCH_CONNECTIONS change the load. Exits 1 when a budget is missed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CONNECTIONS,
  fmt,
  type Load,
  load,
  type Mode,
  SECONDS,
  signInAdmin,
  startBare,
  startServer,
  topSelfTime,
} from './harness';
import { median } from './stats';

const RATIO_BUDGET = 0.45;
/** Pairs of (bare route, call) per budgeted call; the median pair's ratio is judged. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const P99_BUDGET_MS = 15;
/** /api/health while a dashboard reloads in a loop, as a share of its idle throughput (embedded mode). */
const DASHBOARD_BUDGET = 0.5;
let failed = false;

interface Pair {
  bare: Load;
  call: Load;
}

/** A small business through the API, so the admin dashboard has stock, orders and loads to sum. */
async function seed(url: string, admin: Record<string, string>) {
  const call = async (method: string, path: string, body?: unknown, headers = admin) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  for (const i of [1, 2, 3]) {
    await call('POST', '/api/admin/drivers', {
      id: `QD${i}`,
      name: `Driver ${i}`,
      email: `qd${i}@bench.test`,
      phone: '0722 333 444',
    });
    await call('POST', '/api/admin/trucks', {
      id: `QT${i}`,
      plate: `KDQ 10${i}Q`,
      deviceId: `quote-${i}`,
      primaryDriverId: `QD${i}`,
      capacityT: 20,
    });
    await call('POST', '/api/admin/stock/receipt', {
      truckId: `QT${i}`,
      trucks: 10,
      category: 'coarse',
      costPerTonne: 450,
      description: 'Yard receipt',
    });
  }
  const customer = await call('POST', '/api/auth/register', {
    name: 'Thika Greens Builders',
    email: 'customer@bench.test',
    password: 'bench-pass-123',
    phone: '0711 222 333',
  });
  const asCustomer = { authorization: `Bearer ${customer.token as string}` };
  for (let i = 0; i < 40; i++) {
    const order = await call(
      'POST',
      '/api/orders',
      { site: `Plot ${i}, Membley Estate, Ruiru`, sandType: 'coarse', trucks: 1 + (i % 2), distanceKm: 18.5 },
      asCustomer,
    );
    if (i % 2 === 1) continue;
    await call(
      'POST',
      `/api/orders/${order.id}/payment`,
      { method: 'Equity', reference: `EQ${order.id}` },
      asCustomer,
    );
    await call('POST', `/api/admin/orders/${order.id}/payment-review`, { decision: 'confirm' });
    await call('POST', `/api/admin/orders/${order.id}/assignments`, {
      truckId: `QT${1 + (i % 3)}`,
      driverId: `QD${1 + (i % 3)}`,
      tonnes: 20,
    });
  }
}

/** GET /api/health idle, then while one client reloads the admin dashboard back to back. */
async function dashboardLoop(mode: Mode, url: string) {
  const admin = await signInAdmin(url);
  await seed(url, admin);
  const health = `${url}/api/health`;
  const dashboard = `${url}/api/admin/dashboard`;
  await load(dashboard, { headers: admin, connections: 1, seconds: 2 });
  const idle = await load(health);
  const [busy, reloads] = await Promise.all([
    load(health),
    load(dashboard, { headers: admin, connections: 1 }),
  ]);
  const ratio = busy.rps / idle.rps;
  const budget = mode === 'embedded';
  const verdict = !budget
    ? ''
    : ratio >= DASHBOARD_BUDGET
      ? '  within budget'
      : `  OVER BUDGET (≥ ${DASHBOARD_BUDGET}× idle)`;
  if (budget && ratio < DASHBOARD_BUDGET) failed = true;
  return [
    `  GET /api/health idle    ${fmt(idle)}`,
    `  … while the dashboard reloads in a loop ${fmt(busy)}  ratio ${ratio.toFixed(3)}× idle${verdict}`,
    `  GET /api/admin/dashboard meanwhile (1 client) ${fmt(reloads)}`,
  ];
}
const body = JSON.stringify({ site: 'Membley estate, Ruiru', trucks: 2, sandType: 'coarse' });

async function profile(mode: Mode) {
  const keep = process.env.BENCH_PROFILE_DIR;
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'mchanga-prof-'));
  const server = await startServer({ mode, cpuProfDir: dir });
  await load(`${server.url}/api/pricing/quote`, { body, seconds: 2 });
  const quote = await load(`${server.url}/api/pricing/quote`, { body });
  await server.stop();
  const top = topSelfTime(dir, SECONDS);
  console.log(`\n${mode}: POST /api/pricing/quote under load while profiled: ${fmt(quote)}`);
  console.log(`idle ${(100 * top.idleShare).toFixed(1)}% of samples; of the busy time, top five self time:`);
  for (const line of top.functions) console.log(`  ${line}`);
  console.log('by package:');
  for (const line of top.packages) console.log(`  ${line}`);
  if (keep) console.log(`profile kept in ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}

async function measure(mode: Mode) {
  const server = await startServer({ mode });
  const bare = await startBare();
  const urls = {
    bare: `${bare.url}/bare`,
    quote: `${server.url}/api/pricing/quote`,
    pricing: `${server.url}/api/pricing`,
    health: `${server.url}/api/health`,
  };
  // JIT, connection pools and caches settle before anything is measured.
  await load(urls.bare, { body, seconds: 2 });
  await load(urls.quote, { body, seconds: 2 });
  await load(urls.pricing, { seconds: 2 });

  // Each call is measured right after its own baseline, in ROUNDS pairs, so a busy moment on the machine
  // weighs on both; the median pair's ratio is the figure (a lone pair moved by ±20% here).
  const rows: Array<{ name: string; pairs: Pair[]; budget: boolean }> = [];
  const pairs = async (bareBody: string | undefined, call: () => Promise<Load>, rounds: number) => {
    const out: Pair[] = [];
    for (let i = 0; i < rounds; i++) {
      const base = await load(urls.bare, { body: bareBody });
      out.push({ bare: base, call: await call() });
    }
    return out;
  };
  rows.push({
    name: 'POST /api/pricing/quote',
    pairs: await pairs(body, () => load(urls.quote, { body }), ROUNDS),
    budget: true,
  });
  rows.push({
    name: 'GET /api/pricing',
    pairs: await pairs(undefined, () => load(urls.pricing), ROUNDS),
    budget: true,
  });
  rows.push({
    name: 'GET /api/health',
    pairs: await pairs(undefined, () => load(urls.health), 1),
    budget: false,
  });
  const loop = await dashboardLoop(mode, server.url);
  // Once staff have written (the seeding above), as a server in use: the quote again, for information
  // (the action log's scope must not leave a cost behind on every later request, core/activity).
  const afterWrites = await pairs(body, () => load(urls.quote, { body }), 1);
  await bare.stop();
  const rss = server.rss();
  await server.stop();

  console.log(
    `\n${mode} mode (${CONNECTIONS} connections, ${SECONDS} s each, ${ROUNDS} rounds of bare route then call; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  for (const { name, pairs: measured, budget } of rows) {
    for (const { bare: base, call } of measured) {
      console.log(`  bare route              ${fmt(base)}`);
      console.log(`  ${name.padEnd(23)} ${fmt(call)}  ratio ${(call.rps / base.rps).toFixed(3)}×`);
    }
    const ratio = median(measured.map((m) => m.call.rps / m.bare.rps));
    const p99 = median(measured.map((m) => m.call.p99));
    const ok = ratio >= RATIO_BUDGET && p99 <= P99_BUDGET_MS;
    const verdict = !budget
      ? ''
      : mode !== 'services'
        ? ' (the budget is for services mode)'
        : ok
          ? '  within budget'
          : `  OVER BUDGET (≥ ${RATIO_BUDGET}×, p99 ≤ ${P99_BUDGET_MS} ms)`;
    if (budget && mode === 'services' && !ok) failed = true;
    console.log(`  ${name}: median ratio ${ratio.toFixed(3)}×, median p99 ${p99} ms${verdict}`);
  }
  console.log(
    `  ${mode}: an admin dashboard reloading in a loop (load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  for (const line of loop) console.log(line);
  for (const { bare: base, call } of afterWrites) {
    console.log(`  bare route              ${fmt(base)}`);
    console.log(`  quote after staff writes ${fmt(call)}  ratio ${(call.rps / base.rps).toFixed(3)}×`);
  }
  console.log(`  server RSS ${rss.now.toFixed(0)} MiB (peak ${rss.peak.toFixed(0)} MiB)`);
}

async function main() {
  const args = process.argv.slice(2);
  const modes = args.filter((a): a is Mode => a === 'services' || a === 'embedded');
  for (const mode of modes.length ? modes : (['services', 'embedded'] as const)) {
    if (args.includes('--profile')) await profile(mode);
    else await measure(mode);
  }
  if (failed) process.exitCode = 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
