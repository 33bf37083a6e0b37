import type { DbOrTx } from '../../drizzle/db';
import { resolveRange } from '../../shared/domain/finance';
import { litresPer100Km, median } from '../../shared/domain/fuel-anomalies';
import { fromCents } from '../../shared/domain/money';
import { localDate } from '../../shared/domain/time';
import { cessFor, fuelShareCents, marginCents, priceAt } from '../../shared/domain/trip-profit';
import { MONEY_MESSAGES } from '../../shared/schemas/money';
import {
  TRIP_PROFIT_PAGE,
  type TTripProfit,
  type TTripProfitInput,
  type TTripProfitReport,
} from '../../shared/schemas/trip-profit';
import type { Settings } from '../../shared/settings';
import { appError } from '../errors';
import {
  deliveredForProfit,
  fillPrices,
  type ProfitRow,
  recentFills,
  truckCosts,
} from './trip-profit.queries';

/**
 * Each truck's measured L/100 km at its first trip of the list: the median of its last 20 fill intervals by GPS
 * km (the km stored on the logs) before that trip, all trucks in one statement.
 */
async function consumptions(db: DbOrTx, list: ProfitRow[]): Promise<Map<string, number | null>> {
  const first = new Map<string, string>();
  for (const r of list)
    if (!first.has(r.truck_id)) first.set(r.truck_id, new Date(r.delivered_at).toISOString());
  const fills = new Map<string, Array<{ litres: number; gpsKm: number | null }>>();
  const recent = await recentFills(
    db,
    [...first].map(([truckId, at]) => ({ truckId, at })),
  );
  for (const f of recent) {
    const l = fills.get(f.truck_id) ?? [];
    l.push({ litres: Number(f.litres), gpsKm: f.gps_km === null ? null : Number(f.gps_km) });
    fills.set(f.truck_id, l);
  }
  const rates = new Map<string, number | null>();
  for (const truckId of first.keys()) {
    // The oldest of the 20 has no interval inside the window (20 logs, 19 intervals), as fillIntervals.
    const logs = fills.get(truckId) ?? [];
    const measured = logs
      .slice(0, Math.max(0, logs.length - 1))
      .map((i) => litresPer100Km(i.litres, i.gpsKm))
      .filter((v): v is number => v !== null);
    rates.set(truckId, measured.length ? median(measured) : null);
  }
  return rates;
}

/** Each truck's fill prices over the list's deliveries (µs), oldest first, for `priceAt`: one statement. */
async function prices(db: DbOrTx, list: ProfitRow[]) {
  const byTruck = new Map<string, Array<{ at: number; centsPerLitre: number }>>();
  if (list.length === 0) return byTruck;
  const trucks = [...new Set(list.map((r) => r.truck_id))];
  const [first, last] = [list[0]!.delivered_us, list[list.length - 1]!.delivered_us];
  for (const p of await fillPrices(db, trucks, first, last)) {
    const l = byTruck.get(p.truck_id) ?? [];
    l.push({ at: Number(p.captured_us), centsPerLitre: Number(p.cents_per_litre) });
    byTruck.set(p.truck_id, l);
  }
  return byTruck;
}

/**
 * Each load delivered in the range with its margin (the latest `limit` listed, newest first), and per truck
 * the sum of all its trips less its costs that belong to no trip; that equals the truck breakdown's revenue −
 * cost less the trips' allowance and cess, to the cent (all sums in cents).
 */
export async function tripProfit(
  db: DbOrTx,
  settings: Pick<Settings, 'trips'>,
  input: TTripProfitInput,
  now: Date,
): Promise<TTripProfitReport> {
  const range = resolveRange(localDate(now), input?.from, input?.to);
  if (!range) throw appError('BAD_REQUEST', MONEY_MESSAGES.range);
  // Statements that do not wait on each other go out together (over a pool, on several connections).
  const [list, costs] = await Promise.all([
    deliveredForProfit(db, range.from, range.to),
    truckCosts(db, range.from, range.to),
  ]);
  const [rates, fills] = await Promise.all([consumptions(db, list), prices(db, list)]);
  // Every trip's money (the per-truck totals sum them all); the answer's rows only for the trips it lists.
  const trips = list.map((r) => {
    const gps = r.gps_km === null ? null : Number(r.gps_km);
    const km = gps ?? Number(r.distance_km) * 2;
    const money = {
      revenueCents: Number(r.revenue_cents),
      fuelCents: fuelShareCents(
        km,
        rates.get(r.truck_id) ?? null,
        priceAt(fills.get(r.truck_id) ?? [], Number(r.delivered_us)),
      ),
      linkedCents: Number(r.linked_cents),
      allowanceCents: settings.trips.allowanceCents,
      cessCents: cessFor(r.site, settings.trips.cess),
    };
    return { r, gps, km, money, margin: marginCents(money) };
  });
  const row = ({ r, gps, km, money, margin }: (typeof trips)[number]): TTripProfit => ({
    assignmentId: Number(r.assignment_id),
    orderId: Number(r.order_id),
    site: r.site,
    truckId: r.truck_id,
    plate: r.plate,
    deliveredAt: new Date(r.delivered_at).toISOString(),
    km: Math.round(km * 10) / 10,
    kmSource: gps !== null ? 'gps' : 'order',
    revenue: fromCents(money.revenueCents),
    fuel: fromCents(money.fuelCents),
    linkedCosts: fromCents(money.linkedCents),
    allowance: fromCents(money.allowanceCents),
    cess: fromCents(money.cessCents),
    margin: fromCents(margin),
  });
  const trucks = new Map<
    string,
    { plate: string | null; trips: number; revenue: number; margin: number; allocated: number; costs: number }
  >();
  const truck = (id: string, plate: string | null) => {
    const t = trucks.get(id) ?? { plate, trips: 0, revenue: 0, margin: 0, allocated: 0, costs: 0 };
    trucks.set(id, t);
    return t;
  };
  for (const { r, money, margin } of trips) {
    const totals = truck(r.truck_id, r.plate);
    totals.trips += 1;
    totals.revenue += money.revenueCents;
    totals.margin += margin;
    totals.allocated += money.fuelCents + money.linkedCents;
  }
  for (const c of costs) truck(c.truck_id, c.plate).costs += Number(c.cents);
  return {
    from: range.from,
    to: range.to,
    // The list is oldest first: its tail, reversed, is the latest `limit` newest first.
    trips: trips
      .slice(-(input?.limit ?? TRIP_PROFIT_PAGE))
      .reverse()
      .map(row),
    tripCount: trips.length,
    trucks: [...trucks.entries()]
      .map(([truckId, t]) => {
        const unallocated = t.costs - t.allocated;
        return {
          truckId,
          plate: t.plate,
          trips: t.trips,
          revenue: fromCents(t.revenue),
          tripsMargin: fromCents(t.margin),
          unallocatedCost: fromCents(unallocated),
          margin: fromCents(t.margin - unallocated),
        };
      })
      .sort((a, b) => a.margin - b.margin || a.truckId.localeCompare(b.truckId)),
  };
}
