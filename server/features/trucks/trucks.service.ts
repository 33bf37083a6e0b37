import type { DbOrTx } from '../../../drizzle/db';
import type { trucks } from '../../../drizzle/schema';
import {
  FLEET_MESSAGES,
  type TGrossLimit,
  type TGrossLimitInput,
  type TTruck,
  type TTruckCreateInput,
  type TTruckUpdateInput,
} from '../../../shared/schemas/fleet';
import type { CtxUser } from '../../context';
import { appError } from '../../errors';
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
  await upsertGrossLimit(db, input.axles, input.grossT, user.id, now);
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
  const inserted = await insertTruck(db, {
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
  if (user.role === 'OPS' && touched.some((k) => k !== 'primaryDriverId')) {
    throw appError('FORBIDDEN', FLEET_MESSAGES.opsDriverOnly);
  }
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
  if (!(await updateTruck(db, id, set))) throw appError('NOT_FOUND', FLEET_MESSAGES.unknownTruck);
  return (await truckRows(db, id))[0]!;
}
