import { CronExpressionParser } from 'cron-parser';
import {
  dedupeIdFor,
  type EnqueueOptions,
  JOB_NAMES,
  JOBS,
  type JobName,
  type JobPayload,
  type JobQueue,
} from '../../shared/jobs';
import { type JobHandlers, type JobRuntime, jobContext, PermanentJobError, workerIdentity } from '../context';
import { handlers as realHandlers } from '../handlers';
import { OutboxRelay } from '../outbox-relay';

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
}

/**
 * Jobs the in-process runner runs at once. Embedded PGlite serves one query at a time, so more jobs at once
 * only queue longer in front of requests (each job's transaction holds the one connection for all its round
 * trips); two let one job wait on the network (Telegram, OpenAI, Daraja) while another works. BullMQ
 * workers, on PostgreSQL, take `WORKER_CONCURRENCY` per queue.
 */
export const EMBEDDED_JOB_CONCURRENCY = 2;

type JobState = 'queued' | 'running' | 'completed' | 'failed';

/**
 * Runs the same handlers as the BullMQ worker inside the server process, for the embedded mode where
 * there is no Redis: retries with exponential backoff, de-duplication by job id and cron schedules in the
 * business time zone. Jobs are not durable across restarts; that is what the services mode is for.
 */
export class InProcessRunner implements JobQueue {
  readonly transport = 'in-process' as const;
  private readonly states = new Map<string, JobState>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Jobs due, waiting for a free slot (first in, first out). */
  private readonly ready: Array<() => Promise<void>> = [];
  private readonly concurrency: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;
  private seq = 0;
  private readonly workerId = `in-process:${workerIdentity()}`;
  private readonly handlers: JobHandlers;
  /** Embedded mode: this runner is also the outbox relay. */
  readonly relay: OutboxRelay | undefined;

  constructor(
    private readonly runtime: JobRuntime,
    private readonly options: InProcessRunnerOptions = {},
  ) {
    this.handlers = options.handlers ?? realHandlers;
    this.concurrency = Math.max(1, options.concurrency ?? EMBEDDED_JOB_CONCURRENCY);
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

  async enqueue<N extends JobName>(name: N, payload: JobPayload<N>, opts: EnqueueOptions = {}) {
    if (this.closed) throw new Error('Job runner is closed.');
    const def = JOBS[name];
    const parsed = def.payload.parse(payload) as JobPayload<N>;
    const id = opts.jobId ?? dedupeIdFor(name, parsed) ?? `${name}:${++this.seq}:${Date.now()}`;
    const state = this.states.get(id);
    if (state && state !== 'failed') return { id };
    this.remember(id, 'queued');
    this.later(opts.delayMs ?? 0, () => this.run(name, parsed, id, 1));
    return { id };
  }

  /** The state of a job by id, for tests and diagnostics. */
  stateOf(id: string): JobState | undefined {
    return this.states.get(id);
  }

  /** Resolves when the outbox is relayed and every queued and running job has finished (retries included). */
  async drain(): Promise<void> {
    while (true) {
      if (this.relay) await this.relay.runOnce();
      const busy = () =>
        this.inFlight.size > 0 || [...this.states.values()].some((s) => s === 'queued' || s === 'running');
      while (busy()) {
        await Promise.all([...this.inFlight]);
        await new Promise((r) => setTimeout(r, 5));
      }
      if (!this.relay || (await this.relay.pending()) === 0) return;
    }
  }

  async health() {
    return { ok: !this.closed };
  }

  async close() {
    this.closed = true;
    this.ready.length = 0;
    await this.relay?.stop();
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private async run<N extends JobName>(name: N, payload: JobPayload<N>, id: string, attempt: number) {
    const { attempts, backoffMs } = JOBS[name].options;
    this.remember(id, 'running');
    const handler = this.handlers[name] as (p: JobPayload<N>, c: unknown) => Promise<unknown>;
    const ctx = jobContext(this.runtime, (n, p, o) => this.enqueue(n, p, o), {
      jobId: id,
      attempt,
      transport: this.transport,
      workerId: this.workerId,
    });
    try {
      await handler(payload, ctx);
      this.remember(id, 'completed');
    } catch (err) {
      if (attempt < attempts && !this.closed && !(err instanceof PermanentJobError)) {
        this.remember(id, 'queued');
        this.later(backoffMs * 2 ** (attempt - 1), () => this.run(name, payload, id, attempt + 1));
      } else {
        this.remember(id, 'failed');
        this.runtime.log.error({ err, job: name, id, attempt }, 'job failed');
      }
    }
  }

  private later(delayMs: number, fn: () => Promise<void>) {
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
