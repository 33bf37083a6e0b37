/**
 * The REST hot path against a bare Fastify route of the same run: POST /api/pricing/quote,
 * GET /api/pricing and GET /api/health of the real server (`server/main.ts`, its own process) next to a
 * bare route answering a constant (another process), loaded by autocannon from this one: 50 connections,
 * 10 s each, in services mode (PostgreSQL + Redis on this machine) and in the embedded default (PGlite).
 *   npm run bench:quote                      both modes (services needs PostgreSQL and Redis here)
 *   npm run bench:quote -- embedded          one mode
 *   npm run bench:quote -- services --profile   a CPU profile of the quote under load: top five self time
 *     (BENCH_PROFILE_DIR=dir keeps the .cpuprofile there, for Chrome DevTools)
 * Budget: the quote and GET /api/pricing ≥ 0.45× the bare route, p99 ≤ 15 ms (services mode).
 * BENCH_SECONDS and BENCH_CONNECTIONS change the load.
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
  startBare,
  startServer,
  topSelfTime,
} from './harness';

const RATIO_BUDGET = 0.45;
const P99_BUDGET_MS = 15;
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

  // Each call is measured right after its own baseline, so a busy moment on the machine weighs on both.
  const rows: Array<{ name: string; call: Load; bare: Load; budget: boolean }> = [];
  const bareGet = () => load(urls.bare);
  rows.push({
    name: 'POST /api/pricing/quote',
    bare: await load(urls.bare, { body }),
    call: await load(urls.quote, { body }),
    budget: true,
  });
  rows.push({
    name: 'GET /api/pricing',
    bare: await bareGet(),
    call: await load(urls.pricing),
    budget: true,
  });
  rows.push({ name: 'GET /api/health', bare: await bareGet(), call: await load(urls.health), budget: false });
  const rss = server.rss();
  await bare.stop();
  await server.stop();

  console.log(
    `\n${mode} mode (${CONNECTIONS} connections, ${SECONDS} s each; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  for (const { name, call, bare: base, budget } of rows) {
    const ratio = call.rps / base.rps;
    const verdict = budget
      ? ratio >= RATIO_BUDGET && call.p99 <= P99_BUDGET_MS
        ? '  within budget'
        : `  OVER BUDGET (≥ ${RATIO_BUDGET}×, p99 ≤ ${P99_BUDGET_MS} ms)`
      : '';
    console.log(`  bare route              ${fmt(base)}`);
    console.log(`  ${name.padEnd(23)} ${fmt(call)}  ratio ${ratio.toFixed(3)}×${verdict}`);
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
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
