import { describe, expect, it } from 'vitest';
import {
  cessFor,
  fuelShareCents,
  loadOutsideWindow,
  marginCents,
  outsideWindow,
  parseCess,
  parseWindow,
  priceAt,
} from './trip-profit';

describe('county cess', () => {
  const rules = parseCess('Kiambu=300, Machakos=450.50,*=100');
  it.each([
    ['Ruiru, Kiambu county', 30_000],
    ['Athi River (Machakos)', 45_050],
    ['Westlands, Nairobi', 10_000],
  ])('%s → %i cents', (site, cents) => expect(cessFor(site, rules)).toBe(cents));
  it('is nothing without rules', () => expect(cessFor('Ruiru', parseCess(''))).toBe(0));
  it('refuses a malformed entry', () =>
    expect(() => parseCess('Kiambu:300')).toThrow('"Kiambu:300" is not place=KES'));
});

describe('price paid at the last fill', () => {
  // Oldest first; two fills in the same microsecond: the later one (higher id) wins, as the SQL it replaced.
  const fills = [
    { at: 1_000, centsPerLitre: 17_000 },
    { at: 2_000, centsPerLitre: 17_500 },
    { at: 2_000, centsPerLitre: 17_600 },
    { at: 5_000, centsPerLitre: 18_000 },
  ];
  it.each([
    ['before any fill', 999, null],
    ['at the first fill', 1_000, 17_000],
    ['between fills', 1_999, 17_000],
    ['at two fills of the same instant', 2_000, 17_600],
    ['a microsecond before the next', 4_999, 17_600],
    ['after the last', 9_000, 18_000],
  ])('%s', (_name, at, price) => expect(priceAt(fills, at)).toBe(price));
  it('is null without fills', () => expect(priceAt([], 5_000)).toBeNull());
});

describe('trip money', () => {
  it.each([
    [84, 36, 17_000, 514_080], // 84 km at 36 L/100 km, KES 170/L
    [84, null, 17_000, 0],
    [null, 36, 17_000, 0],
    [10.5, 35.5, 16_650, 62_063],
  ])('fuel share of %s km at %s L/100 km and %s c/L → %i cents', (km, rate, price, cents) =>
    expect(fuelShareCents(km, rate, price)).toBe(cents),
  );
  it('margin is revenue less every share', () =>
    expect(
      marginCents({
        revenueCents: 3_200_000,
        fuelCents: 514_080,
        linkedCents: 150_000,
        allowanceCents: 50_000,
        cessCents: 30_000,
      }),
    ).toBe(2_455_920));
});

describe('transport window', () => {
  const w = parseWindow('06:00-18:00');
  it.each([
    [5 * 60 + 59, true],
    [6 * 60, false],
    [17 * 60 + 59, false],
    [18 * 60, true],
  ])('minute %i outside: %s', (m, outside) => expect(outsideWindow(m, w)).toBe(outside));
  // Nairobi is UTC+3: 03:00Z is 06:00 local, 15:00Z is 18:00 local.
  it.each([
    [{ scheduledAt: '2026-11-23T03:00:00Z' }, false],
    [{ scheduledAt: '2026-11-23T02:59:00Z' }, true],
    [{ scheduledAt: null }, false],
    [{ scheduledAt: '2026-11-23T10:00:00Z', inTransitAt: '2026-11-23T14:30:00Z', arrivedAt: null }, false],
    [{ scheduledAt: '2026-11-23T10:00:00Z', inTransitAt: null, arrivedAt: '2026-11-23T15:00:00Z' }, true],
  ])('load %o outside: %s', (load, outside) => expect(loadOutsideWindow(load, w)).toBe(outside));
  it('refuses a backwards or malformed window', () => {
    expect(() => parseWindow('18:00-06:00')).toThrow();
    expect(() => parseWindow('6-18')).toThrow();
  });
});
