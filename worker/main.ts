import { createDb } from '../drizzle/db';
import { keepRunningOnLostQueries } from '../drizzle/lost-queries';
import { createLlm } from '../shared/ai/llm';
import { jsonLogger } from '../shared/logger';
import { loadSettings, SettingsError } from '../shared/settings';
import { OutboxRelay } from './outbox-relay';
import { startBullWorkers } from './transport/bullmq';

/** `npm run worker`: the BullMQ worker process of the services mode, and the outbox relay. */
async function main() {
  let settings: ReturnType<typeof loadSettings>;
  try {
    settings = loadSettings();
  } catch (err) {
    if (err instanceof SettingsError) {
      console.error(`Cannot start the worker: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const log = jsonLogger(settings.logLevel);
  keepRunningOnLostQueries(log);
  const { redisUrl, databaseUrl } = settings;
  if (!redisUrl || !databaseUrl) {
    console.error(
      'The worker process needs REDIS_URL and DATABASE_URL. In the embedded mode (no REDIS_URL) `npm start` runs jobs inside the server; no separate worker is needed.',
    );
    process.exit(1);
  }
  const database = await createDb({ databaseUrl, poolSize: 5 });
  const runtime = { database, settings, llm: createLlm(settings.openai), now: () => new Date(), log };
  const workers = await startBullWorkers({ redisUrl, runtime, concurrency: settings.workerConcurrency });
  const relay = new OutboxRelay(database.db, workers.producer.enqueue.bind(workers.producer), {
    intervalMs: 500,
    log,
  }).start();
  // Report liveness at once rather than at the first cron minute.
  await workers.producer
    .enqueue('system.heartbeat', {})
    .catch((err) => log.warn({ err }, 'first heartbeat not queued'));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
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
