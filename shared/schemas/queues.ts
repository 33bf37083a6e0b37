import { z } from 'zod';

/** The queue dashboard's address and how long its cookie lasts. */
export const ZQueueSession = z.object({
  url: z.string(),
  expiresInSeconds: z.number().int(),
});
export type TQueueSession = z.infer<typeof ZQueueSession>;
