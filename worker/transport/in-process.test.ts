import { afterEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../shared/logger';
import { onlyHandlers, transportRuntime } from '../../test/job-handlers';
import type { JobHandlers } from '../context';
import { InProcessRunner } from './in-process';

function handlersOf(heartbeat: JobHandlers['system.heartbeat']) {
  return { handlers: onlyHandlers({ 'system.heartbeat': heartbeat }) };
}

let runner: InProcessRunner | undefined;
afterEach(async () => {
  await runner?.close();
  runner = undefined;
});

describe('InProcessRunner', () => {
  it('runs a job with its validated payload', async () => {
    const seen: unknown[] = [];
    runner = new InProcessRunner(
      transportRuntime(),
      handlersOf(async (p, ctx) => seen.push({ p, transport: ctx.transport })),
    );
    await runner.enqueue('system.heartbeat', { scheduledFor: 'x' });
    await runner.drain();
    expect(seen).toEqual([{ p: { scheduledFor: 'x' }, transport: 'in-process' }]);
  });

  it('refuses an invalid payload at enqueue time', async () => {
    runner = new InProcessRunner(
      transportRuntime(),
      handlersOf(async () => undefined),
    );
    await expect(runner.enqueue('system.heartbeat', { scheduledFor: 42 } as never)).rejects.toThrow();
  });

  it('retries a failing job up to its attempts, then marks it failed', async () => {
    let calls = 0;
    const errors: unknown[] = [];
    runner = new InProcessRunner(
      transportRuntime({ ...silentLogger, error: (e) => errors.push(e) }),
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

  it('runs a job with the same id once', async () => {
    let calls = 0;
    runner = new InProcessRunner(
      transportRuntime(),
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
    runner = new InProcessRunner(transportRuntime(), {
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

  it('fires cron schedules at each slot, once per slot', async () => {
    vi.useFakeTimers();
    try {
      vi.setSystemTime(new Date('2026-03-02T05:59:58.000+03:00'));
      const slots: string[] = [];
      runner = new InProcessRunner(transportRuntime(), {
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
