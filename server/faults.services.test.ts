import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../test/global-db';
import { freePort } from '../test/redis-server';
import { startServerProcess } from '../test/server-process';
import { until } from '../test/until';

const url = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

// Issue 11, fault 1: PostgreSQL connections cut under load must never take the server down.
describe.skipIf(!url || !redisUrl)('the server while PostgreSQL connections are cut under load', () => {
  const dbName = `mchanga_faults_${randomBytes(4).toString('hex')}`;
  let admin: postgres.Sql;
  let server: Awaited<ReturnType<typeof startServerProcess>>;
  let token = '';

  beforeAll(async () => {
    admin = postgres(url!, { max: 2, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    server = await startServerProcess({
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATABASE_URL: withDatabase(url!, dbName),
      REDIS_URL: redisUrl!,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: 'faults@example.co.ke',
      ADMIN_PASSWORD: 'faults-admin-pass',
      DATA_DIR: `/tmp/mchanga-faults-${process.pid}`,
    });
    const login = await fetch(`${server.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'faults@example.co.ke', password: 'faults-admin-pass' }),
    });
    token = (await login.json()).token;
    const truck = await fetch(`${server.base}/api/admin/trucks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ id: 'TRK-FAULT', plate: 'KFA 001F', capacityT: 20 }),
    });
    expect(truck.status).toBe(201);
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  it('answers 503 {error} to requests caught in flight, never crashes, and is healthy within 5 s after', async () => {
    const statuses = new Map<number, number>();
    const bodiesWithoutError: string[] = [];
    const unexpected: string[] = [];
    let stop = false;
    let amount = 1000;
    const client = async () => {
      while (!stop) {
        const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
        const requests = [
          fetch(`${server.base}/api/admin/costs`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              truckId: 'TRK-FAULT',
              type: 'OTHER',
              amount: amount++,
              description: 'fault load',
            }),
          }),
          fetch(`${server.base}/api/admin/dashboard`, { headers }),
        ];
        for (const res of await Promise.allSettled(requests)) {
          if (res.status === 'rejected') {
            statuses.set(0, (statuses.get(0) ?? 0) + 1);
            continue;
          }
          const r = res.value;
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          const text = await r.text();
          if (r.status >= 400 && !/"error":"[^"]+"/.test(text))
            bodiesWithoutError.push(`${r.status} ${text.slice(0, 200)}`);
        }
      }
    };
    const killer = async () => {
      let kills = 0;
      while (!stop) {
        const killed = await admin`
          select pg_terminate_backend(pid) from pg_stat_activity
          where datname = ${dbName} and pid <> pg_backend_pid()`;
        kills += killed.length;
        await new Promise((r) => setTimeout(r, 1_000));
      }
      return kills;
    };
    const clients = Array.from({ length: 10 }, client);
    const killing = killer();
    await new Promise((r) => setTimeout(r, 30_000));
    stop = true;
    await Promise.all(clients);
    const kills = await killing;

    expect(server.alive(), server.output()).toBe(true);
    expect(kills).toBeGreaterThan(10);
    const summary = Object.fromEntries(statuses);
    // Only successes and 503s: nothing refused the connection, nothing answered 500.
    expect(unexpected, JSON.stringify(summary)).toEqual([]);
    expect(statuses.get(200) ?? 0, JSON.stringify(summary)).toBeGreaterThan(50);
    expect(bodiesWithoutError).toEqual([]);

    const started = Date.now();
    await until(
      async () => (await fetch(`${server.base}/api/health`).catch(() => null))?.ok,
      5_000,
      'health ok within 5 s',
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    const after = await fetch(`${server.base}/api/admin/dashboard`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(after.status).toBe(200);
  }, 120_000);
});
