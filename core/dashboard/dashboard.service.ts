import type { DbOrTx } from '../../drizzle/db';
import { fromCents } from '../../shared/domain/money';
import { addDays, localDate } from '../../shared/domain/time';
import type { TDashboard } from '../../shared/schemas/dashboard';
import type { Settings } from '../../shared/settings';
import { toStockSummary } from '../stock/stock.service';
import { dashboardFigures } from './dashboard.queries';

/**
 * The overview over Africa/Nairobi days (today, and the last 7 with today): revenue from delivered loads,
 * costs that are not voided, all read in one statement from running balances and daily rollups.
 */
export async function overview(db: DbOrTx, settings: Pick<Settings, 'yard'>, now: Date): Promise<TDashboard> {
  const today = localDate(now);
  const f = await dashboardFigures(db, { today, weekFrom: addDays(today, -6) });
  const stock = toStockSummary(settings, f);
  return {
    stock: stock.tonnes,
    yardName: stock.yard_name,
    pendingOrders: f.pending,
    activeAssignments: f.active,
    daily: { revenue: fromCents(f.revenueToday), profit: fromCents(f.revenueToday - f.costToday) },
    weekly: { revenue: fromCents(f.revenueWeek), profit: fromCents(f.revenueWeek - f.costWeek) },
    expensesPerTruck: f.perTruck.map((r) => ({
      truckId: r.truckId,
      plate: r.plate,
      amount: fromCents(r.cents),
    })),
    topDrivers: f.topDrivers.map((r) => ({
      driverId: r.driverId,
      name: r.name,
      tonnes: Number(r.tonnes),
      revenue: fromCents(r.cents),
    })),
  };
}
