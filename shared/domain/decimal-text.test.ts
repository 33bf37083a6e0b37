import { describe, expect, it } from 'vitest';
import { compactText, decimalText, groupThousands } from './decimal-text';

/** A repeatable stream of numbers (mulberry32), so a failure names a value that fails again. */
function randoms(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Integers, cents, tonnes, halves at every decimal, and the floats binary cannot hold exactly. */
function samples(count: number): number[] {
  const next = randoms(28);
  const out = [
    0,
    -0,
    0.5,
    1.5,
    2.5,
    -2.5,
    0.0005,
    1.0005,
    1.005,
    2.675,
    999.9995,
    0.1 + 0.2,
    1e-7,
    123456789.125,
  ];
  for (let i = 0; i < count; i++) {
    const scale = 10 ** Math.floor(next() * 12);
    const sign = next() < 0.2 ? -1 : 1;
    const kind = i % 4;
    const raw = next() * scale;
    out.push(
      sign *
        (kind === 0
          ? Math.round(raw)
          : kind === 1
            ? Math.round(raw * 100) / 100
            : kind === 2
              ? (Math.floor(raw * 1000) + 0.5) / 1000 // a half at the fourth decimal
              : raw),
    );
  }
  return out;
}

describe('decimalText', () => {
  it.each([
    [0, 0, 3, '0'],
    [-0, 0, 3, '-0'],
    [1000, 0, 3, '1,000'],
    [1234567.891, 0, 3, '1,234,567.891'],
    [1234.5678, 0, 3, '1,234.568'],
    [-1234.5, 0, 0, '-1,235'],
    [0.9996, 0, 3, '1'],
    [999.9995, 0, 3, '1,000'],
    [8500.5, 2, 2, '8,500.50'],
    [93001.5, 2, 2, '93,001.50'],
    [20, 1, 1, '20.0'],
    [-0.0001, 0, 3, '-0'],
  ])('%s with %s–%s decimals → %s', (n, min, max, text) => expect(decimalText(n, min, max)).toBe(text));

  it('answers null where it cannot write the number plainly', () => {
    expect(decimalText(Number.NaN, 0, 3)).toBeNull();
    expect(decimalText(Number.POSITIVE_INFINITY, 0, 3)).toBeNull();
    expect(decimalText(1e21, 0, 3)).toBeNull();
  });

  it.each([
    ['en-KE', 0, 3],
    ['sw-KE', 0, 3],
    ['en-KE', 0, 0],
    ['en-KE', 2, 2],
    ['sw-KE', 2, 2],
    ['en-KE', 0, 1],
    ['sw-KE', 1, 1],
  ] as const)(
    'writes what Intl.NumberFormat(%s) writes with %s–%s decimals, for 40,000 values',
    (locale, min, max) => {
      const intl = new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max });
      const wrong = samples(40_000)
        // null only for a number in exponent form (its caller then asks Intl)
        .filter((n) => {
          const text = decimalText(n, min, max);
          return text === null ? !String(n).includes('e') : text !== intl.format(n);
        })
        .slice(0, 5)
        .map((n) => `${n}: ${decimalText(n, min, max)} ≠ ${intl.format(n)}`);
      expect(wrong).toEqual([]);
    },
  );
});

describe('groupThousands', () => {
  it.each([
    ['0', '0'],
    ['999', '999'],
    ['1000', '1,000'],
    ['1234567', '1,234,567'],
  ])('%s → %s', (digits, text) => expect(groupThousands(digits)).toBe(text));
});

describe('compactText', () => {
  it.each([
    [0, '0'],
    [0.5, '0.5'],
    [999, '999'],
    [999.96, '1K'],
    [1049, '1K'],
    [1050, '1.1K'],
    [12345, '12.3K'],
    [99950, '100K'],
    [999949, '999.9K'],
    [999950, '1M'],
    [1234567, '1.2M'],
    [2.5e12, '2.5T'],
  ])('%s → %s', (value, text) => expect(compactText(value)).toBe(text));

  it('answers null for what it does not write', () => {
    expect(compactText(-1)).toBeNull();
    expect(compactText(1e15)).toBeNull();
    expect(compactText(Number.NaN)).toBeNull();
  });

  it("writes what en-KE's compact notation writes, for 40,000 values", () => {
    const intl = new Intl.NumberFormat('en-KE', { notation: 'compact', maximumFractionDigits: 1 });
    const wrong = samples(40_000)
      .map(Math.abs)
      .filter((n) => {
        if (n >= 1e15) return false;
        const text = compactText(n);
        return text === null ? !String(n).includes('e') : text !== intl.format(n);
      })
      .slice(0, 5)
      .map((n) => `${n}: ${compactText(n)} ≠ ${intl.format(n)}`);
    expect(wrong).toEqual([]);
  });
});
