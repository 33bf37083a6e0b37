import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../drizzle/db';
import { withDatabase } from '../test/global-db';
import { pipelineWatch } from '../test/pipeline-watch';

const url = process.env.DATABASE_URL;

// Behind PgBouncer in transaction mode (DATABASE_DIRECT_URL set), a query written behind one still running
// could have its answer dropped by the pooler: the worker's telemetry job waited forever on one (CI, the
// PgBouncer smoke journey). The pool never does that now; a proxy that reads the protocol counts it.
describe.skipIf(!url)('a pool behind a pooler writes one query at a time per connection', () => {
  const name = `mchanga_pipe_${randomBytes(4).toString('hex')}`;
  const direct = withDatabase(url ?? 'postgres://x', name);
  let admin: postgres.Sql;
  let watch: Awaited<ReturnType<typeof pipelineWatch>>;
  beforeAll(async () => {
    admin = postgres(url!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const target = new URL(direct);
    watch = await pipelineWatch({ host: target.hostname, port: Number(target.port || 5432) });
  });
  afterAll(async () => {
    await watch?.stop();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('answers every query of a burst larger than the pool, transactions among them, and pipelines none', async () => {
    const pooler = new URL(direct);
    pooler.port = String(watch.port);
    const database = await createDb({ databaseUrl: pooler.toString(), directUrl: direct, poolSize: 1 });
    try {
      const { db } = database;
      await db.execute(sql`select 1`);
      const answers = await Promise.all([
        db.execute(sql`select pg_sleep(0.2), 'slow' as v`),
        db.execute(sql`select ${'with a parameter'}::text as v`),
        db.transaction(async (tx) => tx.execute(sql`select ${'in a transaction'}::text as v`)),
        db.execute(sql`select 'plain' as v`),
        db.transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          return tx.execute(sql`select ${'second transaction'}::text as v`);
        }),
        db.execute(sql`select ${'last'}::text as v`),
      ]);
      expect(answers.map((a) => (a as unknown as Array<{ v: string }>)[0]?.v)).toEqual([
        'slow',
        'with a parameter',
        'in a transaction',
        'plain',
        'second transaction',
        'last',
      ]);
      expect(watch.pipelined()).toBe(0);
    } finally {
      await database.close();
    }
  });
});
