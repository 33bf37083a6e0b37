import type { DbOrTx } from '../../drizzle/db';
import { MESSAGES } from '../../shared/constants';
import type { TCreateStaffUserInput, TStaffUser } from '../../shared/schemas/auth';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import type { UserRow } from '../auth/auth.queries';
import { insertNewUser, sessionUser, userView } from '../auth/auth.service';
import { hashPassword } from '../auth/passwords';
import { appError } from '../errors';
import { driverHasAccount, insertDriverIfMissing, setDisabled, staffRows, userById } from './users.queries';

function toStaffUser(row: UserRow): TStaffUser {
  // The staff list says nothing about anyone's password, not even that one must be changed.
  const { mustChangePassword: _, ...user } = sessionUser(row);
  return { ...user, disabled: row.disabledAt !== null, createdAt: row.createdAt.toISOString() };
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
    const row = await insertNewUser(tx, { ...input, driverId, passwordHash });
    await recordChange(tx, { entity: 'user', entityId: row.id, after: userView(row) });
    return toStaffUser(row);
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
  return db.transaction(async (tx) => {
    const before = await userById(tx, userId);
    const row = await setDisabled(tx, userId, disabled, now);
    if (!row || !before) throw appError('NOT_FOUND', 'User not found.');
    await recordChange(tx, {
      entity: 'user',
      entityId: row.id,
      before: userView(before),
      after: userView(row),
    });
    return toStaffUser(row);
  });
}
