import { afterEach, describe, expect, it, vi } from 'vitest';
import { failureKind, type Logger, repeatedLogger } from './logger';

afterEach(() => {
  vi.useRealTimers();
});

function recording() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg?: string }> = [];
  const log: Logger = {
    info: (obj, msg) => lines.push({ level: 'info', obj: obj as Record<string, unknown>, msg }),
    warn: (obj, msg) => lines.push({ level: 'warn', obj: obj as Record<string, unknown>, msg }),
    error: (obj, msg) => lines.push({ level: 'error', obj: obj as Record<string, unknown>, msg }),
  };
  return { log, lines };
}

describe('repeatedLogger', () => {
  it('writes the first failure of a kind at once, then one line per window with the count', () => {
    vi.useFakeTimers();
    const { log, lines } = recording();
    const repeated = repeatedLogger(log, 30_000);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    for (let i = 0; i < 100; i++)
      repeated('error', failureKind('redis', refused), { n: i }, 'Redis unreachable');
    repeated('error', 'other', {}, 'another kind');
    expect(lines.map((l) => [l.obj.kind, l.obj.repeated])).toEqual([
      ['redis:ECONNREFUSED', undefined],
      ['other', undefined],
    ]);
    vi.advanceTimersByTime(30_000);
    expect(lines[2]).toMatchObject({
      level: 'error',
      obj: { kind: 'redis:ECONNREFUSED', repeated: 99, n: 99 },
    });
    expect(lines).toHaveLength(3);
    // Quiet for a window: the next failure of the kind is written at once again.
    vi.advanceTimersByTime(30_000);
    repeated('error', failureKind('redis', refused), {}, 'Redis unreachable');
    expect(lines).toHaveLength(4);
  });

  it('flushes pending counts', () => {
    const { log, lines } = recording();
    const repeated = repeatedLogger(log, 30_000);
    for (let i = 0; i < 3; i++) repeated('warn', 'outbox:CONNECTION_CLOSED', {}, 'outbox relay pass failed');
    repeated.flush();
    expect(lines.map((l) => l.obj.repeated)).toEqual([undefined, 2]);
  });
});
