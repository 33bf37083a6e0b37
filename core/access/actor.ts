import type { users } from '../../drizzle/schema';
import type { Role } from '../../shared/roles';

/** Who is acting: the signed-in user as every use case and access rule sees them. */
export interface CtxUser {
  id: number;
  role: Role;
  name: string;
  email: string;
  phone: string | null;
  driverId: string | null;
  /** The screens' language on this account (en or sw). */
  language?: 'en' | 'sw';
  /** Signed in with a one-time password from an ADMIN: only the password calls answer until it is changed. */
  mustChangePassword?: boolean;
}

export function toCtxUser(row: typeof users.$inferSelect): CtxUser {
  return {
    id: row.id,
    role: row.role,
    name: row.name,
    email: row.email,
    phone: row.phone,
    driverId: row.driverId,
    language: row.language,
    mustChangePassword: row.mustChangePassword,
  };
}
