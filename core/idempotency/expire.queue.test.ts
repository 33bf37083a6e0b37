import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { eq } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../drizzle/db';
import { idempotencyKeys } from '../../drizzle/schema';
import { queueNameFor } from '../../shared/jobs';
import { silentLogger } from '../../shared/logger';
import { testSettings } from '../../test/helpers';
import { closeRedisAndDatabase, openRedisAndDatabase } from '../../test/queue-resources';
import { until } from '../../test/until';
import { startBullWorkers } from '../../worker/transport/bullmq';
import { createUser } from '../auth/auth.service';
import { BullProducer } from '../jobs/bullmq-producer';

const redisUrl = process.env.REDIS_URL;
const DAY = 24 * 3600_000;

describe.skipIf(!redisUrl)('idempotency.expire on BullMQ (real Redis)', () => {
  const prefix = `idem-${randomBytes(4).toString('hex')}`;
  let redis: Redis;
  let database: Database;

  beforeAll(async () => {
    ({ redis, database } = await openRedisAndDatabase());
  });
  afterAll(() => closeRedisAndDatabase({ redis, database }, prefix));

  it('is scheduled daily at 03:30 Nairobi and, run by a worker, deletes only the expired keys', async () => {
    const user = await createUser(database.db, {
      name: 'Fuel Attendant',
      email: `fuel-${prefix}@q.test`,
      phone: '',
      password: 'password123',
      role: 'FUEL',
    });
    const now = Date.now();
    await database.db.insert(idempotencyKeys).values(
      [
        ['expired', 31 * DAY],
        ['kept', 29 * DAY],
      ].map(([key, ageMs]) => ({
        key: key as string,
        userId: user.id,
        route: 'fuel.create',
        requestHash: 'h',
        responseStatus: 201,
        responseBody: { id: 1 },
        createdAt: new Date(now - (ageMs as number)),
      })),
    );

    const workers = await startBullWorkers({
      redisUrl: redisUrl!,
      prefix,
      only: ['idempotency.expire'],
      runtime: {
        database,
        settings: testSettings({ idempotencyRetentionDays: 30 }),
        llm: null,
        now: () => new Date(),
        log: silentLogger,
      },
    });
    const queue = new Queue(queueNameFor('idempotency.expire'), { connection: redis, prefix });
    const producer = new BullProducer(redisUrl!, prefix);
    try {
      expect(await queue.getJobSchedulers()).toEqual([
        expect.objectContaining({
          key: 'idempotency.expire:cron',
          pattern: '30 3 * * *',
          tz: 'Africa/Nairobi',
        }),
      ]);
      await until(async () => producer.connection.status === 'ready', 5_000, 'producer');
      const { id } = await producer.enqueue('idempotency.expire', {});
      await until(async () => (await queue.getJobState(id)) === 'completed', 10_000, 'job completed');
      expect((await queue.getJob(id))?.returnvalue).toMatchObject({ deleted: 1 });
      const left = await database.db
        .select({ key: idempotencyKeys.key })
        .from(idempotencyKeys)
        .where(eq(idempotencyKeys.userId, user.id));
      expect(left).toEqual([{ key: 'kept' }]);
    } finally {
      await queue.removeJobScheduler('idempotency.expire:cron');
      await queue.close();
      await producer.close();
      await workers.close();
    }
  });
});
