import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createDb } from '../drizzle/db';
import type { JobQueue } from '../shared/jobs';
// The one place the server may start the worker: embedded mode runs jobs in this process.
import { createHandlers } from '../worker/handlers';
import { InProcessRunner } from '../worker/transport/in-process';
import { buildApp } from './app';
import { createLimiters } from './auth/rate-limit';
import { ConfigError, loadConfig } from './config';
import type { AppDeps } from './context';
import { adminExists, ensureAdmin } from './features/auth/auth.service';
import { BullProducer } from './jobs/bullmq-producer';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`Cannot start: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }

  const database = await createDb({
    databaseUrl: config.databaseUrl,
    dataDir: join(config.dataDir, 'pglite'),
  });

  let jobs: JobQueue;
  let limiterRedis: Redis | undefined;
  if (config.redisUrl) {
    jobs = new BullProducer(config.redisUrl);
    limiterRedis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    limiterRedis.on('error', () => {});
  } else {
    // Handlers queue follow-up jobs (alert fan-out) on the same runner, bound once it exists.
    let runner: InProcessRunner | undefined;
    runner = new InProcessRunner(
      createHandlers({ database, enqueue: (name, payload, opts) => runner!.enqueue(name, payload, opts) }),
      {
        schedules: true,
        log: { error: (obj, msg) => console.error(msg, obj) },
      },
    );
    jobs = runner;
    // Record liveness at once rather than at the first cron minute.
    await jobs.enqueue('system.heartbeat', {});
  }

  const app = await buildApp(
    { database, config, jobs, limiters: createLimiters(limiterRedis), log: console } satisfies AppDeps,
    {
      clientDir: join(root, 'dist', 'client'),
      version: process.env.npm_package_version,
      logger: { level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    },
  );
  // From here on the app's logger is the one to use.
  const log = app.log;

  const signIn = await bootstrapAdmin(config, database.db);

  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${config.port}`;
  console.log(
    [
      '',
      `Mchanga is running at ${url}`,
      `  database: ${database.driver === 'pglite' ? `embedded PGlite in ${join(config.dataDir, 'pglite')}` : 'PostgreSQL'}`,
      `  jobs:     ${jobs.transport === 'bullmq' ? 'BullMQ on Redis (run `npm run worker` too)' : 'in-process runner'}`,
      `  sign in:  ${url}/login${signIn ? ` as ${signIn}` : ''}`,
      '',
    ].join('\n'),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 20_000);
    force.unref();
    try {
      await app.close();
      await jobs.close();
      await limiterRedis?.quit().catch(() => undefined);
      await database.close();
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

/** Ensures an ADMIN exists; returns what to print about signing in. */
async function bootstrapAdmin(config: ReturnType<typeof loadConfig>, db: Parameters<typeof ensureAdmin>[0]) {
  if (config.adminEmail && config.adminPassword) {
    if (config.adminPassword.trim().length < 8) {
      console.error('Cannot start: ADMIN_PASSWORD must be at least 8 characters.');
      process.exit(1);
    }
    await ensureAdmin(db, config.adminEmail, config.adminPassword.trim());
    return `${config.adminEmail} (password from ADMIN_PASSWORD)`;
  }
  if (await adminExists(db)) return undefined;
  if (config.mode === 'services') {
    console.warn('No ADMIN account exists. Set ADMIN_EMAIL and ADMIN_PASSWORD and restart to create one.');
    return undefined;
  }
  // A fresh embedded install: create an admin with a random password and say where it is.
  const email = 'admin@mchanga.local';
  const password = randomBytes(12).toString('base64url');
  await ensureAdmin(db, email, password);
  const file = join(config.dataDir, 'admin-credentials.txt');
  writeFileSync(file, `email: ${email}\npassword: ${password}\n`, { mode: 0o600 });
  return `${email} with password ${password} (saved in ${file}; change it after signing in)`;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
