import type { DbOrTx } from '../../drizzle/db';
import type { TQueueSession } from '../../shared/schemas/queues';
import type { Settings } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { signToken, verifyToken } from '../auth/tokens';
import { findUser } from './queues.queries';

export const QUEUE_COOKIE = 'mchanga_queues';
export const QUEUE_BASE = '/admin/queues';
const AUDIENCE = 'mchanga-queues';
const TTL_SECONDS = 15 * 60;
/** The dashboard cookie: HttpOnly, scoped to the dashboard's path, same-site only. */
export const QUEUE_COOKIE_OPTIONS = {
  path: QUEUE_BASE,
  httpOnly: true,
  sameSite: 'strict',
  maxAge: TTL_SECONDS,
} as const;

/**
 * A browser tab cannot send the bearer token, so opening the dashboard sets a short-lived signed HttpOnly
 * cookie scoped to its path. It carries the ADMIN's token version: logging out everywhere revokes it too.
 */
export async function openQueueSession(
  db: DbOrTx,
  user: CtxUser,
  settings: Pick<Settings, 'jwtSecret'>,
): Promise<{ token: string; session: TQueueSession }> {
  const row = await findUser(db, user.id);
  // Who opened the dashboard and when: what they do there (retry, promote, clean) happens in Redis.
  await db.transaction((tx) =>
    recordChange(tx, {
      entity: 'queueDashboard',
      entityId: null,
      changes: { session: { from: null, to: `${TTL_SECONDS} s` } },
    }),
  );
  const token = await signToken(
    { userId: user.id, role: 'ADMIN', version: row?.tokenVersion ?? 0 },
    settings.jwtSecret,
    `${TTL_SECONDS}s`,
    AUDIENCE,
  );
  return { token, session: { url: QUEUE_BASE, expiresInSeconds: TTL_SECONDS } };
}

/** Every dashboard request: a valid cookie of a user who is still an active ADMIN with the same token version. */
export async function queueCookieValid(
  db: DbOrTx,
  settings: Pick<Settings, 'jwtSecret'>,
  token: string | undefined,
): Promise<boolean> {
  if (!token) return false;
  const verified = await verifyToken(token, settings.jwtSecret, AUDIENCE);
  if (!verified.ok) return false;
  const row = await findUser(db, verified.claims.userId);
  return Boolean(
    row && row.role === 'ADMIN' && !row.disabledAt && row.tokenVersion === verified.claims.version,
  );
}
