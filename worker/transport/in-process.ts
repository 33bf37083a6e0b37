import { randomUUID } from 'node:crypto';
import { CronExpressionParser } from 'cron-parser';
import {
  DEPENDENCY_BACKOFF,
  type DependencyBackoff,
  dependencyDelayMs,
  type JobHandlers,
  type JobRuntime,
  jobContext,
  PermanentJobError,
  waitsForDependency,
  workerIdentity,
} from '../../core/jobs/context';
import * as stored from '../../core/jobs/embedded-jobs.queries';
import { OutboxRelay } from '../../core/jobs/outbox-relay';
import {
  dedupeIdFor,
  type EnqueueOptions,
  JOB_NAMES,
  JOBS,
  type JobCount,
  type JobName,
  type JobPayload,
  type JobQueue,
} from '../../shared/jobs';
import { handlers as realHandlers } from '../handlers';

export interface InProcessRunnerOptions {
  /** The handlers to run (tests swap some); the real ones by default. */
  handlers?: JobHandlers;
  /** Start the cron schedules of shared/jobs.ts (off in tests that drive jobs by hand). */
  schedules?: boolean;
  /** Relay the outbox into this runner, polling this often (ms); off when absent. */
  outboxIntervalMs?: number;
  /** How many job ids to remember for de-duplication. */
  rememberIds?: number;
  /** Jobs running at once; `EMBEDDED_JOB_CONCURRENCY` by default. */
  concurrency?: number;
  /** How a job waits for a database that is down (tests shorten it). */
  dependencyBackoff?: DependencyBackoff;
}

/**
 * Jobs the in-process runner runs at once. Embedded PGlite serves one query at a time, so more jobs at once
 * only queue longer in front of requests (each job's transaction holds the one connection for all its round
 * trips); two let one job wait on the network (Telegram, OpenAI, Daraja) while another works. BullMQ
 * workers, on PostgreSQL, take `WORKER_CONCURRENCY` per queue.
 */
export const EMBEDDED_JOB_CONCURRENCY = 2;

type JobState = 'queued' | 'running' | 'completed' | 'failed';

const PRUNE_EVERY_MS = 3600_000;

/**
 * Runs the same handlers as the BullMQ worker inside the server process, for the embedded mode where
 * there is no Redis: retries with exponential backoff, de-duplication by job id and cron schedules in the
 * business time zone. Jobs are durable (issue 25): each is written to `embedded_jobs` before `enqueue`
 * answers and marked done only when its handler finished; a retry or a wait for the database writes its
 * next attempt and time. A restart (a kill included) runs every job still queued there: waiting, delayed,
 * retrying, or interrupted mid-run (handlers are idempotent). Memory only holds timers and a cache of states.
 */
export class InProcessRunner implements JobQueue {
  readonly transport = 'in-process' as const;
  private readonly states = new Map<string, JobState>();
  /** Jobs whose handler runs now, per name (for /metrics). */
  private readonly running = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Jobs due, waiting for a free slot (first in, first out). */
  private readonly ready: Array<() => Promise<void>> = [];
  private readonly concurrency: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private readonly workerId = `in-process:${workerIdentity()}`;
  private readonly handlers: JobHandlers;
  /** Resolves once the jobs a previous process left queued are scheduled again. */
  private readonly recovered: Promise<void>;
  private pruneTimer: NodeJS.Timeout | undefined;
  /** Embedded mode: this runner is also the outbox relay. */
  readonly relay: OutboxRelay | undefined;

  constructor(
    private readonly runtime: JobRuntime,
    private readonly options: InProcessRunnerOptions = {},
  ) {
    this.handlers = options.handlers ?? realHandlers;
    this.concurrency = Math.max(1, options.concurrency ?? EMBEDDED_JOB_CONCURRENCY);
    this.recovered = this.recover();
    this.pruneTimer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref?.();
    if (options.outboxIntervalMs !== undefined) {
      this.relay = new OutboxRelay(
        runtime.database.db,
        (name, payload, opts) => this.enqueue(name, payload, opts),
        {
          intervalMs: options.outboxIntervalMs,
          log: runtime.log,
        },
      ).start();
    }
    if (options.schedules) this.startSchedules();
  }

