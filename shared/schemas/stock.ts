import { z } from 'zod';

export const STOCK_MESSAGES = {
  truckRequired: 'Select the truck receiving stock.',
  trucks: 'Enter trucks received (must be greater than zero).',
  costPerTonne: 'Provide cost per tonne (KES).',
  note: 'Add a short note for this transaction.',
  txNotFound: 'Stock transaction not found.',
} as const;

export const ZStockReceiptInput = z.object({
  truckId: z.string({ error: STOCK_MESSAGES.truckRequired }).trim().min(1, STOCK_MESSAGES.truckRequired),
  trucks: z.coerce
    .number({ error: STOCK_MESSAGES.trucks })
    .positive(STOCK_MESSAGES.trucks)
    .max(1000, STOCK_MESSAGES.trucks),
  category: z.enum(['coarse', 'smooth'], { error: 'Choose coarse or smooth sand.' }).default('coarse'),
  costPerTonne: z.coerce
    .number({ error: STOCK_MESSAGES.costPerTonne })
    .positive(STOCK_MESSAGES.costPerTonne)
    .max(1_000_000, STOCK_MESSAGES.costPerTonne),
  description: z.string().trim().max(300).optional(),
});
export type TStockReceiptInput = z.infer<typeof ZStockReceiptInput>;

export const ZStockTxNoteInput = z.object({
  id: z.coerce.number().int().positive(STOCK_MESSAGES.txNotFound),
  reason: z.string({ error: STOCK_MESSAGES.note }).trim().min(1, STOCK_MESSAGES.note).max(300),
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
  kind: z.string(),
  trucks: z.number(),
  tonnes: z.number(),
  category: z.string(),
  truck_id: z.string().nullable(),
  reason: z.string().nullable(),
});
export type TStockTx = z.infer<typeof ZStockTx>;
