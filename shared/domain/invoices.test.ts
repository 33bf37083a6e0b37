import { describe, expect, it } from 'vitest';
import { creditLines, type InvoiceLine, loadLine, orderLines, taxInside, totalsOf } from './invoices';

describe('taxInside (tax-inclusive prices, half-up once)', () => {
  it.each([
    [3_200_000, 16, 441_379],
    [6_400_000, 16, 882_759],
    [116, 16, 16],
    [100, 16, 14],
    [3_200_000, 0, 0],
    [3_200_000, 8, 237_037],
    [1, 16, 0],
  ])('%i cents at %i %% holds %i cents of tax', (amount, rate, tax) => {
    expect(taxInside(amount, rate)).toBe(tax);
  });
});

describe('orderLines and loadLine', () => {
  it('a cash order is one line: trucks × 20 t at a twentieth of the per-truck price, the order total exactly', () => {
    expect(
      orderLines({ sandType: 'smooth', trucks: 3, perTruckCents: 3_300_000, totalCents: 9_900_000 }),
    ).toEqual([{ sandType: 'smooth', tonnes: 60, unitPriceCents: 165_000, amountCents: 9_900_000 }]);
  });

  it.each([
    [20, 3_200_000, 3_200_000],
    [13.5, 3_200_000, 2_160_000],
    [6.67, 3_300_033, 1_100_561],
  ])('a load of %f t at %i cents a truck is %i cents', (tonnes, perTruckCents, amount) => {
    expect(loadLine({ sandType: 'coarse', tonnes, perTruckCents }).amountCents).toBe(amount);
  });

  it('totals sum the lines and split out the tax', () => {
    expect(totalsOf([{ amountCents: 3_200_000 }, { amountCents: 1_600_000 }], 16)).toEqual({
      totalCents: 4_800_000,
      taxCents: 662_069,
      netCents: 4_137_931,
    });
  });
});

describe('creditLines', () => {
  const sale: InvoiceLine[] = [
    { sandType: 'coarse', tonnes: 40, unitPriceCents: 160_000, amountCents: 6_400_000 },
    { sandType: 'smooth', tonnes: 20, unitPriceCents: 165_000, amountCents: 3_300_000 },
  ];
  const sum = (lines: InvoiceLine[]) => lines.reduce((s, l) => s + l.amountCents, 0);

  it('the whole sale when no amount is given', () => {
    const made = creditLines(sale, 9_700_000);
    expect('lines' in made && made.lines).toEqual(sale);
  });

  it('what is left of the sale when no amount is given after a part was credited', () => {
    const made = creditLines(sale, 4_850_000);
    expect('lines' in made && sum(made.lines)).toBe(4_850_000);
  });

  it.each([1, 333_333, 4_850_000, 9_699_999])(
    'a part of %i cents sums to it exactly, tonnes in proportion',
    (amount) => {
      const made = creditLines(sale, 9_700_000, amount);
      if (!('lines' in made)) throw new Error(made.error);
      expect(sum(made.lines)).toBe(amount);
      for (const l of made.lines) expect(l.tonnes).toBeGreaterThan(0);
    },
  );

  it.each([
    [9_700_000, 9_700_001, 'too-much'],
    [0, undefined, 'nothing-left'],
    [5_000, 5_001, 'too-much'],
    [9_700_000, 0, 'not-positive'],
  ] as const)('remaining %i, asked %s: %s', (remaining, amount, error) => {
    expect(creditLines(sale, remaining, amount)).toEqual({ error });
  });
});
