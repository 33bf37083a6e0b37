/** Business constants and user-facing messages from the product spec (sections 5, 8 and 9). */

export const TRUCK_LOAD_TONNES = 20;
export const MIN_TRUCKS_PER_ORDER = 1;
export const MAX_TRUCKS_PER_ORDER = 20;
export const PASSWORD_MIN_LENGTH = 8;
export const BUSINESS_TIME_ZONE = 'Africa/Nairobi';
/**
 * Nairobi's offset from UTC: East Africa Time, UTC+3 all year with no summer time since 1960 (the tz
 * database). Dates and clock times of the business are worked out from it without Intl
 * (shared/domain/business-clock.ts); business-clock.test.ts holds it to Intl's zone data.
 */
export const BUSINESS_UTC_OFFSET_MINUTES = 180;

export const MESSAGES = {
  invalidLogin: 'Invalid email or password.',
  emailTaken: 'An account with this email already exists. Please sign in instead.',
  passwordTooShort: 'Password must be at least 8 characters long.',
  passwordsDoNotMatch: 'Passwords do not match.',
  signInRequired: 'Please sign in to continue.',
  databaseUnavailable: 'The service is busy or restarting. Please try again in a moment.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  forbidden: 'You do not have access to this.',
  accountDisabled: 'This account has been disabled. Please contact an admin.',
  tooManyAttempts: (minutes: number) =>
    `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
  driverIdRequired: 'A DRIVER account must be linked to a driver ID.',
  unknownDriver: 'No driver with that ID exists.',
  currentPasswordWrong: 'Your current password is not correct.',
  mustChangePassword: 'Choose a new password before you go on.',
  resetLinkInvalid: 'This reset link is invalid, expired or already used. Ask for a new one.',
  resetOwnPassword: 'Change your own password on the password screen.',
  resetStaffOnly: 'Only staff passwords are reset here; customers reset theirs by e-mail.',
} as const;

/** How long an e-mailed password reset link works. */
export const PASSWORD_RESET_TTL_MINUTES = 30;
