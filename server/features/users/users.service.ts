import type { DbOrTx } from '../../../drizzle/db';
import { MESSAGES } from '../../../shared/constants';
import type { TCreateStaffUserInput, TStaffUser } from '../../../shared/schemas/auth';
import { hashPassword } from '../../auth/passwords';
import type { CtxUser } from '../../context';
import { appError } from '../../errors';
import type { UserRow } from '../auth/auth.queries';
import { insertNewUser, sessionUser } from '../auth/auth.service';
import { driverHasAccount, insertDriverIfMissing, setDisabled, staffRows } from './users.queries';

function toStaffUser(row: UserRow): TStaffUser {
  return { ...sessionUser(row), disabled: row.disabledAt !== null, createdAt: row.createdAt.toISOString() };
}

export async function listStaff(db: DbOrTx): Promise<TStaffUser[]> {
  return (await staffRows(db)).map(toStaffUser);
}

/** OPS, DRIVER or FUEL; a DRIVER account is linked to one driver profile (made from its details when new). */
export async function createStaffUser(db: DbOrTx, input: TCreateStaffUserInput): Promise<TStaffUser> {
  const driverId = input.role === 'DRIVER' ? input.driverId : null;
  if (input.role === 'DRIVER' && !driverId) throw appError('BAD_REQUEST', MESSAGES.driverIdRequired);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    if (driverId) {
      if (await driverHasAccount(tx, driverId))
        throw appError('CONFLICT', 'That driver ID already has an account.');
      await insertDriverIfMissing(tx, driverId, input);
    }
    return toStaffUser(await insertNewUser(tx, { ...input, driverId, passwordHash }));
  });
}

export async function setUserDisabled(
  db: DbOrTx,
  admin: CtxUser,
  userId: number,
  disabled: boolean,
  now: Date,
): Promise<TStaffUser> {
  if (disabled && userId === admin.id) throw appError('BAD_REQUEST', 'You cannot disable your own account.');
  const row = await setDisabled(db, userId, disabled, now);
  if (!row) throw appError('NOT_FOUND', 'User not found.');
  return toStaffUser(row);
}
