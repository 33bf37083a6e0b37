import { MONEY_MESSAGES } from '../../shared/schemas/money';
import { appError } from '../errors';

/** The 409 a suspected duplicate gets: the form shows `existing` beside the new entry (DuplicateConflict). */
export function duplicateConflict(message: string, existing: Record<string, unknown>) {
  return appError('CONFLICT', message, { duplicate: true, message, existing });
}

/** An override must name the entry it knowingly duplicates. */
export function assertOverrideMatches(duplicateOf: number | undefined, match: { id: number }) {
  if (duplicateOf !== match.id) throw appError('BAD_REQUEST', MONEY_MESSAGES.duplicateOfMismatch);
}
