import { Redis } from 'ioredis';
import type { Database } from '../drizzle/db';
import { createTestDatabase } from './helpers';

export interface RedisAndDatabase {
  redis: Redis;
  database: Database;
}

/** A queue test file's own connection to REDIS_URL and a fresh, migrated test database. */
export async function openRedisAndDatabase(): Promise<RedisAndDatabase> {
  const redis = new Redis(process.env.REDIS_URL!);
  return { redis, database: await createTestDatabase() };
}

/** Deletes the file's BullMQ keys (everything under `prefix`) and closes both. */
export async function closeRedisAndDatabase(
  opened: Partial<RedisAndDatabase>,
  prefix: string,
): Promise<void> {
  if (opened.redis) {
    const keys = await opened.redis.keys(`${prefix}*`);
    if (keys.length) await opened.redis.del(...keys);
    await opened.redis.quit();
  }
  await opened.database?.close();
}
