/**
 * Quote throughput: POST /api/pricing/quote through the full app (REST adapter → procedure → distance
 * heuristic → pricing) against a bare Fastify route answering a constant, both on this machine in the
 * same run. Prints req/s of each and the ratio, plus the quote's server time per request.
 *   npm run bench:quote            (embedded PGlite)
 *   DATABASE_URL=... npm run bench:quote
 */
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { createDb } from '../drizzle/db';
import { buildApp } from '../server/app';
import { createLimiters } from '../server/auth/rate-limit';
import { loadConfig } from '../server/config';
import { createHandlers } from '../worker/handlers';
import { InProcessRunner } from '../worker/transport/in-process';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 20;

async function load(url: string, body?: string) {
  const result = await autocannon({
    url,
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json' },
    body,
    connections: CONNECTIONS,
    duration: DURATION_S,
  });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function main() {
  const bare = Fastify();
  bare.post('/bare', async () => ({
    perTruck: 32000,
    total: 64000,
    truckCount: 2,
    distanceKm: 12,
    distanceSource: 'manual',
  }));
  const bareAddress = await bare.listen({ port: 0, host: '127.0.0.1' });

  const config = loadConfig({
    ...process.env,
    DATA_DIR: process.env.DATA_DIR ?? '/tmp/mchanga-bench',
    REDIS_URL: undefined,
    JWT_SECRET: 'x'.repeat(48),
  });
  const database = await createDb({ databaseUrl: config.databaseUrl });
  const jobs = new InProcessRunner(createHandlers({ database }));
  const app = await buildApp({ database, config, jobs, limiters: createLimiters(), log: console });
  const appAddress = await app.listen({ port: 0, host: '127.0.0.1' });

  const body = JSON.stringify({ site: 'Membley estate, Ruiru', trucks: 2, sandType: 'coarse' });
  // Warm both up so JIT and the distance cache are settled before measuring.
  await autocannon({
    url: `${appAddress}/api/pricing/quote`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duration: 2,
  });
  await autocannon({
    url: `${bareAddress}/bare`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
    duration: 2,
  });

  const baseline = await load(`${bareAddress}/bare`, body);
  const quote = await load(`${appAddress}/api/pricing/quote`, body);
  const serverMs = 1000 / quote.rps;

  console.log(`database: ${database.driver}; ${CONNECTIONS} connections, ${DURATION_S} s each`);
  console.log(
    `bare Fastify route : ${baseline.rps.toFixed(0)} req/s (p99 ${baseline.p99} ms, errors ${baseline.errors})`,
  );
  console.log(
    `POST /api/pricing/quote: ${quote.rps.toFixed(0)} req/s (p99 ${quote.p99} ms, errors ${quote.errors})`,
  );
  console.log(`ratio quote/bare   : ${(quote.rps / baseline.rps).toFixed(3)}`);
  console.log(`server time/quote  : ${serverMs.toFixed(3)} ms (one core saturated; budget 5 ms)`);

  await app.close();
  await bare.close();
  await jobs.close();
  await database.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
