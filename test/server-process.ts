import { type ChildProcess, spawn } from 'node:child_process';
import { until } from './until';

/**
 * The real server as its own process (`node --import tsx server/main.ts`), for tests that must see it
 * survive what would kill it (a test cannot observe its own process crashing).
 */
export async function startServerProcess(env: Record<string, string>) {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const base = `http://127.0.0.1:${env.PORT}`;
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
      return fetch(`${base}/api/health`)
        .then((r) => r.ok)
        .catch(() => false);
    },
    60_000,
    'the server to become healthy',
  );
  return {
    base,
    child,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await until(
        async () => child.exitCode !== null || child.signalCode !== null,
        20_000,
        'the server to stop',
      );
    },
  };
}

/** The BullMQ worker as its own process (`node --import tsx worker/main.ts`), as `npm run worker` runs it. */
export function startWorkerProcess(env: Record<string, string>) {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout!, child.stderr!])
    stream.on('data', (d: Buffer) => {
      output += d.toString();
    });
  return {
    child,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await until(
        async () => child.exitCode !== null || child.signalCode !== null,
        30_000,
        'the worker to stop',
      ).catch((err: Error) => {
        throw new Error(`${err.message}; its last output:\n${output.slice(-3000)}`);
      });
    },
  };
}
