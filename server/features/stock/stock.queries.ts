import { sql } from 'drizzle-orm';
import { TRUCK_LOAD_TONNES } from '../../../shared/constants';
import type { TStock } from '../../../shared/schemas/stock';
import type { Context } from '../../context';

/** Yard stock from the signed movements: receipts add, delivered loads take out. */
export async function stockSummary(ctx: Pick<Context, 'deps'>): Promise<TStock> {
  const [row] = await ctx.deps.database.rows<{ coarse: number; smooth: number }>(sql`
    select coalesce(sum(tonnes) filter (where category = 'coarse'), 0)::float8 as coarse,
           coalesce(sum(tonnes) filter (where category = 'smooth'), 0)::float8 as smooth
    from stock_transactions`);
  const coarse = row?.coarse ?? 0;
  const smooth = row?.smooth ?? 0;
  const round2 = (n: number) => Math.round(n * 100) / 100;
  return {
    yard_name: ctx.deps.config.yard.name,
    tonnes: round2(coarse + smooth),
    trucks_coarse: round2(coarse / TRUCK_LOAD_TONNES),
    trucks_smooth: round2(smooth / TRUCK_LOAD_TONNES),
    trucks_total: round2((coarse + smooth) / TRUCK_LOAD_TONNES),
    unit_tonnes: TRUCK_LOAD_TONNES,
  };
}
