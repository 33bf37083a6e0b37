import { z } from 'zod';

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({
    ok: z.boolean(),
    driver: z.enum(['pglite', 'postgres']),
    /** A tiny write went through (checked at most every few seconds): false when read-only or full. */
    writable: z.boolean(),
  }),
  jobs: z.object({
    ok: z.boolean(),
    transport: z.enum(['bullmq', 'in-process']),
    detail: z.string().optional(),
    lastHeartbeatAt: z.string().nullable(),
    /** Scheduled jobs whose schedule is not registered (Redis came back empty); the worker adds them again. */
    missingSchedules: z.array(z.string()),
  }),
  /** The last successful backup and the newest run's outcome (issue 25); nulls before any. */
  backup: z.object({
    lastAt: z.string().nullable(),
    sizeBytes: z.number().nullable(),
    lastRunStatus: z.enum(['ok', 'failed']).nullable(),
    lastRunError: z.string().nullable(),
  }),
  time: z.string(),
});
export type THealth = z.infer<typeof ZHealth>;

/** The process answers: nothing else is checked (a restart would not mend a database or Redis). */
export const ZLiveness = z.object({ status: z.literal('alive'), time: z.string() });
export type TLiveness = z.infer<typeof ZLiveness>;

const ZCheck = z.object({ ok: z.boolean(), detail: z.string().optional() });

/** May this instance take traffic: every dependency it needs is there. 503 with `error` naming what is not. */
export const ZReadiness = z.object({
  status: z.enum(['ready', 'not ready']),
  /** What is not ready, e.g. "database not writable", "schedules missing: mpesa.reconcile". */
  error: z.string().optional(),
  checks: z.object({
    database: ZCheck,
    databaseWritable: ZCheck,
    migrations: ZCheck,
    jobs: ZCheck,
    schedules: ZCheck,
  }),
  time: z.string(),
});
export type TReadiness = z.infer<typeof ZReadiness>;
