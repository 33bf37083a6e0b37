import type { DbOrTx } from '../../../drizzle/db';
import { raiseAlert } from '../../../drizzle/outbox';
import { checkFuelLog, litresPer100Km } from '../../../shared/domain/fuel-anomalies';
import {
  FUEL_ANOMALY_MESSAGES,
  type TFuelAnomaly,
  type TFuelAnomalyListInput,
  type TFuelAnomalyReviewInput,
} from '../../../shared/schemas/fuel-anomalies';
import type { CtxUser } from '../../context';
import { appError } from '../../errors';
import * as q from './fuel-anomalies.queries';

/**
 * Checks a just-written fuel log inside the transaction that writes it (called by the fuel service): the
 * findings and their alerts (through the outbox) commit with the log or not at all, and a finding is
 * visible the moment the log is. The reads are one truck's previous log, its last 20 fill intervals and
 * its positions between them (indexed by truck and time), cheap enough for a pump entry.
 */
export async function checkNewFuelLog(
  tx: DbOrTx,
  log: { id: number; truckId: string; litres: number | null; odometer: number | null; capturedAt: Date },
  truck: { tankCapacityL: number | null },
): Promise<number[]> {
  const previous = await q.previousLog(tx, log.truckId, log.capturedAt, log.id);
  const gpsKm = previous ? await q.gpsKmBetween(tx, log.truckId, previous.capturedAt, log.capturedAt) : null;
  const intervals = await q.fillIntervals(tx, log.truckId, log.capturedAt, log.id);
  const history = intervals
    .map((i) => litresPer100Km(i.litres, i.gpsKm))
    .filter((v): v is number => v !== null);
  const findings = checkFuelLog({
    litres: log.litres,
    odometer: log.odometer,
    previous: previous ?? null,
    tankCapacityL: truck.tankCapacityL,
    gpsKm,
    speedKmh: await q.speedNear(tx, log.truckId, log.capturedAt),
    history,
  });
  const ids = await q.insertFindings(tx, log.id, log.truckId, findings);
  for (const id of ids) await raiseAlert(tx, { kind: 'fuel.anomaly', anomalyId: id });
  return ids;
}

export const listAnomalies = (db: DbOrTx, f: TFuelAnomalyListInput): Promise<TFuelAnomaly[]> =>
  q.anomalyRows(db, f ?? { limit: 400 });

/** Marks an open finding reviewed, or dismisses it with a reason; who and when are recorded. */
export async function reviewAnomaly(
  db: DbOrTx,
  user: CtxUser,
  input: TFuelAnomalyReviewInput,
  now: Date,
): Promise<TFuelAnomaly> {
  const closed = await q.closeAnomaly(db, input.id, {
    status: input.decision,
    reason: input.reason ?? null,
    reviewedById: user.id,
    reviewedAt: now,
  });
  if (!closed) {
    if (!(await q.anomalyExists(db, input.id))) throw appError('NOT_FOUND', FUEL_ANOMALY_MESSAGES.notFound);
    throw appError('CONFLICT', FUEL_ANOMALY_MESSAGES.alreadyClosed);
  }
  return (await q.anomalyRows(db, { id: input.id, limit: 1 }))[0]!;
}
