import { hostname } from 'node:os';
import type { Database, Db } from '../../drizzle/db';
import { isDatabaseDown } from '../../drizzle/errors';
import type { Llm } from '../../shared/ai/llm';
import type { Enqueue, JobName, JobPayload } from '../../shared/jobs';
import type { Logger } from '../../shared/logger';
import type { Settings } from '../../shared/settings';

/** What a job runner is built from: read once at start (server/main.ts embedded, worker/main.ts services). */
export interface JobRuntime {
  database: Database;
  settings: Settings;
  /** The OpenAI-compatible client when configured; null means rule-written text. */
  llm: Llm | null;
  now: () => Date;
  log: Logger;
}

/** Everything a handler gets: the runtime, a way to queue follow-up jobs, and who is running it. */
export interface JobContext extends JobRuntime {
  db: Db;
  enqueue: Enqueue;
  jobId: string;
  attempt: number;
  transport: 'bullmq' | 'in-process';
  /** Identifies this runner (host:pid) in heartbeats and logs. */
  workerId: string;
}

export type JobHandler<N extends JobName> = (payload: JobPayload<N>, ctx: JobContext) => Promise<unknown>;
export type JobHandlers = { [N in JobName]: JobHandler<N> };

export function workerIdentity(): string {
  return `${hostname()}:${process.pid}`;
}

export function jobContext(
  runtime: JobRuntime,
  enqueue: Enqueue,
  run: Pick<JobContext, 'jobId' | 'attempt' | 'transport' | 'workerId'>,
): JobContext {
  return {
    ...runtime,
    get db() {
      return runtime.database.db;
    },
    enqueue,
    ...run,
  };
}

/** A permanent failure (a provider's 4xx): the runner records it and does not retry. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

/**
 * A job that failed because the database is down (unreachable, refusing connections, read-only, out of
 * disk) did nothing wrong: it waits for the database without spending an attempt, so an acknowledged
 * write (a fix, a callback, an alert) reaches the database by itself however long the outage lasts.
 * Both transports apply this rule.
 */
export function waitsForDependency(err: unknown): boolean {
  return !(err instanceof PermanentJobError) && isDatabaseDown(err);
}

export interface DependencyBackoff {
  /** The first wait (then doubled each time). */
  baseMs: number;
  /** The longest wait: the job runs again at most this long after the database is back. */
  capMs: number;
}

export const DEPENDENCY_BACKOFF: DependencyBackoff = { baseMs: 1_000, capMs: 30_000 };

/** The wait before the `waits`-th run (0 first) of a job waiting for the database. */
export function dependencyDelayMs(waits: number, backoff: DependencyBackoff = DEPENDENCY_BACKOFF): number {
  return Math.min(backoff.capMs, backoff.baseMs * 2 ** Math.min(waits, 20));
}
