/**
 * What the HTTP benches share: the real server (`server/main.ts`) and a bare Fastify route, each in a
 * process of its own, loaded by autocannon from this one; RSS read from /proc; and the top self-time
 * entries of a `--cpu-prof` profile.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { withDatabase } from '../test/global-db';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
export const SERVICES_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
export const ADMIN = { email: 'bench@example.co.ke', password: 'bench-password-1' };

export type Mode = 'services' | 'embedded';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Child {
  url: string;
  pid: number;
  /** Resident set now and at its peak, MiB. */
  rss(): { now: number; peak: number };
  stop(): Promise<void>;
}

async function spawnNode(args: string[], env: Record<string, string | undefined>, port: number) {
  let output = '';
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited early:\n${output}`);
    if (Date.now() > deadline) throw new Error(`${args.join(' ')} did not start:\n${output}`);
    const ok = await fetch(`${url}/api/health`)
      .then((r) => r.status < 500)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    pid: child.pid!,
    rss() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  } satisfies Child;
}

/** A bare Fastify route answering a constant quote-sized body, GET and POST. */
export async function startBare(): Promise<Child> {
  return spawnNode(['--import', 'tsx', 'bench/bare.ts'], {}, await freePort());
}

export interface ServerOptions {
  mode: Mode;
  /** Write a CPU profile into this directory when the server exits. */
  cpuProfDir?: string;
  /** Embedded mode: start from this data directory (seeded beforehand) instead of an empty one. */
  dataDir?: string;
}

/** The real server (`server/main.ts`) on a fresh database: a new PostgreSQL database, or a new DATA_DIR. */
export async function startServer(options: ServerOptions): Promise<Child & { dataDir: string }> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'mchanga-bench-'));
  const env: Record<string, string | undefined> = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-'.padEnd(48, 'x'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DATABASE_URL: undefined,
    REDIS_URL: undefined,
  };
  let dropDb = async () => {};
  if (options.mode === 'services') {
    const name = 'mchanga_bench_http';
    const admin = postgres(SERVICES_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    env.DATABASE_URL = withDatabase(SERVICES_URL, name);
    env.REDIS_URL = REDIS_URL;
    dropDb = async () => {
      const a = postgres(SERVICES_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    };
  }
  const prof = options.cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfDir}`] : [];
  const child = await spawnNode([...prof, '--import', 'tsx', 'server/main.ts'], env, await freePort());
  return {
    ...child,
    dataDir,
    async stop() {
      await child.stop();
      await dropDb();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function load(
  url: string,
  options: {
    method?: 'GET' | 'POST';
    body?: string;
    headers?: Record<string, string>;
    connections?: number;
    seconds?: number;
  } = {},
): Promise<Load> {
  const result = await autocannon({
    url,
    method: options.method ?? (options.body ? 'POST' : 'GET'),
    headers: { 'content-type': 'application/json', ...options.headers },
    body: options.body,
    connections: options.connections ?? CONNECTIONS,
    duration: options.seconds ?? SECONDS,
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

export async function signInAdmin(url: string): Promise<Record<string, string>> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return { authorization: `Bearer ${token}` };
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

/** The top self-time entries of the one `.cpuprofile` in `dir`, by function and by package. */
/** Only the last `windowS` seconds count (the load), not the start-up (module compiles, migrations). */
export function topSelfTime(dir: string, windowS: number, n = 5) {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const totalUs = profile.timeDeltas.reduce((a, b) => a + b, 0);
  const from = totalUs - windowS * 1e6;
  let at = 0;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let total = 0;
  let idle = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    if (at < from) return;
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') {
      idle += us;
      return;
    }
    total += us;
    const where = frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/main\//, '');
    const fn = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    const pkg =
      /node_modules\/((@[^/]+\/)?[^/]+)/.exec(frame.url)?.[1] ??
      (frame.url.startsWith('node:')
        ? 'node internals'
        : frame.url
          ? 'mchanga'
          : `${frame.functionName} (native)`);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
  });
  const top = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => `${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`);
  return { idleShare: idle / (idle + total), functions: top(byFunction), packages: top(byPackage) };
}

export const fmt = (l: Load) =>
  `${l.rps.toFixed(0).padStart(6)} req/s  p50 ${String(l.p50).padStart(3)} ms  p99 ${String(l.p99).padStart(3)} ms${l.errors ? `  errors ${l.errors}` : ''}`;
