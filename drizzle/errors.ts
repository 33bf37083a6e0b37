/**
 * Is this error (or anything in its cause chain) the database being unreachable or overloaded, rather
 * than something wrong with the request? Those answer 503, never 500.
 */
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
]);

// SQLSTATE: class 08 connection exceptions; 57P01-03 shutdown / cannot connect now; 57014 statement
// timeout or cancel; 53300 too many connections; 55P03 lock not available (lock_timeout); 25P03 idle
// in transaction timeout.
const SQLSTATES = /^(08\d{3}|57P0[123]|57014|53300|55P03|25P03)$/;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 8; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (DRIVER_CODES.has(code) || SQLSTATES.test(code))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
