/**
 * The one cents ↔ KES conversion. Money is integer cents in the database and in every SQL answer; the API,
 * the screens and the documents speak KES. Convert at the edge with these two, nowhere else (no `/ 100`,
 * no `* 100`), and show amounts with formatMoney (shared/domain/format.ts).
 */

/**
 * KES → integer cents, rounded half away from zero once (as PostgreSQL's round() does, so a cents value
 * computed here and one computed in SQL agree). The product is read back at 15 significant digits first,
 * so binary noise does not decide the rounding: 1.005 KES is 101 cents, 0.1 + 0.2 KES is 30. Exact to
 * the cent up to KES 9,999,999,999,999.99; beyond what a JS number counts in cents it throws.
 */
export function toCents(kes: number): number {
  const raw = Math.abs(kes * 100);
  if (!Number.isFinite(raw)) throw new RangeError(`Not an amount of money: ${kes}`);
  // Past 15 digits a double holds no fraction of a cent worth reading: round what is there.
  const cents = Math.round(raw < 1e15 ? Number(raw.toPrecision(15)) : raw);
  if (cents > Number.MAX_SAFE_INTEGER) throw new RangeError(`Too much money to count in cents: ${kes}`);
  return kes < 0 && cents !== 0 ? -cents : cents;
}

/**
 * Cents → KES. Takes what a driver hands back for a cents column or sum (a number, a numeric string or a
 * bigint; null as 0), whole cents first, so a float8 sum's noise never shows.
 */
export function fromCents(cents: number | string | bigint | null | undefined): number {
  const whole = Math.round(Number(cents ?? 0));
  return (whole || 0) / 100; // never -0
}
