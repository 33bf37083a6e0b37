import { syncEtimsBranch } from '../core/etims/etims.service';
import { OutboxRelay } from '../core/jobs/outbox-relay';
import { createDb } from '../drizzle/db';
import { keepRunningOnLostQueries } from '../drizzle/lost-queries';
import { createLlm } from '../shared/ai/llm';
import { jsonLogger } from '../shared/logger';
import { loadSettingsOrExit } from '../shared/settings';
import { startWorkerMetrics } from './metrics-server';
import { startBullWorkers } from './transport/bullmq';

/** `npm run worker`: the BullMQ worker process of the services mode, and the outbox relay. */
async function main() {
  const settings = loadSettingsOrExit(' the worker');
  const log = jsonLogger(settings.logLevel);
  keepRunningOnLostQueries(log);
  const { redisUrl, databaseUrl } = settings;
  if (!redisUrl || !databaseUrl) {
    console.error(
      'The worker process needs REDIS_URL and DATABASE_URL. In the embedded mode (no REDIS_URL) `npm start` runs jobs inside the server; no separate worker is needed.',
    );
    process.exit(1);
  }
  const database = await createDb({
    databaseUrl,
    directUrl: settings.databaseDirectUrl,
    poolSize: settings.databasePoolMax.worker,
  });
  await syncEtimsBranch(database.db, settings, new Date());
  const runtime = { database, settings, llm: createLlm(settings.openai), now: () => new Date(), log };
  const workers = await startBullWorkers({ redisUrl, runtime, concurrency: settings.workerConcurrency });
  const relay = new OutboxRelay(database.db, workers.producer.enqueue.bind(workers.producer), {
    intervalMs: 500,
    log,
  }).start();
  const metrics = await startWorkerMetrics(settings);
  // Report liveness at once rather than at the first cron minute.
  await workers.producer
    .enqueue('system.heartbeat', {})
    .catch((err) => log.warn({ err }, 'first heartbeat not queued'));
  // A backup slot missed while everything was off is made up now (the job finds it done otherwise).
  if (settings.backup.cron)
    await workers.producer
      .enqueue('backup.scheduled', {})
      .catch((err) => log.warn({ err }, 'start-up backup check not queued'));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    metrics?.close();
    await relay.stop();
    await workers.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
