/**
 * The last line of defence against a database hiccup taking a process down. postgres.js rejects every
 * query a connection carried when that connection is cut (pg_terminate_backend, a restart, a proxy
 * dropping it); a query promise nobody was waiting on any more — one raced against a time-out, or
 * issued inside a transaction the cut had already failed — then rejects with no handler, and Node ends
 * the process for it. Such a rejection is logged and the process keeps serving: every request that
 * waited on the database has had its own 503 already. Any other unhandled rejection still ends the
 * process, as Node's default does: it is a bug, and a supervisor restarts a clean process.
 * (server/faults.services.test.ts cuts every connection each second under load; one CI run of it
 * ended with such an orphaned CONNECTION_CLOSED before this.)
 */
import type { Logger } from '../shared/logger';
import { isDatabaseUnavailable } from './errors';

export function survivesLostQueries(reason: unknown, log: Pick<Logger, 'warn'>): boolean {
  if (!isDatabaseUnavailable(reason)) return false;
  log.warn(
    { err: reason },
    'a database query failed after its connection was cut, with nobody waiting for it',
  );
  return true;
}

/** Installs the rule above for this process (server/main.ts, worker/main.ts). */
export function keepRunningOnLostQueries(log: Pick<Logger, 'warn'>): void {
  process.on('unhandledRejection', (reason) => {
    if (survivesLostQueries(reason, log)) return;
    // What Node does without a handler: end the process with the error.
    throw reason;
  });
}
