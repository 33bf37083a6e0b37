import { describe, expect, it } from 'vitest';
import { formatMoney } from './format';
import { fromCents, toCents } from './money';

describe('toCents: KES → integer cents, half away from zero, once', () => {
  it.each([
    [0, 0],
    [1234.56, 123456],
    [31000.5, 3100050],
    // Half a cent rounds away from zero, as PostgreSQL's round() does.
    [0.005, 1],
    [0.004, 0],
    [1.005, 101], // 100.49999999999999 in binary: read at 15 digits it is the half it means
    [2.675, 268],
    [8500.125, 850013],
    // Negatives mirror the positives (a refund, a loss).
    [-0.005, -1],
    [-1.005, -101],
    [-201280, -20128000],
    [-0.004, 0], // never -0
    // Float noise does not decide anything.
    [0.1 + 0.2, 30],
    [0.7 + 0.1, 80],
    [1.1 * 3, 330],
    [93001.50000000001, 9300150],
    // Large values stay exact up to what a bigint cents column holds as a JS number.
    [1_000_000_000, 100_000_000_000],
    [999_999_999.99, 99_999_999_999],
    [9_999_999_999_999.99, 999_999_999_999_999],
    [90_071_992_547_409.91, 9_007_199_254_740_991],
  ])('toCents(%s) = %s', (kes, cents) => {
    expect(toCents(kes)).toBe(cents);
    expect(Object.is(toCents(kes), -0)).toBe(false);
  });

  it('refuses what is not an amount, or more cents than a JS number counts', () => {
    expect(() => toCents(Number.NaN)).toThrow(RangeError);
    expect(() => toCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(() => toCents(1e14)).toThrow(RangeError);
  });
});

describe('fromCents: cents → KES, from whatever the driver hands back', () => {
  it.each([
    [0, 0],
    [123456, 1234.56],
    [3100050, 31000.5],
    [-20128000, -201280],
    ['9300150', 93001.5], // numeric arrives as a string on postgres-js
    [9300150n, 93001.5],
    [9300149.999999998, 93001.5], // a float8 sum's noise
    [null, 0],
    [undefined, 0],
    [-0.4, 0], // never -0
    [9_007_199_254_740_991, 90_071_992_547_409.91],
  ])('fromCents(%s) = %s', (cents, kes) => {
    expect(fromCents(cents)).toBe(kes);
    expect(Object.is(fromCents(cents), -0)).toBe(false);
  });

  it.each([0, 1, 99, 100, 3100050, 9300150, -1, -20128000, 123456789])('round-trips %s cents', (cents) =>
    expect(toCents(fromCents(cents))).toBe(cents),
  );
});

describe('one amount, one text', () => {
  it('shows 3 trucks at KES 31,000.50 the same from cents and from KES', () => {
    const totalCents = toCents(31000.5) * 3;
    expect(formatMoney(fromCents(totalCents))).toBe('KES 93,001.50');
    expect(formatMoney(31000.5 * 3)).toBe('KES 93,001.50');
  });
});
