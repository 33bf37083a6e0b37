import { z } from 'zod';
import { MESSAGES, PASSWORD_MIN_LENGTH } from '../constants';
import { ROLES, STAFF_ROLES } from '../roles';

export const ZEmail = z
  .string({ error: 'Email is required.' })
  .trim()
  .toLowerCase()
  .max(254, 'Email is too long.')
  .pipe(z.email({ error: 'Enter a valid email address.' }));

/** Passwords are compared after trimming, as the spec counts length after trimming. */
export const ZNewPassword = z
  .string({ error: 'Password is required.' })
  .trim()
  .min(PASSWORD_MIN_LENGTH, MESSAGES.passwordTooShort)
  .max(200, 'Password is too long.');

export const ZPhone = z
  .string()
  .trim()
  .max(32, 'Phone number is too long.')
  .regex(/^[+0-9 ()-]*$/, 'Enter a valid phone number.');

export const ZPersonName = z
  .string({ error: 'Name is required.' })
  .trim()
  .min(1, 'Name is required.')
  .max(120, 'Name is too long.');

export const ZLoginInput = z.object({
  email: ZEmail,
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(200),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

/** Any role field a client sends is ignored: registration always creates a CUSTOMER. */
export const ZRegisterInput = z.object({
  name: ZPersonName,
  email: ZEmail,
  phone: ZPhone.optional().default(''),
  password: ZNewPassword,
});
export type TRegisterInput = z.infer<typeof ZRegisterInput>;

export const ZChangePasswordInput = z.object({
  currentPassword: z
    .string({ error: 'Current password is required.' })
    .min(1, 'Current password is required.'),
  newPassword: ZNewPassword,
});

export const ZRole = z.enum(ROLES);

export const ZSessionUser = z.object({
  id: z.number().int(),
  role: ZRole,
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  driverId: z.string().nullable().optional(),
});
export type TSessionUser = z.infer<typeof ZSessionUser>;

export const ZAuthResult = z.object({ token: z.string(), user: ZSessionUser });
export type TAuthResult = z.infer<typeof ZAuthResult>;

export const ZCreateStaffUserInput = z.object({
  name: ZPersonName,
  email: ZEmail,
  phone: ZPhone.optional().default(''),
  password: ZNewPassword,
  role: z.enum(STAFF_ROLES, { error: 'Role must be one of OPS, DRIVER or FUEL.' }),
  driverId: z.string().trim().min(1).max(64).optional().nullable(),
});
export type TCreateStaffUserInput = z.infer<typeof ZCreateStaffUserInput>;

export const ZStaffUser = ZSessionUser.extend({
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type TStaffUser = z.infer<typeof ZStaffUser>;

export const ZUserIdInput = z.object({ id: z.coerce.number().int().positive('Unknown user.') });
