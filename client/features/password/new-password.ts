import { MESSAGES, PASSWORD_MIN_LENGTH } from '../../../shared/constants';

/** The courtesy check both password forms make before sending a new password (the server checks again). */
export function newPasswordProblem(next: string, confirm: string): string | null {
  if (next.trim().length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordTooShort;
  if (next !== confirm) return MESSAGES.passwordsDoNotMatch;
  return null;
}
