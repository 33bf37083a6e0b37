import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobHandlers } from '../../core/jobs/context';
import type { Database } from '../../drizzle/db';
import { embeddedJobs } from '../../drizzle/schema';
import { type Logger, silentLogger } from '../../shared/logger';
import { createEmbeddedTestDatabase } from '../../test/helpers';
import { onlyHandlers, transportRuntime } from '../../test/job-handlers';
import { InProcessRunner } from './in-process';

// The runner keeps its jobs in the database (issue 25): every test gets the same real one, emptied after it.
// PGlite in both runs: the in-process runner is the embedded mode's transport.
let database: Database;
beforeAll(async () => {
  database = await createEmbeddedTestDatabase();
});
afterAll(async () => {
  await database.close();
});
const runtime = (log: Logger = silentLogger) => transportRuntime(log, database);

function handlersOf(heartbeat: JobHandlers['system.heartbeat']) {
  return { handlers: onlyHandlers({ 'system.heartbeat': heartbeat }) };
}

let runner: InProcessRunner | undefined;
afterEach(async () => {
  await runner?.close();
  runner = undefined;
  await database.db.delete(embeddedJobs);
});

describe('InProcessRunner', () => {
  it('runs a job with its validated payload', async () => {
    const seen: unknown[] = [];
    runner = new InProcessRunner(
      runtime(),
      handlersOf(async (p, ctx) => seen.push({ p, transport: ctx.transport })),
    );
    await runner.enqueue('system.heartbeat', { scheduledFor: 'x' });
    await runner.drain();
    expect(seen).toEqual([{ p: { scheduledFor: 'x' }, transport: 'in-process' }]);
  });

  it('refuses an invalid payload at enqueue time', async () => {
    runner = new InProcessRunner(
      runtime(),
      handlersOf(async () => undefined),
    );
    await expect(runner.enqueue('system.heartbeat', { scheduledFor: 42 } as never)).rejects.toThrow();
  });

  it('retries a failing job up to its attempts, then marks it failed', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    runner = new InProcessRunner(
      runtime({ ...silentLogger, error: (e) => errors.push(e) }),
      handlersOf(async () => {
        calls += 1;
        throw new Error('boom');
      }),
    );
    const { id } = await runner.enqueue('system.heartbeat', {});
    await runner.drain();
    // system.heartbeat allows one attempt.
    expect(calls).toBe(1);
    expect(runner.stateOf(id)).toBe('failed');
    expect(errors).toHaveLength(1);
  });

  it('waits for a database that is down without spending attempts (issue 22, item 15)', async () => {
    let calls = 0;
    runner = new InProcessRunner(runtime(), {
      ...handlersOf(async () => {
        calls += 1;
        // Down for longer than the job's attempts (system.heartbeat has one).
        if (calls <= 5)
          throw Object.assign(new Error('database is not accepting connections'), {
            code: '55000',
            severity: 'FATAL',
          });
      }),
      dependencyBackoff: { baseMs: 5, capMs: 20 },
    });
    const { id } = await runner.enqueue('system.heartbeat', {});
    await runner.drain();
    expect(calls).toBe(6);
    expect(runner.stateOf(id)).toBe('completed');
  });

  it('runs a job with the same id once', async () => {
    let calls = 0;
    runner = new InProcessRunner(
      runtime(),
      handlersOf(async () => {
        calls += 1;
      }),
    );
    await runner.enqueue('system.heartbeat', {}, { jobId: 'same' });
    await runner.enqueue('system.heartbeat', {}, { jobId: 'same' });
    await runner.drain();
    await runner.enqueue('system.heartbeat', {}, { jobId: 'same' });
    await runner.drain();
    expect(calls).toBe(1);
  });

  it('runs at most `concurrency` jobs at once, and every job in the end', async () => {
    let running = 0;
    let most = 0;
    const done: string[] = [];
    runner = new InProcessRunner(runtime(), {
      ...handlersOf(async (p) => {
        running += 1;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 10));
        running -= 1;
        done.push(p.scheduledFor ?? '');
      }),
      concurrency: 2,
    });
    for (let i = 0; i < 7; i++) await runner.enqueue('system.heartbeat', { scheduledFor: `s${i}` });
    await runner.drain();
    expect(most).toBe(2);
    expect(done.sort()).toEqual(['s0', 's1', 's2', 's3', 's4', 's5', 's6']);
  });

  it('keeps queued, delayed and retrying jobs through close() and runs them once on the next start (issue 25)', async () => {
    const runs: string[] = [];
    runner = new InProcessRunner(runtime(), {
      handlers: onlyHandlers({
        'system.heartbeat': async (_p, ctx) => void runs.push(`first ${ctx.jobId}`),
        'etims.send': async (_p, ctx) => {
          runs.push(`first ${ctx.jobId} ${ctx.attempt}`);
          throw new Error('KRA is away');
        },
      }),
    });
    await runner.enqueue('system.heartbeat', {}, { jobId: 'later', delayMs: 60_000 });
    await runner.enqueue('etims.send', { branchId: 'local', invoiceId: 1 }, { jobId: 'retry' });
    await vi.waitUntil(() => runs.length === 1);
    await runner.close();
    const [retrying] = await database.db.select().from(embeddedJobs).where(eq(embeddedJobs.id, 'retry'));
    expect(retrying).toMatchObject({ state: 'queued', attempt: 2, lastError: 'KRA is away' });
    // Nothing is waiting long in this test: bring both due.
    await database.db.update(embeddedJobs).set({ runAt: new Date() });

    runner = new InProcessRunner(runtime(), {
      handlers: onlyHandlers({
        'system.heartbeat': async (_p, ctx) => void runs.push(`second ${ctx.jobId}`),
        'etims.send': async (_p, ctx) => void runs.push(`second ${ctx.jobId} ${ctx.attempt}`),
      }),
    });
    await runner.drain();
    expect(runs.sort()).toEqual(['first retry 1', 'second later', 'second retry 2']);
    // A relay replaying a completed job's outbox row after a restart does not run it again.
    await runner.enqueue('system.heartbeat', {}, { jobId: 'later' });
    await runner.drain();
    expect(runs.filter((r) => r === 'second later')).toHaveLength(1);
    const rows = await database.db.select().from(embeddedJobs);
    expect(rows.map((r) => [r.id, r.state]).sort()).toEqual([
      ['later', 'completed'],
      ['retry', 'completed'],
    ]);
  });

  it('records a job that spent its attempts as failed, and runs it again when enqueued again', async () => {
    let calls = 0;
    runner = new InProcessRunner(
      runtime(),
      handlersOf(async () => {
        calls += 1;
        if (calls === 1) throw new Error('boom');
      }),
    );
    await runner.enqueue('system.heartbeat', {}, { jobId: 'again' });
    await runner.drain();
    const [failed] = await database.db.select().from(embeddedJobs);
    expect(failed).toMatchObject({ id: 'again', state: 'failed', lastError: 'boom' });
    await runner.enqueue('system.heartbeat', {}, { jobId: 'again' });
    await runner.drain();
    expect(calls).toBe(2);
    expect(runner.stateOf('again')).toBe('completed');
  });

  it('fires cron schedules at each slot, once per slot', async () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2026-03-02T05:59:58.000+03:00'));
      const slots: string[] = [];
      runner = new InProcessRunner(runtime(), {
        ...handlersOf(async (p) => void slots.push(p.scheduledFor ?? '')),
        schedules: true,
      });
      await vi.advanceTimersByTimeAsync(2_500);
      expect(slots).toEqual(['2026-03-02T03:00:00.000Z']);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(slots).toEqual(['2026-03-02T03:00:00.000Z', '2026-03-02T03:01:00.000Z']);
      expect(runner.stateOf('system.heartbeat@2026-03-02T03:01:00.000Z')).toBe('completed');
    } finally {
      await runner?.close();
      runner = undefined;
      vi.useRealTimers();
    }
  });
});
