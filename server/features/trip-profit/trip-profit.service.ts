import type { DbOrTx } from '../../../drizzle/db';
import { resolveRange } from '../../../shared/domain/finance';
import { litresPer100Km, median } from '../../../shared/domain/fuel-anomalies';
import { localDate } from '../../../shared/domain/time';
import { cessFor, fuelShareCents, marginCents } from '../../../shared/domain/trip-profit';
import { MONEY_MESSAGES, type TFinanceRangeInput } from '../../../shared/schemas/money';
import type { TTripProfit, TTripProfitReport } from '../../../shared/schemas/trip-profit';
import type { Settings } from '../../../shared/settings';
import { appError } from '../../errors';
import { fillIntervals, gpsKmBetween } from '../fuel-anomalies/fuel-anomalies.queries';
import { deliveredForProfit, truckCosts } from './trip-profit.queries';

const kes = (cents: number) => cents / 100;

/** The truck's measured L/100 km: the median of its last 20 fill intervals by GPS km, before `at`. */
async function consumption(db: DbOrTx, truckId: string, at: Date): Promise<number | null> {
  const rates = (await fillIntervals(db, truckId, at, 0))
    .map((i) => litresPer100Km(i.litres, i.gpsKm))
    .filter((v): v is number => v !== null);
  return rates.length ? median(rates) : null;
}

/**
 * Each load delivered in the range with its margin, and per truck the sum of its trips less its costs that
 * belong to no trip; that equals the truck breakdown's revenue − cost less the trips' allowance and cess,
 * to the cent (all sums in cents).
 */
export async function tripProfit(
  db: DbOrTx,
  settings: Pick<Settings, 'trips'>,
  input: TFinanceRangeInput,
  now: Date,
): Promise<TTripProfitReport> {
  const range = resolveRange(localDate(now), input?.from, input?.to);
  if (!range) throw appError('BAD_REQUEST', MONEY_MESSAGES.range);
  const list = await deliveredForProfit(db, range.from, range.to);
  const rateCache = new Map<string, Promise<number | null>>();
  const trips: Array<TTripProfit & { cents: { allocated: number; margin: number; revenue: number } }> = [];
  for (const r of list) {
    const deliveredAt = new Date(r.delivered_at);
    if (!rateCache.has(r.truck_id)) rateCache.set(r.truck_id, consumption(db, r.truck_id, deliveredAt));
    const gps =
      r.yard_exit && r.yard_entry
        ? await gpsKmBetween(db, r.truck_id, new Date(r.yard_exit), new Date(r.yard_entry))
        : null;
    const km = gps ?? Number(r.distance_km) * 2;
    const money = {
      revenueCents: Number(r.revenue_cents),
      fuelCents: fuelShareCents(km, await rateCache.get(r.truck_id)!, r.cents_per_litre),
      linkedCents: Number(r.linked_cents),
      allowanceCents: settings.trips.allowanceCents,
      cessCents: cessFor(r.site, settings.trips.cess),
    };
    const m = marginCents(money);
    trips.push({
      assignmentId: Number(r.assignment_id),
      orderId: Number(r.order_id),
      site: r.site,
      truckId: r.truck_id,
      plate: r.plate,
      deliveredAt: deliveredAt.toISOString(),
      km: Math.round(km * 10) / 10,
      kmSource: gps !== null ? 'gps' : 'order',
      revenue: kes(money.revenueCents),
      fuel: kes(money.fuelCents),
      linkedCosts: kes(money.linkedCents),
      allowance: kes(money.allowanceCents),
      cess: kes(money.cessCents),
      margin: kes(m),
      cents: { allocated: money.fuelCents + money.linkedCents, margin: m, revenue: money.revenueCents },
    });
  }
  const trucks = new Map<
    string,
    { plate: string | null; trips: number; revenue: number; margin: number; allocated: number; costs: number }
  >();
  const truck = (id: string, plate: string | null) => {
    const t = trucks.get(id) ?? { plate, trips: 0, revenue: 0, margin: 0, allocated: 0, costs: 0 };
    trucks.set(id, t);
    return t;
  };
  for (const t of trips) {
    const row = truck(t.truckId, t.plate);
    row.trips += 1;
    row.revenue += t.cents.revenue;
    row.margin += t.cents.margin;
    row.allocated += t.cents.allocated;
  }
  for (const c of await truckCosts(db, range.from, range.to))
    truck(c.truck_id, c.plate).costs += Number(c.cents);
  return {
    from: range.from,
    to: range.to,
    trips: trips.map(({ cents: _c, ...t }) => t),
    trucks: [...trucks.entries()]
      .map(([truckId, t]) => {
        const unallocated = t.costs - t.allocated;
        return {
          truckId,
          plate: t.plate,
          trips: t.trips,
          revenue: kes(t.revenue),
          tripsMargin: kes(t.margin),
          unallocatedCost: kes(unallocated),
          margin: kes(t.margin - unallocated),
        };
      })
      .sort((a, b) => a.margin - b.margin || a.truckId.localeCompare(b.truckId)),
  };
}
