import type { DbOrTx } from '../../drizzle/db';
import { raiseAlert } from '../../drizzle/outbox';
import { FUEL_DUPLICATE_WINDOW_MS, findFuelDuplicate } from '../../shared/domain/duplicates';
import { fromCents, toCents } from '../../shared/domain/money';
import { MONEY_MESSAGES, type TFuelInput, type TFuelLog } from '../../shared/schemas/money';
import type { Settings } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { assertOverrideMatches, duplicateConflict } from '../common/duplicates';
import { lockTruck } from '../common/trucks';
import { appError } from '../errors';
import { checkNewFuelLog } from '../fuel-anomalies/fuel-anomalies.service';
import { discardUploads, storeImage, uploadStore } from '../uploads/uploads.service';
import * as q from './fuel.queries';

export const listFuelLogs = (db: DbOrTx, limit: number) => q.listFuelLogs(db, limit);

/**
 * A pump reading with its linked FUEL cost, by truck id or plate. The same duplicate flow as costs with
 * the fuel rule (same odometer, or the same litres and cost within 6 h): 409 with the earlier log unless
 * confirmed with its id; a confirmed duplicate is stored flagged, its cost too, and raises an alert.
 */
export async function recordFuel(
  db: DbOrTx,
  settings: Settings,
  user: CtxUser,
  input: TFuelInput,
  now: Date,
): Promise<TFuelLog> {
  const truck = await q.findTruckByIdOrPlate(db, input.truckId);
  if (!truck) throw appError('BAD_REQUEST', MONEY_MESSAGES.unknownTruck);
  const capturedAt = input.capturedAt ?? now;
  const costCents = toCents(input.cost);
  const store = uploadStore(db, settings);
  const photoPath = input.photoData ? await storeImage(store, input.photoData, 'fuel-photo') : null;

  const saving = db.transaction(async (tx) => {
    await lockTruck(tx, 'fuel', truck.id);
    const candidate = {
      truckId: truck.id,
      odometer: input.odometer,
      litres: input.litres,
      costCents,
      capturedAt,
    };
    const match = findFuelDuplicate(candidate, await q.fuelLogsNear(tx, candidate, FUEL_DUPLICATE_WINDOW_MS));
    if (match && !input.overrideDuplicate) {
      throw duplicateConflict(MONEY_MESSAGES.fuelDuplicate, {
        id: match.id,
        truck_id: match.truckId,
        litres: match.litres,
        odometer: match.odometer,
        cost: fromCents(match.costCents),
        captured_at: match.capturedAt.toISOString(),
        note: match.note,
        duplicate_of: match.duplicateOf,
      });
    }
    if (match) assertOverrideMatches(input.duplicateOf, match);
    const confirmed = { isDuplicate: true, confirmedAt: now, confirmedById: user.id };
    const cost =
      costCents > 0
        ? await q.insertFuelCost(tx, {
            truckId: truck.id,
            amountCents: costCents,
            description: `Fuel${input.litres !== null ? ` ${input.litres} L` : ''}${input.note ? `: ${input.note}` : ''}`,
            incurredAt: capturedAt,
            createdById: user.id,
            ...(match ? { ...confirmed, duplicateOf: match.costId } : {}),
          })
        : null;
    const row = await q.insertFuelLog(tx, {
      truckId: truck.id,
      litres: input.litres,
      odometer: input.odometer,
      costCents,
      note: input.note || null,
      capturedAt,
      photoPath,
      driverId: truck.primaryDriverId,
      costId: cost?.id ?? null,
      createdById: user.id,
      ...(match ? { ...confirmed, duplicateOf: match.id } : {}),
    });
    if (row.isDuplicate) await raiseAlert(tx, { kind: 'duplicate.flagged', entity: 'fuel', id: row.id });
    // A confirmed duplicate is already flagged for the audit console; anything else is checked for anomalies.
    else await checkNewFuelLog(tx, row, truck);
    await recordChange(tx, { entity: 'fuel', entityId: row.id, after: row });
    if (cost)
      await recordChange(tx, {
        entity: 'cost',
        entityId: cost.id,
        after: {
          type: 'FUEL',
          source: 'FUEL',
          truckId: truck.id,
          amount: fromCents(costCents),
          fuelLogId: row.id,
        },
      });
    return row;
  });
  // A refused entry (a suspected duplicate, say) leaves no photo behind.
  const log = await saving.catch(discardUploads(store, [photoPath]));
  return (await q.listFuelLogs(db, 1, log.id))[0]!;
}
