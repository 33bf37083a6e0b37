import { createDb } from '../drizzle/db';
import { createHandlers } from './handlers';
import { createBullEnqueue, startBullWorkers } from './transport/bullmq';

/** `npm run worker`: the BullMQ worker process of the services mode. */
const log = {
  info: (obj: unknown, msg?: string) => console.log(JSON.stringify({ level: 'info', msg, ...toObj(obj) })),
  error: (obj: unknown, msg?: string) =>
    console.error(JSON.stringify({ level: 'error', msg, ...toObj(obj) })),
};

function toObj(obj: unknown): Record<string, unknown> {
  if (obj && typeof obj === 'object') {
    const o = { ...(obj as Record<string, unknown>) };
    if (o.err instanceof Error) o.err = { message: o.err.message, stack: o.err.stack };
    return o;
  }
  return { value: obj };
}

async function main() {
  const redisUrl = process.env.REDIS_URL;
  const databaseUrl = process.env.DATABASE_URL;
  if (!redisUrl || !databaseUrl) {
    console.error(
      'The worker process needs REDIS_URL and DATABASE_URL. In the embedded mode (no REDIS_URL) `npm start` runs jobs inside the server; no separate worker is needed.',
    );
    process.exit(1);
  }
  const database = await createDb({ databaseUrl, poolSize: 5 });
  const producer = createBullEnqueue(redisUrl);
  const workers = await startBullWorkers({
    redisUrl,
    handlers: createHandlers({ database, enqueue: producer.enqueue }),
    concurrency: Number(process.env.WORKER_CONCURRENCY ?? 4),
    log,
  });
  // Report liveness at once rather than at the first cron minute.
  await producer.enqueue('system.heartbeat', {});

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker shutting down');
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    await workers.close();
    await producer.close();
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
