import { timingSafeEqual } from 'node:crypto';
import type { Settings } from '../../shared/settings';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may read /metrics (the server's, and the worker's with METRICS_PORT): `Authorization: Bearer
 * <METRICS_TOKEN>`. The answer for a request that may not: 404 while no token is set (nothing to find),
 * 401 without the right token. Undefined: go ahead.
 */
export function metricsRefusal(settings: Pick<Settings, 'metrics'>, authorization: string | undefined) {
  const token = settings.metrics.token;
  if (!token) return { status: 404, body: { error: 'Not found.' } };
  const given = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
  if (!given || !sameSecret(given, token))
    return { status: 401, body: { error: 'A valid metrics token is required (Authorization: Bearer).' } };
  return undefined;
}
