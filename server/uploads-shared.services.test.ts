import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageDataUrl } from '../test/factories';
import { withDatabase } from '../test/global-db';
import { freePort, privateRedis } from '../test/redis-server';
import { startServerProcess, startWorkerProcess } from '../test/server-process';
import { until } from '../test/until';

const url = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;

// Issue 26, item 1: two servers and two workers on one database and one Redis (a private one: no other
// test's worker takes these jobs), each server with its own disk, behind a balancer that may send the read
// to either.
describe.skipIf(!url || !redisUrl)('uploads shared by two server processes', () => {
  const dbName = `mchanga_uploads_${randomBytes(4).toString('hex')}`;
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'mchanga-two-servers-')));
  // An upload an older version left on server B's disk, before the shared store existed.
  const oldFile = `national-id-${randomBytes(16).toString('hex')}.jpg`;
  let admin: postgres.Sql;
  let servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];
  let workers: ReturnType<typeof startWorkerProcess>[] = [];
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let headers: Record<string, string> = {};

  beforeAll(async () => {
    admin = postgres(url!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${dbName}`);
    mkdirSync(join(dirs[1]!, 'uploads'));
    const oldBytes = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#a33' } })
      .jpeg()
      .toBuffer();
    writeFileSync(join(dirs[1]!, 'uploads', oldFile), oldBytes);
    redis = await privateRedis();
    await redis.start();
    const env = {
      HOST: '127.0.0.1',
      DATABASE_URL: withDatabase(url!, dbName),
      REDIS_URL: redis.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ADMIN_EMAIL: 'uploads@example.co.ke',
      ADMIN_PASSWORD: 'uploads-admin-pass',
    };
    servers = await Promise.all(
      dirs.map(async (dir) => startServerProcess({ ...env, PORT: String(await freePort()), DATA_DIR: dir })),
    );
    workers = dirs.map((dir) => startWorkerProcess({ ...env, DATA_DIR: dir }));
    const login = await fetch(`${servers[0]!.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD }),
    });
    headers = { 'content-type': 'application/json', authorization: `Bearer ${(await login.json()).token}` };
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...workers, ...servers].map((p) => p.stop()));
    await redis?.stop();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('serves a fuel photo written through server A from server B, and back', async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const truck = await fetch(`${a.base}/api/admin/trucks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ id: 'TRK-SHARED', plate: 'KSH 001S', capacityT: 20 }),
    });
    expect(truck.status).toBe(201);
    const saved = await fetch(`${a.base}/api/fuel/logs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        truckId: 'TRK-SHARED',
        litres: 60,
        odometer: 10_500,
        cost: 10_000,
        photoData: await imageDataUrl(),
      }),
    });
    expect(saved.status).toBe(201);
    const photoPath: string = (await saved.json()).photoPath;
    expect(photoPath).toMatch(/^fuel-photo-[a-f0-9]{32}\.jpg$/);

    const fromA = await fetch(`${a.base}/api/uploads/${photoPath}`, { headers });
    const fromB = await fetch(`${b.base}/api/uploads/${photoPath}`, { headers });
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(fromB.headers.get('content-type')).toBe('image/jpeg');
    const bytesA = Buffer.from(await fromA.arrayBuffer());
    const bytesB = Buffer.from(await fromB.arrayBuffer());
    expect(bytesB.equals(bytesA)).toBe(true);
    expect(Number(fromB.headers.get('content-length'))).toBe(bytesB.length);
    expect((await sharp(bytesB).metadata()).format).toBe('jpeg');
    // Neither server kept it on its own disk.
    for (const dir of dirs) expect(existsSync(join(dir, 'uploads', photoPath))).toBe(false);

    // And back: a photo written through B is served by A.
    const viaB = await fetch(`${b.base}/api/fuel/logs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        truckId: 'TRK-SHARED',
        litres: 40,
        odometer: 10_900,
        cost: 7_000,
        photoData: await imageDataUrl(),
      }),
    });
    expect(viaB.status).toBe(201);
    const pathB: string = (await viaB.json()).photoPath;
    expect(pathB).not.toBe(photoPath);
    const backA = await fetch(`${a.base}/api/uploads/${pathB}`, { headers });
    expect(backA.status).toBe(200);
    expect((await sharp(Buffer.from(await backA.arrayBuffer())).metadata()).format).toBe('jpeg');
  });

  it("a fix sent to server B is written by a worker and shown on server A's fleet map", async () => {
    const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const truck = await fetch(`${a.base}/api/admin/trucks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ id: 'TRK-TWO', plate: 'KSH 002S', capacityT: 20, deviceId: 'two-servers-1' }),
    });
    expect(truck.status).toBe(201);
    const ts = Math.floor(Date.now() / 1000) - 30;
    const fix = await fetch(
      `${b.base}/api/telemetry/osmand?id=two-servers-1&lat=-1.1466&lon=36.9609&timestamp=${ts}&speed=12`,
      { method: 'POST' },
    );
    expect(fix.status).toBe(200);
    await until(
      async () => {
        const list = (await (await fetch(`${a.base}/api/telemetry/trucks`, { headers })).json()) as Array<{
          truckId: string;
          lat: number | null;
        }>;
        return list.find((x) => x.truckId === 'TRK-TWO')?.lat === -1.1466;
      },
      30_000,
      "the fix to reach server A's fleet map",
    );
    expect([...servers, ...workers].every((p) => p.alive())).toBe(true);
  });

  it('moved the file server B had on disk into the database at start: server A serves it', async () => {
    const [a] = servers;
    const res = await fetch(`${a!.base}/api/uploads/${oldFile}`, { headers });
    expect(res.status).toBe(200);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(4);
    expect(existsSync(join(dirs[1]!, 'uploads', oldFile))).toBe(false);
  });
});
