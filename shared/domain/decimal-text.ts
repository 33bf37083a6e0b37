/**
 * Numbers written out as en-KE and sw-KE write them ("1,234,567.5": a comma between thousands, a point
 * before the decimals; both languages the same), without Intl. The first Intl formatter a page makes costs
 * Chromium ~40 ms of main thread (ICU loading its locale data: ~160 ms on a phone 4× slower), and every
 * screen formats a figure in its first render: that was the longest task of a cold landing page (issue 28).
 * The figures are the ones Intl.NumberFormat gives, digit for digit (decimal-text.test.ts compares them
 * over tens of thousands of values): rounded half away from zero on the number's shortest decimal form,
 * as ICU rounds. A value this cannot write plainly (not finite, or in exponent form) answers null, and the
 * caller asks Intl.
 */

/** "1234567" → "1,234,567" (digits only). */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Adds one to the last digit of a string of digits ("0999" → "1000", "99" → "100"). */
function incremented(digits: string): string {
  const out = digits.split('');
  let i = out.length - 1;
  while (i >= 0 && out[i] === '9') {
    out[i] = '0';
    i -= 1;
  }
  if (i < 0) return `1${out.join('')}`;
  out[i] = String(Number(out[i]) + 1);
  return out.join('');
}

/**
 * `n` with between `minFraction` and `maxFraction` decimals, grouped: what
 * `new Intl.NumberFormat('en-KE', { minimumFractionDigits, maximumFractionDigits }).format(n)` gives.
 * A negative number (negative zero too, as Intl writes it) takes "-".
 */
export function decimalText(n: number, minFraction: number, maxFraction: number): string | null {
  if (!Number.isFinite(n)) return null;
  const shortest = String(Math.abs(n));
  if (shortest.includes('e')) return null;
  const [whole = '0', fraction = ''] = shortest.split('.');
  const kept = Math.min(fraction.length, maxFraction);
  let digits = whole + fraction.slice(0, kept);
  if (fraction.length > maxFraction && fraction.charCodeAt(maxFraction) >= 53 /* "5" */) {
    digits = incremented(digits);
  }
  let decimals = digits.slice(digits.length - kept);
  const integer = digits.slice(0, digits.length - kept).replace(/^0+(?=\d)/, '');
  while (decimals.length > minFraction && decimals.endsWith('0')) decimals = decimals.slice(0, -1);
  decimals = decimals.padEnd(minFraction, '0');
  const negative = n < 0 || Object.is(n, -0);
  return `${negative ? '-' : ''}${groupThousands(integer)}${decimals ? `.${decimals}` : ''}`;
}

/** The compact units, largest first; below a thousand the figure stands alone. */
const COMPACT_UNITS: Array<[number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
  [1, ''],
];

/**
 * "45K", "1.2M", "999.9K", "1M" (not "1000K"): what en-KE's compact notation with at most one decimal
 * gives for a value from 0 up to a thousand trillion. The unit is the one the rounded figure falls in.
 */
export function compactText(value: number): string | null {
  if (!Number.isFinite(value) || value < 0 || value >= 1e15) return null;
  const u = COMPACT_UNITS.findIndex(([size]) => value >= size);
  const at = u === -1 ? COMPACT_UNITS.length - 1 : u;
  const [size, suffix] = COMPACT_UNITS[at]!;
  const figure = decimalText(value / size, 0, 1);
  if (figure === null) return null;
  if (figure !== '1,000' || at === 0) return `${figure}${suffix}`;
  // Rounded up into the unit above ("999.96" → "1K", "999,950" → "1M").
  const [biggerSize, biggerSuffix] = COMPACT_UNITS[at - 1]!;
  return `${decimalText(value / biggerSize, 0, 1)}${biggerSuffix}`;
}
