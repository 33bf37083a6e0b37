import { z } from 'zod';

export const ZHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean(), driver: z.enum(['pglite', 'postgres']) }),
  jobs: z.object({
    ok: z.boolean(),
    transport: z.enum(['bullmq', 'in-process']),
    detail: z.string().optional(),
    lastHeartbeatAt: z.string().nullable(),
  }),
  time: z.string(),
});
export type THealth = z.infer<typeof ZHealth>;
