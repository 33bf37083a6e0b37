import { z } from 'zod';
import { DELIVERY_PROOF_METHODS, LOAD_EVENT_SOURCES } from '../enums';

// Load shapes shared by the order listings (shared/schemas/orders.ts) and the admin loads list.

/** What operations sees of a delivery's proof. */
export const ZDeliveryProof = z.object({
  photoUrl: z.string(),
  method: z.enum(DELIVERY_PROOF_METHODS),
  receiverName: z.string().nullable(),
  /** Delivered without the customer's code: operations checks it. */
  flagged: z.boolean(),
  recordedAt: z.string(),
  recordedBy: z.string().nullable(),
});
export type TDeliveryProof = z.infer<typeof ZDeliveryProof>;

/** A load's moves, newest last: by a geofence, by hand (who and why), or by a proof of delivery. */
export const ZLoadEvent = z.object({
  from: z.string(),
  to: z.string(),
  at: z.string(),
  source: z.enum(LOAD_EVENT_SOURCES),
  by: z.string().nullable(),
  reason: z.string().nullable(),
});
export type TLoadEvent = z.infer<typeof ZLoadEvent>;
