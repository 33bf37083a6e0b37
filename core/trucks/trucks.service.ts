import type { DbOrTx } from '../../drizzle/db';
import { trucks } from '../../drizzle/schema';
import {
  FLEET_MESSAGES,
  type TGrossLimit,
  type TGrossLimitInput,
  type TTruck,
  type TTruckCreateInput,
  type TTruckUpdateInput,
} from '../../shared/schemas/fleet';
import type { CtxUser } from '../access/actor';
import { mayEditTruckFields } from '../access/rules';
import { recordChange } from '../activity/activity';
import { lockedRow } from '../activity/activity.queries';
import { appError } from '../errors';
import {
  deviceTakenByOther,
  driverExists,
  insertTruck,
  listGrossLimits,
  truckRows,
  updateTruck,
  upsertGrossLimit,
} from './trucks.queries';

export const grossLimits = (db: DbOrTx): Promise<TGrossLimit[]> => listGrossLimits(db);

/** ADMIN edits one axle count's limit; later assignments are checked against it. */
export async function setGrossLimit(
  db: DbOrTx,
  user: CtxUser,
  input: TGrossLimitInput,
  now: Date,
): Promise<TGrossLimit[]> {
  await db.transaction(async (tx) => {
    const before = (await listGrossLimits(tx)).find((g) => g.axles === input.axles) ?? null;
    await upsertGrossLimit(tx, input.axles, input.grossT, user.id, now);
    const after = (await listGrossLimits(tx)).find((g) => g.axles === input.axles) ?? null;
    await recordChange(tx, { entity: 'grossLimit', entityId: input.axles, before, after });
  });
  return listGrossLimits(db);
}

async function assertDriverExists(db: DbOrTx, driverId: string | null | undefined) {
  if (driverId && !(await driverExists(db, driverId)))
    throw appError('BAD_REQUEST', FLEET_MESSAGES.unknownDriver);
}

async function assertDeviceFree(db: DbOrTx, deviceId: string | null | undefined, truckId: string) {
  if (deviceId && (await deviceTakenByOther(db, deviceId, truckId)))
    throw appError('CONFLICT', FLEET_MESSAGES.deviceTaken);
}

export function listTrucks(db: DbOrTx): Promise<TTruck[]> {
  return truckRows(db);
}

export async function createTruck(db: DbOrTx, input: TTruckCreateInput): Promise<TTruck> {
  await assertDriverExists(db, input.primaryDriverId);
  await assertDeviceFree(db, input.deviceId, input.id);
  await db.transaction(async (tx) => {
    const inserted = await insertTruck(tx, {
      id: input.id,
      plate: input.plate,
      capacityT: input.capacityT,
      primaryDriverId: input.primaryDriverId ?? null,
      deviceId: input.deviceId ?? null,
      axles: input.axles,
      tareT: input.tareT ?? null,
      tankCapacityL: input.tankCapacityL ?? null,
    });
    if (!inserted) throw appError('CONFLICT', FLEET_MESSAGES.truckIdTaken);
    await recordChange(tx, {
      entity: 'truck',
      entityId: input.id,
      after: await lockedRow(tx, trucks, input.id),
    });
  });
  return (await truckRows(db, input.id))[0]!;
}

/** ADMIN edits everything but the id; OPS may only reassign the primary driver (the fleet map). */
export async function editTruck(
  db: DbOrTx,
  user: CtxUser,
  input: TTruckUpdateInput,
  now: Date,
): Promise<TTruck> {
  const { id, ...changes } = input;
  const touched = Object.entries(changes)
    .filter(([, v]) => v !== undefined)
    .map(([k]) => k);
  if (!mayEditTruckFields(user, touched)) throw appError('FORBIDDEN', FLEET_MESSAGES.opsDriverOnly);
  await assertDriverExists(db, changes.primaryDriverId);
  await assertDeviceFree(db, changes.deviceId, id);
  const set: Partial<typeof trucks.$inferInsert> = { updatedAt: now };
  if (changes.plate !== undefined) set.plate = changes.plate;
  if (changes.capacityT !== undefined) set.capacityT = changes.capacityT;
  if (changes.primaryDriverId !== undefined) set.primaryDriverId = changes.primaryDriverId;
  if (changes.deviceId !== undefined) set.deviceId = changes.deviceId;
  if (changes.axles !== undefined) set.axles = changes.axles;
  if (changes.tareT !== undefined) set.tareT = changes.tareT;
  if (changes.tankCapacityL !== undefined) set.tankCapacityL = changes.tankCapacityL;
  await db.transaction(async (tx) => {
    const before = await lockedRow(tx, trucks, id);
    if (!(await updateTruck(tx, id, set))) throw appError('NOT_FOUND', FLEET_MESSAGES.unknownTruck);
    await recordChange(tx, { entity: 'truck', entityId: id, before, after: await lockedRow(tx, trucks, id) });
  });
  return (await truckRows(db, id))[0]!;
}
