import type { AlertKind } from '../shared/jobs';
import type { AppDeps } from './context';

/**
 * Queues a business alert. An alert must never fail the action that caused it (a customer's order is
 * taken even while Redis is down), so a transport error is logged, not thrown.
 */
export async function emitAlert(
  deps: Pick<AppDeps, 'jobs' | 'log'>,
  kind: AlertKind,
  refId: string | number,
) {
  try {
    await deps.jobs.enqueue('alert.fanout', { kind, refId: String(refId) });
  } catch (err) {
    deps.log.warn({ err, kind, refId }, 'alert not queued');
  }
}
