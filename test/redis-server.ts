import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { until } from './until';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * A private redis-server (the Debian binary the CI machine has) that a test may stop, start again on
 * the same port, or pause — without touching the shared Redis other tests use.
 */
export async function privateRedis() {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const url = `redis://127.0.0.1:${port}`;
  const ping = async () => {
    const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    c.on('error', () => {});
    try {
      await c.connect();
      return (await c.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      c.disconnect();
    }
  };
  const api = {
    url,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      await until(ping, 10_000, `redis-server on ${port}`);
    },
    async stop() {
      if (!child) return;
      const c = child;
      child = undefined;
      c.kill('SIGKILL');
      await until(async () => !(await ping()), 10_000, 'redis-server to stop');
    },
    /** CLIENT PAUSE: every client's commands wait (a stalled Redis) for `ms`. */
    async pause(ms: number) {
      const c = new Redis(url);
      await c.call('CLIENT', 'PAUSE', String(ms), 'ALL');
      c.disconnect();
    },
  };
  return api;
}
