import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb } from '../../drizzle/db';
import { freePort } from '../../test/redis-server';
import { until } from '../../test/until';
import {
  createLimiters,
  LIMIT_RULES,
  LIMIT_TIMEOUT_MS,
  type LimitCheck,
  RateLimitedError,
  reserve,
} from './rate-limit';

const rules = { ...LIMIT_RULES, loginPerIp: { points: 2, duration: 600 } };

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; outcome: T | Error }> {
  const start = performance.now();
  const outcome = await fn().catch((err: Error) => err);
  return { ms: performance.now() - start, outcome };
}

describe('limit counters without Redis', () => {
  it('live in the database, so a restart of embedded mode does not forget them', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mchanga-limits-'));
    try {
      // From the run's migrated dump when there is one (embedded runs), else migrated here.
      const dump = inject('pgliteDump');
      let database = await createDb(
        dump
          ? { dataDir: dir, loadDataDir: new Blob([readFileSync(dump)]), migrate: false }
          : { dataDir: dir },
      );
      let check: LimitCheck = [createLimiters({ db: database.db }, rules).loginPerIp, '10.7.0.1'];
      await reserve([check]);
      await reserve([check]);
      await expect(reserve([check])).rejects.toBeInstanceOf(RateLimitedError);
      await database.close();

      database = await createDb({ dataDir: dir, migrate: false });
      try {
        check = [createLimiters({ db: database.db }, rules).loginPerIp, '10.7.0.1'];
        await expect(reserve([check])).rejects.toBeInstanceOf(RateLimitedError);
        // Another address starts afresh.
        await reserve([[check[0], '10.7.0.2']]);
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a store that stalls or is down', () => {
  // A stalled Redis: it answers the client's handshake (HELLO, CLIENT SETINFO), then nothing more.
  let silent: Server;
  let port: number;
  let stalled = false;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    port = await freePort();
    silent = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => {});
      socket.on('data', (data) => {
        if (stalled) return;
        for (const [, command] of data.toString().matchAll(/(?:^|\r\n)\*\d+\r\n\$\d+\r\n(\w+)/g))
          socket.write(command!.toLowerCase() === 'hello' ? '%1\r\n$5\r\nproto\r\n:3\r\n' : '+OK\r\n');
      });
    });
    await new Promise<void>((resolve) => silent.listen(port, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it(`answers within ${LIMIT_TIMEOUT_MS} ms from the memory counters, which still limit`, async () => {
    const redis = new Redis({ port, host: '127.0.0.1', enableReadyCheck: false, maxRetriesPerRequest: 1 });
    redis.on('error', () => {});
    try {
      await until(async () => redis.status === 'ready', 5_000, 'the handshake');
      stalled = true;
      const check: LimitCheck = [createLimiters({ redis }, rules).loginPerIp, '10.8.0.1'];
      const tries = [
        await timed(() => reserve([check])),
        await timed(() => reserve([check])),
        await timed(() => reserve([check])),
      ];
      expect(tries.map((t) => t.outcome instanceof RateLimitedError)).toEqual([false, false, true]);
      for (const t of tries) expect(t.ms).toBeLessThan(LIMIT_TIMEOUT_MS + 100);
    } finally {
      redis.disconnect();
    }
  });

  it('passes over a Redis that is down at once', async () => {
    const redis = new Redis({
      port: await freePort(),
      host: '127.0.0.1',
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
    });
    redis.on('error', () => {});
    try {
      const check: LimitCheck = [createLimiters({ redis }, rules).loginPerIp, '10.8.0.2'];
      const tries = [
        await timed(() => reserve([check])),
        await timed(() => reserve([check])),
        await timed(() => reserve([check])),
      ];
      expect(tries.map((t) => t.outcome instanceof RateLimitedError)).toEqual([false, false, true]);
      for (const t of tries) expect(t.ms).toBeLessThan(50);
    } finally {
      redis.disconnect();
    }
  });
});
