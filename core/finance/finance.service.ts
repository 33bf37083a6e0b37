import type { DbOrTx } from '../../drizzle/db';
import { eachDate, margin, resolveRange } from '../../shared/domain/finance';
import { fromCents } from '../../shared/domain/money';
import { localDate } from '../../shared/domain/time';
import {
  MONEY_MESSAGES,
  type TCostMixRow,
  type TFinancePoint,
  type TFinanceRangeInput,
  type TFinanceSummary,
  type TTruckBreakdownRow,
} from '../../shared/schemas/money';
import { appError } from '../errors';
import * as q from './finance.queries';

/** The Nairobi dates asked for (default: the last 30 days to today), or 400 when reversed or too long. */
function rangeOf(now: Date, input: TFinanceRangeInput) {
  const range = resolveRange(localDate(now), input?.from, input?.to);
  if (!range) throw appError('BAD_REQUEST', MONEY_MESSAGES.range);
  return range;
}

// Sums of cents arrive as float8; the API speaks KES. Gross is taken in cents, then converted once.
const cents = (v: number | null | undefined) => Math.round(Number(v ?? 0));

export async function financeSummary(
  db: DbOrTx,
  input: TFinanceRangeInput,
  now: Date,
): Promise<TFinanceSummary> {
  const { from, to } = rangeOf(now, input);
  const row = await q.rollupTotals(db, from, to);
  const revenueCents = cents(row?.revenue);
  const costCents = cents(row?.cost);
  return {
    revenue: fromCents(revenueCents),
    orders: Number(row?.orders ?? 0),
    costTotal: fromCents(costCents),
    gross: fromCents(revenueCents - costCents),
    from,
    to,
  };
}

/** One point per date of the range, quiet days as zero. */
export async function financeTimeseries(
  db: DbOrTx,
  input: TFinanceRangeInput,
  now: Date,
): Promise<TFinancePoint[]> {
  const { from, to } = rangeOf(now, input);
  const rows = await q.rollupByDay(db, from, to);
  const byDay = new Map(rows.map((r) => [String(r.day).slice(0, 10), r]));
  return eachDate(from, to).map((date) => ({
    date,
    revenue: fromCents(byDay.get(date)?.revenue),
    cost: fromCents(byDay.get(date)?.cost),
  }));
}

export async function truckBreakdown(
  db: DbOrTx,
  input: TFinanceRangeInput,
  now: Date,
): Promise<TTruckBreakdownRow[]> {
  const { from, to } = rangeOf(now, input);
  const rows = await q.rollupByTruck(db, from, to);
  return rows.map((r) => {
    const revenue = fromCents(r.revenue);
    const cost = fromCents(r.cost);
    const g = fromCents(cents(r.revenue) - cents(r.cost));
    return {
      truckId: r.truck_id,
      plate: r.plate,
      loads: Number(r.loads),
      revenue,
      cost,
      gross: g,
      margin: margin(g, revenue),
    };
  });
}

/** Cost mix by type over the range (the finance sub-panel): non-voided costs, from their daily rollup. */
export async function costMix(db: DbOrTx, input: TFinanceRangeInput, now: Date): Promise<TCostMixRow[]> {
  const { from, to } = rangeOf(now, input);
  const rows = await q.costsByType(db, from, to);
  return rows.map((r) => ({ type: r.type, amount: fromCents(r.cents) }));
}
