import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../../drizzle/db';
import { drivers } from '../../../drizzle/schema';
import { FLEET_MESSAGES, type TDriver, type TDriverProfileInput } from '../../../shared/schemas/fleet';
import type { Config } from '../../config';
import { appError } from '../../errors';
import { storeImage } from '../../uploads';

export function toDriver(row: typeof drivers.$inferSelect): TDriver {
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

/** Saves a driver's details and any new ID or profile photo (checked, re-encoded, stored first). */
export async function updateDriverProfile(
  db: DbOrTx,
  config: Pick<Config, 'dataDir'>,
  driverId: string,
  input: TDriverProfileInput,
  now: Date,
): Promise<TDriver> {
  const nationalIdPath = input.nationalIdData
    ? await storeImage(config, input.nationalIdData, 'national-id')
    : undefined;
  const photoPath = input.photoData ? await storeImage(config, input.photoData, 'driver-photo') : undefined;
  const [row] = await db
    .update(drivers)
    .set({
      name: input.name,
      email: input.email ?? null,
      phone: input.phone ?? null,
      ...(nationalIdPath ? { nationalIdPath } : {}),
      ...(photoPath ? { photoPath } : {}),
      updatedAt: now,
    })
    .where(eq(drivers.id, driverId))
    .returning();
  if (!row) throw appError('NOT_FOUND', FLEET_MESSAGES.unknownDriver);
  return toDriver(row);
}
