import { Redis } from 'ioredis';

/**
 * The queue project's guard. Embedded run (neither DATABASE_URL nor REDIS_URL): its tests skip
 * themselves, as they need Redis. Services run (DATABASE_URL set, as in CI's second `npm test`), or any
 * run with REDIS_URL: Redis must be set and answer, or the run fails here, loudly — the queue tests never
 * skip or hang quietly because Redis is missing.
 */
export default async function setup() {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  if (!databaseUrl && !redisUrl) return;
  if (!redisUrl)
    throw new Error(
      'The queue tests run against the services when DATABASE_URL is set, and need Redis too: set ' +
        'REDIS_URL (e.g. redis://127.0.0.1:6379), or unset DATABASE_URL for the embedded run, which skips them.',
    );
  const problem = await redisProblem(redisUrl);
  if (problem)
    throw new Error(
      `The queue tests need Redis at ${shown(redisUrl)}, which does not answer (${problem}). ` +
        'Start it (redis-server), or unset REDIS_URL and DATABASE_URL for the embedded run, which skips them.',
    );
}

/** Why Redis at `url` does not answer a PING within 5 s, or null when it does. */
async function redisProblem(url: string): Promise<string | null> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 5_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let cause: Error | undefined; // the connection's own error (ECONNREFUSED …) says more than the command's
  redis.on('error', (err: Error) => {
    cause ??= err;
  });
  try {
    await redis.connect();
    const answer = await redis.ping();
    return answer === 'PONG' ? null : `PING answered ${answer}`;
  } catch (err) {
    return cause?.message ?? (err instanceof Error ? err.message : String(err));
  } finally {
    redis.disconnect();
  }
}

/** The URL without its password, for the message. */
function shown(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'REDIS_URL (not a valid URL)';
  }
}
