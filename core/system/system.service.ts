import { type Database, type DbOrTx, pendingMigrations } from '../../drizzle/db';
import type { JobQueue } from '../../shared/jobs';
import type { THealth, TLiveness, TReadiness } from '../../shared/schemas/system';
import { lastBackups } from '../backup/backup.queries';
import { lastHeartbeat, probeWrite } from './system.queries';

type Services = {
  database: Pick<Database, 'ping' | 'driver'>;
  jobs: Pick<JobQueue, 'health' | 'transport' | 'missingSchedules'>;
};

/** The write probe runs at most this often per process; health and readiness share its last answer. */
export const WRITE_PROBE_EVERY_MS = 5_000;
const PROBE_TIMEOUT_MS = 1_500;
const probes = new WeakMap<object, { at: number; answer: Promise<boolean> }>();

function timeBoxed(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ])
    .catch(() => false)
    .finally(() => clearTimeout(timer));
}

/** Can the database take a write now? A tiny upsert, rate-limited per database handle. */
function databaseWritable(db: DbOrTx, key: object, now = Date.now()): Promise<boolean> {
  const last = probes.get(key);
  if (last && now - last.at < WRITE_PROBE_EVERY_MS) return last.answer;
  const answer = timeBoxed(probeWrite(db), PROBE_TIMEOUT_MS);
  probes.set(key, { at: now, answer });
  return answer;
}

async function missingSchedules(jobs: Services['jobs']): Promise<string[] | Error> {
  try {
    return (await jobs.missingSchedules?.()) ?? [];
  } catch (err) {
    return err as Error;
  }
}

/** The database (reachable and writable) and the job transport, with the worker's last heartbeat. */
export async function health(db: DbOrTx, services: Services, now: Date): Promise<THealth> {
  const { database, jobs } = services;
  const [dbOk, jobHealth, schedules] = await Promise.all([
    database.ping(),
    jobs.health().catch(() => ({ ok: false })),
    missingSchedules(jobs),
  ]);
  const [writable, beat, backups] = dbOk
    ? await Promise.all([
        databaseWritable(db, database),
        lastHeartbeat(db).catch(() => undefined),
        lastBackups(db).catch(() => undefined),
      ])
    : [false, undefined, undefined];
  const missing = schedules instanceof Error ? [] : schedules;
  return {
    status: dbOk && writable && jobHealth.ok && missing.length === 0 ? 'ok' : 'degraded',
    database: { ok: dbOk, driver: database.driver, writable },
    jobs: {
      ...jobHealth,
      transport: jobs.transport,
      lastHeartbeatAt: beat?.toISOString() ?? null,
      missingSchedules: missing,
    },
    backup: {
      lastAt: backups?.lastOk?.finishedAt?.toISOString() ?? null,
      sizeBytes: backups?.lastOk?.sizeBytes ?? null,
      lastRunStatus: backups?.latest?.status === 'running' ? null : (backups?.latest?.status ?? null),
      lastRunError: backups?.latest?.status === 'failed' ? (backups.latest.error ?? null) : null,
    },
    time: now.toISOString(),
  };
}

/** Liveness: the process answers. No dependency is asked (a restart would not bring the database back). */
export function liveness(now: Date): TLiveness {
  return { status: 'alive', time: now.toISOString() };
}

/**
 * Readiness: the database reachable and writable, this build's migrations applied, the job transport
 * (Redis where used) answering and every scheduled job registered. `error` names what is not ready.
 */
export async function readiness(db: DbOrTx, services: Services, now: Date): Promise<TReadiness> {
  const { database, jobs } = services;
  const [dbOk, jobHealth, schedules] = await Promise.all([
    database.ping(),
    jobs.health().catch((err: Error) => ({ ok: false, detail: err.message })),
    missingSchedules(jobs),
  ]);
  const [writable, pending] = dbOk
    ? await Promise.all([databaseWritable(db, database), pendingMigrations(db).catch(() => undefined)])
    : [false, undefined];
  const checks: TReadiness['checks'] = {
    database: dbOk ? { ok: true } : { ok: false, detail: 'database unreachable' },
    databaseWritable: writable ? { ok: true } : { ok: false, detail: 'database not writable' },
    migrations:
      pending === 0
        ? { ok: true }
        : {
            ok: false,
            detail: pending === undefined ? 'migrations unknown' : `${pending} migrations not applied`,
          },
    jobs: jobHealth.ok
      ? { ok: true, ...(jobHealth.detail ? { detail: jobHealth.detail } : {}) }
      : { ok: false, detail: `job queue not reachable${jobHealth.detail ? ` (${jobHealth.detail})` : ''}` },
    schedules:
      schedules instanceof Error
        ? { ok: false, detail: 'schedules unknown (job queue not reachable)' }
        : schedules.length === 0
          ? { ok: true }
          : { ok: false, detail: `schedules missing: ${schedules.join(', ')}` },
  };
  const problems = Object.values(checks).flatMap((c) => (c.ok ? [] : [c.detail ?? 'not ready']));
  return {
    status: problems.length === 0 ? 'ready' : 'not ready',
    ...(problems.length ? { error: `Not ready: ${problems.join('; ')}.` } : {}),
    checks,
    time: now.toISOString(),
  };
}
