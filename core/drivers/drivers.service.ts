import type { DbOrTx } from '../../drizzle/db';
import {
  FLEET_MESSAGES,
  type TDriver,
  type TDriverCreateInput,
  type TDriverProfileInput,
} from '../../shared/schemas/fleet';
import { recordChange } from '../activity/activity';
import { appError } from '../errors';
import {
  discardUploads,
  storeImage,
  type UploadConfig,
  uploadStore,
  withUploads,
} from '../uploads/uploads.service';
import { type DriverRow, driverRows, insertDriver, lockDriver, updateDriver } from './drivers.queries';

export function toDriver(row: DriverRow): TDriver {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    nationalIdPath: row.nationalIdPath,
    photoPath: row.photoPath,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listDrivers(db: DbOrTx): Promise<TDriver[]> {
  return (await driverRows(db)).map(toDriver);
}

export async function createDriver(db: DbOrTx, input: TDriverCreateInput): Promise<TDriver> {
  return db.transaction(async (tx) => {
    const row = await insertDriver(tx, {
      id: input.id,
      name: input.name,
      email: input.email ?? null,
      phone: input.phone ?? null,
    });
    if (!row) throw appError('CONFLICT', FLEET_MESSAGES.driverIdTaken);
    const after = toDriver(row);
    await recordChange(tx, { entity: 'driver', entityId: row.id, after });
    return after;
  });
}

/**
 * Saves a driver's details and any new ID or profile photo (checked, re-encoded, stored first). The
 * photos a new one replaces are deleted once the row is saved; new ones are deleted if it is not.
 */
export async function updateDriverProfile(
  db: DbOrTx,
  config: UploadConfig,
  driverId: string,
  input: TDriverProfileInput,
  now: Date,
): Promise<TDriver> {
  const store = uploadStore(db, config);
  const nationalIdPath = input.nationalIdData
    ? await storeImage(store, input.nationalIdData, 'national-id')
    : undefined;
  const photoPath = input.photoData
    ? await storeImage(store, input.photoData, 'driver-photo').catch(discardUploads(store, [nationalIdPath]))
    : undefined;
  const row = await withUploads(store, [nationalIdPath, photoPath], () =>
    db.transaction(async (tx) => {
      const before = await lockDriver(tx, driverId);
      if (!before) throw appError('NOT_FOUND', FLEET_MESSAGES.unknownDriver);
      const result = await updateDriver(tx, driverId, {
        name: input.name,
        email: input.email ?? null,
        phone: input.phone ?? null,
        ...(nationalIdPath ? { nationalIdPath } : {}),
        ...(photoPath ? { photoPath } : {}),
        updatedAt: now,
      });
      if (!result) throw appError('NOT_FOUND', FLEET_MESSAGES.unknownDriver);
      await recordChange(tx, {
        entity: 'driver',
        entityId: driverId,
        before: toDriver(before),
        after: toDriver(result),
      });
      const replaced = [nationalIdPath ? before.nationalIdPath : null, photoPath ? before.photoPath : null];
      return { result, replaced };
    }),
  );
  return toDriver(row);
}
