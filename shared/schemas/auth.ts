import { z } from 'zod';
import { MESSAGES, PASSWORD_MIN_LENGTH } from '../constants';
import { LANGUAGES } from '../enums';
import { ROLES, STAFF_ROLES } from '../roles';
import { zIntId, zText, zTextId } from './common';

export const ZEmail = zText({ label: 'Email', max: 254, required: 'Email is required.' })
  .toLowerCase()
  .pipe(z.email({ error: 'Enter a valid email address.' }));

/** Passwords are compared after trimming, as the spec counts length after trimming. */
export const ZNewPassword = zText({ label: 'Password', max: 200, missing: 'Password is required.' }).min(
  PASSWORD_MIN_LENGTH,
  MESSAGES.passwordTooShort,
);

export const ZPhone = zText({ label: 'Phone number', max: 32 }).regex(
  /^[+0-9 ()-]*$/,
  'Enter a valid phone number.',
);

export const ZPersonName = zText({ label: 'Name', max: 120, required: 'Name is required.' });

export const ZLoginInput = z.object({
  email: ZEmail,
  /** Not trimmed: compared as typed against the stored hash. */
  password: z
    .string({ error: 'Password is required.' })
    .min(1, 'Password is required.')
    .max(200, 'Password is too long (at most 200 characters).'),
});
export type TLoginInput = z.infer<typeof ZLoginInput>;

/** Any role field a client sends is ignored: registration always creates a CUSTOMER. */
export const ZRegisterInput = z.object({
  name: ZPersonName,
  email: ZEmail,
  phone: ZPhone.optional().default(''),
  password: ZNewPassword,
  /** The device's language: the new account starts with it. */
  language: z.enum(LANGUAGES).optional(),
});
export type TRegisterInput = z.infer<typeof ZRegisterInput>;

export const ZChangePasswordInput = z.object({
  currentPassword: z
    .string({ error: 'Current password is required.' })
    .min(1, 'Current password is required.')
    .max(200, 'Password is too long (at most 200 characters).'),
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
  /** The screens' language on the account: applied at sign-in. */
  language: z.enum(LANGUAGES).optional(),
  /** An ADMIN reset the password to a one-time one: the next screen is the password screen. */
  mustChangePassword: z.boolean().optional(),
});
export type TSessionUser = z.infer<typeof ZSessionUser>;

export const ZSetLanguageInput = z.object({
  language: z.enum(LANGUAGES, { error: 'Language must be en (English) or sw (Kiswahili).' }),
});
export type TSetLanguageInput = z.infer<typeof ZSetLanguageInput>;

export const ZAuthResult = z.object({ token: z.string(), user: ZSessionUser });
export type TAuthResult = z.infer<typeof ZAuthResult>;

export const ZCreateStaffUserInput = z.object({
  name: ZPersonName,
  email: ZEmail,
  phone: ZPhone.optional().default(''),
  password: ZNewPassword,
  role: z.enum(STAFF_ROLES, { error: 'Role must be one of OPS, DRIVER or FUEL.' }),
  driverId: zTextId(MESSAGES.driverIdRequired, 40).optional().nullable(),
});
export type TCreateStaffUserInput = z.infer<typeof ZCreateStaffUserInput>;

export const ZStaffUser = ZSessionUser.extend({
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type TStaffUser = z.infer<typeof ZStaffUser>;

export const ZUserIdInput = z.object({ id: zIntId('Unknown user.') });

export const ZPasswordResetRequest = z.object({ email: ZEmail });
export type TPasswordResetRequest = z.infer<typeof ZPasswordResetRequest>;

export const ZPasswordResetConfirm = z.object({
  token: z
    .string({ error: MESSAGES.resetLinkInvalid })
    .trim()
    .min(16, MESSAGES.resetLinkInvalid)
    .max(200, MESSAGES.resetLinkInvalid)
    .regex(/^[A-Za-z0-9_-]+$/, MESSAGES.resetLinkInvalid),
  newPassword: ZNewPassword,
});
export type TPasswordResetConfirm = z.infer<typeof ZPasswordResetConfirm>;

/** The reset request's answer: the same whether or not the address has an account. */
export const ZPasswordResetAccepted = z.object({ accepted: z.literal(true) });

/** What the password screens may offer: a link by e-mail when SMTP is set up, a code by SMS when SMS is. */
export const ZPasswordOptions = z.object({ emailReset: z.boolean(), smsReset: z.boolean() });

/** An ADMIN's reset: the one-time password, answered once and never stored. */
export const ZOneTimePassword = z.object({ id: z.number(), oneTimePassword: z.string() });