  /**
   * Writes the job to the database, then schedules it: when this answers, the job survives a restart. A job
   * id that is queued or completed (in memory, or in the table: a relay replaying an outbox row after a
   * crash) is not run again; a failed one runs again from its first attempt.
   */
  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts: EnqueueOptions = {}) {
    await this.recovered;
    if (this.closed) throw new Error('Job runner is closed.');
    const def = JOBS[name];
    const parsed = def.payload.parse(payload) as JobPayload<N>;
    const id = opts.jobId ?? dedupeIdFor(name, parsed) ?? `${name}:${randomUUID()}`;
    const state = this.states.get(id);
    if (state && state !== 'failed') return { id };
    const delayMs = opts.delayMs ?? 0;
    const fresh = await stored.insertJob(this.db, {
      id,
      name,
      payload: parsed,
      runAt: new Date(Date.now() + delayMs),
    });
    if (!fresh || this.closed) return { id };
    this.remember(id, 'queued');
    this.later(delayMs, () => this.run(name, parsed, id, 1));
    return { id };
  }

  /** The state of a job by id, for tests and diagnostics. */
  stateOf(id: string): JobState | undefined {
    return this.states.get(id);
  }

  /** Resolves when the outbox is relayed and every queued and running job has finished (retries included). */
  async drain(): Promise<void> {
    await this.recovered;
    while (true) {
      if (this.relay) await this.relay.runOnce();
      const busy = () =>
        this.inFlight.size > 0 || [...this.states.values()].some((s) => s === 'queued' || s === 'running');
      while (busy()) {
        await Promise.all([...this.inFlight]);
        await new Promise((r) => setTimeout(r, 5));
      }
      if (!this.relay) return;
      // The relay's own timer may be mid-pass: the rows it claimed are neither pending nor queued yet.
      if (this.relay.passing) continue;
      if ((await this.relay.pending()) === 0 && !this.relay.passing && !busy()) return;
    }
  }

  async health() {
    return { ok: !this.closed };
  }

  /**
   * Stops taking and starting jobs and waits for the running ones. Jobs still queued, delayed or retrying
   * stay in the table and run at the next start.
   */
  async close() {
    this.closed = true;
    this.ready.length = 0;
    clearInterval(this.pruneTimer);
    await this.recovered;
    await this.relay?.stop();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Jobs per name and state: the table's (a queued job not yet due is delayed, a due one waiting or, when
   * its handler runs now, active) for /metrics.
   */
  async counts(): Promise<JobCount[]> {
    const rows = await stored.jobCounts(this.db);
    const out: JobCount[] = [];
    for (const r of rows) {
      if (r.state !== 'queued') {
        out.push({ name: r.name, state: r.state, count: r.count });
        continue;
      }
      const active = Math.min(r.due, this.running.get(r.name) ?? 0);
      out.push(
        { name: r.name, state: 'active', count: active },
        { name: r.name, state: 'waiting', count: r.due - active },
        { name: r.name, state: 'delayed', count: r.count - r.due },
      );
    }
    return out;
  }

  private get db() {
    return this.runtime.database.db;
  }

  /** Schedules again every job a previous process left queued, at its stored time and attempt. */
  private async recover(): Promise<void> {
    let left: stored.EmbeddedJobRow[];
    try {
      left = await stored.queuedJobs(this.db);
    } catch (err) {
      // The database is away at start: the jobs wait in the table; try again shortly.
      this.runtime.log.error({ err }, 'could not read the queued jobs; trying again in 5 s');
      const timer = setTimeout(() => void this.recover(), 5_000);
      timer.unref?.();
      this.timers.add(timer);
      return;
    }
    for (const row of left) {
      if (this.states.has(row.id)) continue;
      const name = row.name as JobName;
      const parsed = name in JOBS ? JOBS[name].payload.safeParse(row.payload) : undefined;
      if (!parsed?.success) {
        await this.store(() =>
          stored.finishJob(this.db, row.id, 'failed', `unknown job or payload: ${row.name}`),
        );
        continue;
      }
      this.remember(row.id, 'queued');
      const delay = Math.max(0, row.runAt.getTime() - Date.now());
      this.later(delay, () =>
        this.run(name, parsed.data as JobPayload<typeof name>, row.id, row.attempt, row.waits),
      );
    }
    if (left.length) this.runtime.log.info({ jobs: left.length }, 'queued jobs resumed after a restart');
    await this.prune();
  }

  private async prune() {
    await this.store(() => stored.pruneJobs(this.db));
  }

  /**
   * A write about a job's progress. One the database refuses (it is away) is logged and let go: the job's
   * row keeps its last state, so at worst a restart runs it again (handlers are idempotent).
   */
  private async store(write: () => PromiseLike<unknown>) {
    try {
      await write();
    } catch (err) {
      this.runtime.log.warn({ err }, 'could not record a job state');
    }
  }

  private async run<N extends JobName>(
    name: N,
    payload: JobPayload<N>,
    id: string,
    attempt: number,
    waits = 0,
  ) {
    const { attempts, backoffMs } = JOBS[name].options;
    this.remember(id, 'running');
    this.running.set(name, (this.running.get(name) ?? 0) + 1);
    const handler = this.handlers[name] as (p: JobPayload<N>, c: unknown) => Promise<unknown>;
    const ctx = jobContext(this.runtime, (n, p, o) => this.enqueue(n, p, o), {
      jobId: id,
      attempt,
      transport: this.transport,
      workerId: this.workerId,
    });
    try {
      await handler(payload, ctx);
      const keep = (JOBS[name].options as { keepCompleted?: number }).keepCompleted !== 0;
      await this.store(() =>
        keep ? stored.finishJob(this.db, id, 'completed') : stored.deleteJob(this.db, id),
      );
      this.remember(id, 'completed');
    } catch (err) {
      const message = (err as Error)?.message ?? String(err);
      if (waitsForDependency(err)) {
        // The database is down: wait for it, without spending an attempt. (Recording the wait needs the
        // database too; if it cannot, the row keeps its attempt and a restart runs the job at once.)
        const delay = dependencyDelayMs(waits, this.options.dependencyBackoff ?? DEPENDENCY_BACKOFF);
        await this.store(() =>
          stored.rescheduleJob(this.db, id, {
            attempt,
            waits: waits + 1,
            runAt: new Date(Date.now() + delay),
            error: message,
          }),
        );
        this.remember(id, 'queued');
        this.later(delay, () => this.run(name, payload, id, attempt, waits + 1));
      } else if (attempt < attempts && !(err instanceof PermanentJobError)) {
        const delay = backoffMs * 2 ** (attempt - 1);
        await this.store(() =>
          stored.rescheduleJob(this.db, id, {
            attempt: attempt + 1,
            waits,
            runAt: new Date(Date.now() + delay),
            error: message,
          }),
        );
        this.remember(id, 'queued');
        this.later(delay, () => this.run(name, payload, id, attempt + 1));
      } else {
        await this.store(() => stored.finishJob(this.db, id, 'failed', message));
        this.remember(id, 'failed');
        this.runtime.log.error({ err, job: name, id, attempt }, 'job failed');
      }
    } finally {
      const n = (this.running.get(name) ?? 1) - 1;
      if (n > 0) this.running.set(name, n);
      else this.running.delete(name);
    }
  }

  /** Runs `fn` after `delayMs` (nothing once closed: the job's row waits for the next start). */
  private later(delayMs: number, fn: () => Promise<void>) {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.closed) return;
      this.ready.push(fn);
      this.pump();
    }, delayMs);
    timer.unref?.();
    this.timers.add(timer);
  }

  /**
   * Starts due jobs while a slot is free. The bound matters in embedded mode: the relay hands over up to a
   * batch of outbox rows at once, and PGlite has one backend, so jobs started all together would queue
   * every request's query (an M-Pesa callback's answer among them) behind all of theirs. A finished job
   * frees its slot on the next turn of the event loop, so requests that arrived meanwhile go first.
   */
  private pump() {
    while (this.inFlight.size < this.concurrency && this.ready.length > 0 && !this.closed) {
      const fn = this.ready.shift()!;
      const p: Promise<void> = fn().finally(() => {
        this.inFlight.delete(p);
        setImmediate(() => this.pump());
      });
      this.inFlight.add(p);
    }
  }

  private remember(id: string, state: JobState) {
    this.states.delete(id);
    this.states.set(id, state);
    const limit = this.options.rememberIds ?? 10_000;
    while (this.states.size > limit) {
      const oldest = this.states.keys().next().value as string;
      this.states.delete(oldest);
    }
  }

  private startSchedules() {
    for (const name of JOB_NAMES) {
      const { cron, timeZone } = JOBS[name].options as { cron?: string; timeZone?: string };
      if (!cron) continue;
      const interval = CronExpressionParser.parse(cron, { tz: timeZone });
      const arm = () => {
        const next = interval.next().toDate();
        const timer = setTimeout(
          () => {
            this.timers.delete(timer);
            if (this.closed) return;
            // The slot time is the job id: a slot fires once even if the timer is re-armed.
            void this.enqueue(name, { scheduledFor: next.toISOString() } as JobPayload<typeof name>, {
              jobId: `${name}@${next.toISOString()}`,
            }).catch((err) => this.runtime.log.error({ err, job: name }, 'scheduled enqueue failed'));
            arm();
          },
          Math.max(0, next.getTime() - Date.now()),
        );
        timer.unref?.();
        this.timers.add(timer);
      };
      arm();
    }
  }
}
