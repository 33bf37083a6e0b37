/**
 * Invoice arithmetic, pure: the lines of a sale in cents and tonnes, the tax they hold, and the lines of a
 * credit note against a sale. Prices are tax-inclusive (what the customer pays is the total); the tax is
 * the part of it the rate makes up, rounded half-up once, as KRA's OSCU reads `taxblAmt` (inclusive) and
 * `taxAmt`. Used by the invoices (core), the eTIMS payloads, the documents and the screens alike.
 */

import type { SandType } from '../enums';

export type { SandType };

export interface InvoiceLine {
  sandType: SandType;
  /** Metric tonnes, two decimals at most. */
  tonnes: number;
  /** Price per tonne in cents (tax-inclusive), as the line was sold. */
  unitPriceCents: number;
  /** What the line costs, tax included, in cents. */
  amountCents: number;
}

export interface InvoiceTotals {
  totalCents: number;
  /** The tax inside the total. */
  taxCents: number;
  /** The total without its tax. */
  netCents: number;
}

const roundTonnes = (t: number) => Math.round(t * 100) / 100;

/** The tax inside a tax-inclusive amount at `ratePercent`, in whole cents (half-up). */
export function taxInside(amountCents: number, ratePercent: number): number {
  if (ratePercent <= 0) return 0;
  return Math.round((amountCents * ratePercent) / (100 + ratePercent));
}

export function totalsOf(
  lines: readonly Pick<InvoiceLine, 'amountCents'>[],
  ratePercent: number,
): InvoiceTotals {
  const totalCents = lines.reduce((sum, l) => sum + l.amountCents, 0);
  const taxCents = taxInside(totalCents, ratePercent);
  return { totalCents, taxCents, netCents: totalCents - taxCents };
}

/**
 * The line of a cash order: every truck carries 20 t at the order's per-truck price, so the unit price is
 * a twentieth of it and the line's amount is exactly what the order costs.
 */
export function orderLines(order: {
  sandType: SandType;
  trucks: number;
  perTruckCents: number;
  totalCents: number;
}): InvoiceLine[] {
  return [
    {
      sandType: order.sandType,
      tonnes: order.trucks * 20,
      unitPriceCents: Math.round(order.perTruckCents / 20),
      amountCents: order.totalCents,
    },
  ];
}

/**
 * The line of one delivered load (issue 24's invoicing per load for customers on terms): its tonnes at the
 * per-truck price over 20 t, rounded once, as revenue per delivered load is counted.
 */
export function loadLine(load: { sandType: SandType; tonnes: number; perTruckCents: number }): InvoiceLine {
  return {
    sandType: load.sandType,
    tonnes: roundTonnes(load.tonnes),
    unitPriceCents: Math.round(load.perTruckCents / 20),
    amountCents: Math.round((load.perTruckCents * load.tonnes) / 20),
  };
}

/**
 * A credit note's lines: the whole sale when `amountCents` is absent (or equals the sale), else each line
 * in proportion, the amounts summing to `amountCents` exactly (the last line takes the rounding) and the
 * tonnes in the same proportion. Never more than what is still creditable (`remainingCents`).
 */
export function creditLines(
  sale: readonly InvoiceLine[],
  remainingCents: number,
  amountCents?: number,
): { lines: InvoiceLine[] } | { error: 'nothing-left' | 'too-much' | 'not-positive' } {
  const total = sale.reduce((s, l) => s + l.amountCents, 0);
  if (remainingCents <= 0) return { error: 'nothing-left' };
  const wanted = amountCents ?? remainingCents;
  if (wanted <= 0) return { error: 'not-positive' };
  if (wanted > remainingCents) return { error: 'too-much' };
  if (wanted === total) return { lines: sale.map((l) => ({ ...l })) };
  let given = 0;
  const lines = sale.map((l, i) => {
    const last = i === sale.length - 1;
    const amount = last ? wanted - given : Math.round((l.amountCents * wanted) / total);
    given += amount;
    return {
      ...l,
      amountCents: amount,
      // KRA takes no zero quantity: a credit of a few shillings still names 0.01 t.
      tonnes: Math.max(0.01, roundTonnes((l.tonnes * amount) / (l.amountCents || 1))),
    };
  });
  return { lines: lines.filter((l) => l.amountCents > 0) };
}
