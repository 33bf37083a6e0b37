import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { adminExists, ensureAdmin } from '../core/auth/auth.service';
import { createLimiters } from '../core/auth/rate-limit';
import { removeServerPid, writeServerPid } from '../core/backup/server-lock';
import { syncEtimsBranch } from '../core/etims/etims.service';
import { BullProducer } from '../core/jobs/bullmq-producer';
import { migrateFilesToDatabase, NAME_PATTERN } from '../core/uploads/uploads.service';
import { createDb } from '../drizzle/db';
import { keepRunningOnLostQueries } from '../drizzle/lost-queries';
import { createLlm } from '../shared/ai/llm';
import type { JobQueue } from '../shared/jobs';
import { jsonLogger } from '../shared/logger';
import { loadSettingsOrExit, type Settings } from '../shared/settings';
// The one place the server may start the worker: embedded mode runs jobs in this process.
import { InProcessRunner } from '../worker/transport/in-process';
import { buildApp } from './app';
import type { AppDeps } from './context';
import { loggerOptions } from './logging';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const settings = loadSettingsOrExit('');

  keepRunningOnLostQueries(jsonLogger(settings.logLevel));
  const database = await createDb({
    databaseUrl: settings.databaseUrl,
    directUrl: settings.databaseDirectUrl,
    poolSize: settings.databasePoolMax.server,
    dataDir: join(settings.dataDir, 'pglite'),
    // Embedded: PGlite works in a thread of its own, so a heavy query does not stall every request.
    thread: true,
  });
  // Uploads an older version kept on this machine's disk move to the shared store (once; safe to repeat).
  const uploads = await migrateFilesToDatabase(database.db, settings, (name) => NAME_PATTERN.test(name));
  if (uploads.moved)
    jsonLogger(settings.logLevel).info({ moved: uploads.moved }, 'uploads moved into the database');
  if (uploads.kept.length)
    jsonLogger(settings.logLevel).warn(
      { kept: uploads.kept },
      'uploads left in DATA_DIR/uploads: the database holds other bytes under the same names',
    );
  // Invoices are numbered under the branch these settings name (eTIMS on) or the local one (off).
  await syncEtimsBranch(database.db, settings, new Date());

  const llm = createLlm(settings.openai);
  let jobs: JobQueue;
  let limiterRedis: Redis | undefined;
  if (settings.redisUrl) {
    // Services mode: the worker process consumes the jobs and relays the outbox.
    jobs = new BullProducer(settings.redisUrl);
    limiterRedis = new Redis(settings.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    limiterRedis.on('error', () => {});
  } else {
    // Embedded mode: this process runs the jobs and relays the outbox into them.
    jobs = new InProcessRunner(
      { database, settings, llm, now: () => new Date(), log: jsonLogger(settings.logLevel) },
      { schedules: true, outboxIntervalMs: 250 },
    );
    // Record liveness at once rather than at the first cron minute.
    await jobs.enqueue('system.heartbeat', {});
    // A backup slot missed while the server was off is made up now, not at the next quarter hour.
    if (settings.backup.cron) await jobs.enqueue('backup.scheduled', {});
    // `npm run backup` and `npm run restore` must not open this data directory while it is ours.
    writeServerPid(settings.dataDir);
    process.on('exit', () => removeServerPid(settings.dataDir));
  }

  const app = await buildApp(
    {
      database,
      settings,
      jobs,
      llm,
      // Without Redis the counters live in the database, so a restart does not forget them.
      limiters: createLimiters(limiterRedis ? { redis: limiterRedis } : { db: database.db }),
      log: jsonLogger(settings.logLevel),
    } satisfies AppDeps,
    {
      clientDir: join(root, 'dist', 'client'),
      logger: loggerOptions(settings.logLevel),
    },
  );
  // From here on the app's logger is the one to use.
  const log = app.log;

  const signIn = await bootstrapAdmin(settings, database.db);

  await app.listen({ port: settings.port, host: settings.host });
  const url = `http://localhost:${settings.port}`;
  console.log(
    [
      '',
      `Mchanga is running at ${url}`,
      `  database: ${database.driver === 'pglite' ? `embedded PGlite in ${join(settings.dataDir, 'pglite')}` : 'PostgreSQL'}`,
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
async function bootstrapAdmin(settings: Settings, db: Parameters<typeof ensureAdmin>[0]) {
  if (settings.adminEmail && settings.adminPassword) {
    if (settings.adminPassword.trim().length < 8) {
      console.error('Cannot start: ADMIN_PASSWORD must be at least 8 characters.');
      process.exit(1);
    }
    await ensureAdmin(db, settings.adminEmail, settings.adminPassword.trim());
    return `${settings.adminEmail} (password from ADMIN_PASSWORD)`;
  }
  if (await adminExists(db)) return undefined;
  if (settings.mode === 'services') {
    console.warn('No ADMIN account exists. Set ADMIN_EMAIL and ADMIN_PASSWORD and restart to create one.');
    return undefined;
  }
  // A fresh embedded install: create an admin with a random password and say where it is.
  const email = 'admin@mchanga.local';
  const password = randomBytes(12).toString('base64url');
  await ensureAdmin(db, email, password);
  const file = join(settings.dataDir, 'admin-credentials.txt');
  writeFileSync(file, `email: ${email}\npassword: ${password}\n`, { mode: 0o600 });
  return `${email} with password ${password} (saved in ${file}; change it after signing in)`;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
