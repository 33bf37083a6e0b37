import type { DbOrTx } from '../../drizzle/db';
import { stockTransactions } from '../../drizzle/schema';
import { TRUCK_LOAD_TONNES } from '../../shared/constants';
import { toCents } from '../../shared/domain/money';
import {
  STOCK_MESSAGES,
  type TStock,
  type TStockReceiptInput,
  type TStockTx,
} from '../../shared/schemas/stock';
import type { Settings } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { lockedRow } from '../activity/activity.queries';
import { requireTruck } from '../common/trucks';
import { appError } from '../errors';
import {
  insertStockPurchaseCost,
  insertStockTx,
  linkCostToStockTx,
  readYardStock,
  type StockTxRow,
  stockMovements,
  updateStockTxReason,
} from './stock.queries';

const round2 = (n: number) => Math.round(n * 100) / 100;

function toTx(row: StockTxRow): TStockTx {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    kind: row.kind,
    trucks: row.trucks,
    tonnes: row.tonnes,
    category: row.category,
    truck_id: row.truckId,
    reason: row.reason,
  };
}

/** Yard stock in tonnes and truckloads: receipts add, delivered loads take out. */
export async function stockSummary(db: DbOrTx, settings: Pick<Settings, 'yard'>): Promise<TStock> {
  return toStockSummary(settings, await readYardStock(db));
}

/** The stock answer from the yard_stock figures (tonnes per category and in all). */
export function toStockSummary(
  settings: Pick<Settings, 'yard'>,
  { coarse, smooth, tonnes }: { coarse: number; smooth: number; tonnes: number },
): TStock {
  return {
    yard_name: settings.yard.name,
    tonnes: round2(tonnes),
    trucks_coarse: round2(coarse / TRUCK_LOAD_TONNES),
    trucks_smooth: round2(smooth / TRUCK_LOAD_TONNES),
    trucks_total: round2(tonnes / TRUCK_LOAD_TONNES),
    unit_tonnes: TRUCK_LOAD_TONNES,
  };
}

export async function listStockTx(db: DbOrTx): Promise<TStockTx[]> {
  return (await stockMovements(db)).map(toTx);
}

/**
 * A yard receipt: trucks × 20 t into stock and its STOCK_PURCHASE cost, together or not at all. The cost
 * goes in first so this transaction takes the finance rollup rows before the yard stock balance, in the
 * same order as a delivery does (the reverse order could deadlock against a delivery).
 */
export async function recordReceipt(
  db: DbOrTx,
  user: CtxUser,
  input: TStockReceiptInput,
  now: Date,
): Promise<TStockTx> {
  await requireTruck(db, input.truckId, STOCK_MESSAGES.truckRequired);
  const tonnes = round2(input.trucks * TRUCK_LOAD_TONNES);
  const costPerTonneCents = toCents(input.costPerTonne);
  const description = input.description || 'Yard receipt';
  const row = await db.transaction(async (tx) => {
    const costId = await insertStockPurchaseCost(tx, {
      truckId: input.truckId,
      amountCents: Math.round(tonnes * costPerTonneCents),
      description: `${description}: ${tonnes} t ${input.category} sand`,
      incurredAt: now,
      createdById: user.id,
    });
    const receipt = await insertStockTx(tx, {
      kind: 'RECEIPT',
      trucks: input.trucks,
      tonnes,
      category: input.category,
      truckId: input.truckId,
      reason: description,
      costPerTonneCents,
      createdById: user.id,
    });
    await linkCostToStockTx(tx, costId, receipt.id);
    await recordChange(tx, { entity: 'stock', entityId: receipt.id, after: toTx(receipt) });
    await recordChange(tx, {
      entity: 'cost',
      entityId: costId,
      after: { type: 'STOCK_PURCHASE', source: 'STOCK', truckId: input.truckId, stockTxId: receipt.id },
    });
    return receipt;
  });
  return toTx(row);
}

export async function editStockNote(db: DbOrTx, id: number, reason: string, now: Date): Promise<TStockTx> {
  return db.transaction(async (tx) => {
    const before = await lockedRow(tx, stockTransactions, id);
    const row = await updateStockTxReason(tx, id, reason, now);
    if (!row || !before) throw appError('NOT_FOUND', STOCK_MESSAGES.txNotFound);
    const after = toTx(row);
    await recordChange(tx, { entity: 'stock', entityId: id, before: toTx(before), after });
    return after;
  });
}
