import { z } from 'zod';
import { SAND_TYPES, STOCK_TX_KINDS } from '../enums';
import { LIMITS, zIntId, zKes, zStockTrucks, zText, zTextId } from './common';

export const STOCK_MESSAGES = {
  truckRequired: 'Select the truck receiving stock.',
  trucks: 'Enter trucks received (must be greater than zero).',
  costPerTonne: 'Provide cost per tonne (KES).',
  note: 'Add a short note for this transaction.',
  txNotFound: 'Stock transaction not found.',
} as const;

export const ZStockReceiptInput = z.object({
  truckId: zTextId(STOCK_MESSAGES.truckRequired),
  trucks: zStockTrucks(STOCK_MESSAGES.trucks),
  category: z.enum(SAND_TYPES, { error: 'Choose coarse or smooth sand.' }).default('coarse'),
  costPerTonne: zKes(STOCK_MESSAGES.costPerTonne, LIMITS.costPerTonneKes),
  description: zText({ label: 'Description', max: 300 }).optional(),
});
export type TStockReceiptInput = z.infer<typeof ZStockReceiptInput>;

export const ZStockTxNoteInput = z.object({
  id: zIntId(STOCK_MESSAGES.txNotFound),
  reason: zText({ label: 'Note', max: 300, required: STOCK_MESSAGES.note }),
});

export const ZStock = z.object({
  yard_name: z.string(),
  tonnes: z.number(),
  trucks_coarse: z.number(),
  trucks_smooth: z.number(),
  trucks_total: z.number(),
  unit_tonnes: z.number(),
});
export type TStock = z.infer<typeof ZStock>;

export const ZStockTx = z.object({
  id: z.number(),
  created_at: z.string(),
  kind: z.enum(STOCK_TX_KINDS),
  trucks: z.number(),
  tonnes: z.number(),
  category: z.enum(SAND_TYPES),
  truck_id: z.string().nullable(),
  reason: z.string().nullable(),
});
export type TStockTx = z.infer<typeof ZStockTx>;
