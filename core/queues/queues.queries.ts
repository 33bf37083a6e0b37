import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { users } from '../../drizzle/schema';

export async function findUser(db: DbOrTx, id: number) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}
