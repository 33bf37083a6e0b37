/** postgres-js's own codes for a connection that is gone or never came. */
const DRIVER_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'GARBLED_ANSWER',
]);

/** A query answered something it cannot have (a sparse or misrouted result): the driver is at fault. */
export class GarbledAnswerError extends Error {
  readonly code = 'GARBLED_ANSWER';
  constructor() {
    super('The database answered a garbled result.');
    this.name = 'GarbledAnswerError';
  }
}

// SQLSTATE: class 08 connection exceptions; 57P01-05 shutdown, cannot connect now, database dropped, idle
// session time-out; class 53 insufficient resources (disk full, out of memory, too many connections);
// class 58 system errors (I/O); 25006 a read-only transaction (a standby, or the database set read-only).
const DOWN_SQLSTATES = /^(08\d{3}|57P0[1-5]|53\d{3}|58\d{3}|25006)$/;
// And the database being busy: 57014 statement time-out or cancel; 55P03 lock not available
// (lock_timeout); 25P03 idle in transaction time-out.
const BUSY_SQLSTATES = /^(57014|55P03|25P03)$/;

function someCause(err: unknown, test: (e: { code?: unknown; severity?: unknown }) => boolean): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    if (test(e as { code?: unknown })) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Is this (or anything in its cause chain) the database unable to serve or to write at all: unreachable,
 * refusing connections (connections not allowed, too many, shutting down: PostgreSQL ends those sessions
 * with a FATAL error), out of disk or memory, or read-only? Nothing the request did; it passes when the
 * database is back. Background jobs wait for it without spending an attempt (core/jobs/context.ts).
 */
export function isDatabaseDown(err: unknown): boolean {
  return someCause(err, (e) => {
    if (typeof e.code === 'string' && (DRIVER_CODES.has(e.code) || DOWN_SQLSTATES.test(e.code))) return true;
    return e.severity === 'FATAL' || e.severity === 'PANIC';
  });
}

/**
 * The database down (isDatabaseDown) or too busy to answer in time (a statement or lock time-out): a
 * request answers 503, never 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return (
    isDatabaseDown(err) || someCause(err, (e) => typeof e.code === 'string' && BUSY_SQLSTATES.test(e.code))
  );
}

/**
 * Is this the database refusing these rows (SQLSTATE class 22 data exception, 23 integrity violation,
 * 54 program limit), rather than the database being away? The telemetry job sets only those aside
 * (quarantined rows, a skipped geofence step); anything else fails the job, which runs again.
 */
export function isRowError(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^(22|23|54)[0-9A-Z]{3}$/.test(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
