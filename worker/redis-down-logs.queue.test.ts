import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../test/global-db';
import { freePort, privateRedis } from '../test/redis-server';
import { startServerProcess } from '../test/server-process';
import { until } from '../test/until';

const url = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

/**
 * Issue 22, item 19: while Redis was down the logs filled with raw multi-line stacks (a queue without an
 * 'error' listener prints each failure) and one line per retry per queue. Now: structured JSON lines
 * only, one per kind of failure, and at most one more per 30 s with the count. The real server and
 * worker processes, their Redis stopped for 10 s under traffic.
 */
describe.skipIf(!url || !redisUrl)('the logs while Redis is down', () => {
  const dbName = `mchanga_logs_${randomBytes(4).toString('hex')}`;
  let admin: postgres.Sql;
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let worker: ChildProcess;
  let workerOutput = '';

  beforeAll(async () => {
    admin = postgres(url!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    redis = await privateRedis();
    await redis.start();
    const env = {
      DATABASE_URL: withDatabase(url!, dbName),
      REDIS_URL: redis.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'info',
      DATA_DIR: `/tmp/mchanga-logs-${process.pid}`,
    };
    server = await startServerProcess({ ...env, PORT: String(await freePort()), HOST: '127.0.0.1' });
    worker = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (d: Buffer) => {
      workerOutput += d.toString();
    });
    worker.stderr!.on('data', (d: Buffer) => {
      workerOutput += d.toString();
    });
    await until(async () => workerOutput.includes('workers ready'), 60_000, 'the worker ready');
  }, 120_000);

  afterAll(async () => {
    worker?.kill('SIGKILL');
    await server?.stop();
    await redis?.stop();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  it('writes structured lines only, one per kind of failure, never a raw stack', async () => {
    const from = { server: server.output().length, worker: workerOutput.length };
    await redis.stop();
    try {
      // Trackers keep reporting and a balancer keeps asking, for 10 s.
      const end = Date.now() + 10_000;
      while (Date.now() < end) {
        await fetch(`${server.base}/api/telemetry/osmand?id=dev-logs&lat=-1.1&lon=37`, {
          method: 'POST',
        }).catch(() => undefined);
        await fetch(`${server.base}/api/readyz`).catch(() => undefined);
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await redis.start();
    }
    await new Promise((r) => setTimeout(r, 3_000));
    for (const [who, text] of [
      ['server', server.output().slice(from.server)],
      ['worker', workerOutput.slice(from.worker)],
    ] as const) {
      const lines = text.split('\n').filter((l) => l.trim());
      const raw = lines.filter((l) => {
        try {
          JSON.parse(l);
          return false;
        } catch {
          return true;
        }
      });
      expect(raw.slice(0, 5), `${who}: ${raw.length} raw lines of ${lines.length}`).toEqual([]);
      const perKind = new Map<string, number>();
      for (const l of lines) {
        const { msg, kind, job } = JSON.parse(l) as { msg?: string; kind?: string; job?: string };
        const key = `${msg}|${kind ?? ''}|${msg?.startsWith('schedule') ? job : ''}`;
        perKind.set(key, (perKind.get(key) ?? 0) + 1);
      }
      console.info(`${who}: ${lines.length} lines while Redis was down`, Object.fromEntries(perKind));
      // 13 s of failures: the first line of each kind, and at most one count line after 30 s.
      for (const [key, n] of perKind) expect(n, `${who} ${key}`).toBeLessThanOrEqual(2);
    }
  }, 60_000);
});
