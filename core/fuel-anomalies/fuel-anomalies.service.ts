import type { DbOrTx } from '../../drizzle/db';
import { raiseAlert } from '../../drizzle/outbox';
import { checkFuelLog, litresPer100Km } from '../../shared/domain/fuel-anomalies';
import {
  FUEL_ANOMALY_MESSAGES,
  type TFuelAnomaly,
  type TFuelAnomalyListInput,
  type TFuelAnomalyReviewInput,
} from '../../shared/schemas/fuel-anomalies';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { appError } from '../errors';
import * as q from './fuel-anomalies.queries';

/**
 * Checks a just-written fuel log inside the transaction that writes it (called by the fuel service): the
 * findings and their alerts (through the outbox) commit with the log or not at all, and a finding is
 * visible the moment the log is. The reads cost the same at any history: the previous log, two probes of
 * the truck's GPS odometer (core/telemetry/odometer.ts) and the km stored on its last 20 logs. The km
 * found is stored on the log; fixes that arrive later run this again (`recheckAfterFixes`).
 */
export async function checkNewFuelLog(
  tx: DbOrTx,
  log: { id: number; truckId: string; litres: number | null; odometer: number | null; capturedAt: Date },
  truck: { tankCapacityL: number | null },
): Promise<number[]> {
  const previous = await q.previousLog(tx, log.truckId, log.capturedAt, log.id);
  const gpsKm = previous ? await q.gpsKmBetween(tx, log.truckId, previous.capturedAt, log.capturedAt) : null;
  await q.setGpsKm(tx, log.id, gpsKm);
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
  // A log entered late (captured before others) is now the previous log of the one after it.
  await refreshFollowingKm(tx, log.truckId, log.capturedAt, log.id);
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
  await db.transaction(async (tx) => {
    const closed = await q.closeAnomaly(tx, input.id, {
      status: input.decision,
      reason: input.reason ?? null,
      reviewedById: user.id,
      reviewedAt: now,
    });
    if (!closed) {
      if (!(await q.anomalyExists(tx, input.id))) throw appError('NOT_FOUND', FUEL_ANOMALY_MESSAGES.notFound);
      throw appError('CONFLICT', FUEL_ANOMALY_MESSAGES.alreadyClosed);
    }
    await recordChange(tx, {
      entity: 'fuelAnomaly',
      entityId: input.id,
      before: { status: 'open' },
      after: { status: input.decision, reason: input.reason ?? null },
    });
  });
  return (await q.anomalyRows(db, { id: input.id, limit: 1 }))[0]!;
}

/**
 * Late GPS (issue 17's open note): fixes written after a fuel log was checked may fall in its interval,
 * or the next log's. Re-runs the checks for the truck's logs captured at or after the earliest new fix:
 * the stored km is brought up to date and any new finding raised (findings already made stay, once).
 */
export async function recheckAfterFixes(db: DbOrTx, truckId: string, from: Date): Promise<number> {
  const logs = await q.logsCapturedSince(db, truckId, from);
  for (const log of logs)
    await db.transaction((tx) => checkNewFuelLog(tx, log, { tankCapacityL: log.tankCapacityL }));
  return logs.length;
}

/**
 * The km stored on the truck's first live log captured after `at` (other than `exceptId`), measured again
 * from its own previous live log: after a log is added before it or a log before it is voided.
 */
export async function refreshFollowingKm(db: DbOrTx, truckId: string, at: Date, exceptId = 0) {
  const [next] = (await q.logsCapturedSince(db, truckId, at, 3)).filter(
    (l) => l.id !== exceptId && l.capturedAt.getTime() > at.getTime(),
  );
  if (!next) return;
  const previous = await q.previousLog(db, truckId, next.capturedAt, next.id);
  await q.setGpsKm(
    db,
    next.id,
    previous ? await q.gpsKmBetween(db, truckId, previous.capturedAt, next.capturedAt) : null,
  );
}
