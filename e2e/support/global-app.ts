import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_PATH } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared apps, one per worker of the browser tests' project (support/shared-app.ts picks one). */
    baseURLs: string[];
    adminEmail: string;
    adminPassword: string;
  }
}

export const ADMIN_EMAIL = 'admin@e2e.test';
export const ADMIN_PASSWORD = 'e2e-admin-pass';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface RunningApp {
  baseURL: string;
  stop: () => Promise<void>;
}

/**
 * Starts the app exactly as the README says (`npm start`, embedded default) in a fresh data directory.
 * The global setup starts the browser tests' shared ones; a test file whose data must not meet the others'
 * (the screen walk) starts its own.
 */
export async function startApp(
  /** Extra settings for this app, given its base URL (e.g. MPESA_* pointing at a fake Daraja, PUBLIC_URL). */
  extraEnv?: (baseURL: string) => Record<string, string>,
): Promise<RunningApp> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      'Chromium is missing: run `apt-get install -y chromium` (browser tests use /usr/bin/chromium).',
    );
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'mchanga-e2e-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.JWT_SECRET;
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
  });
  if (extraEnv) Object.assign(env, extraEnv(`http://127.0.0.1:${port}`));
  const child: ChildProcess = spawn('npm', ['start'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr!.on('data', (d: Buffer) => {
    output += d.toString();
  });

  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 150_000;
  while (true) {
    if (child.exitCode !== null) throw new Error(`npm start exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the app did not become healthy in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }

  const stop = async () => {
    // npm start runs tsx under npm: signal the whole group, as a terminal's Ctrl-C would, and wait
    // until every process of it (the server shutting down gracefully) is gone.
    const group = -child.pid!;
    const alive = () => {
      try {
        process.kill(group, 0);
        return true;
      } catch {
        return false;
      }
    };
    if (alive()) process.kill(group, 'SIGTERM');
    const deadline = Date.now() + 8_000;
    while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (alive()) process.kill(group, 'SIGKILL');
    child.stdout?.destroy();
    child.stderr?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { baseURL, stop };
}

/**
 * The browser tests' shared apps: one per worker of their project, started one after the other (the first
 * builds the client when it must). Two files that run at once are on two workers, so they never share an
 * app; the files of one worker run one after another against its app, as they all did on one before.
 */
export default async function setup(project: TestProject) {
  const apps: RunningApp[] = [];
  const stopAll = () => Promise.all(apps.map((app) => app.stop())).then(() => {});
  try {
    for (let i = 0; i < Math.max(1, project.config.maxWorkers); i++) apps.push(await startApp());
  } catch (err) {
    await stopAll();
    throw err;
  }
  project.provide(
    'baseURLs',
    apps.map((app) => app.baseURL),
  );
  project.provide('adminEmail', ADMIN_EMAIL);
  project.provide('adminPassword', ADMIN_PASSWORD);
  return stopAll;
}
