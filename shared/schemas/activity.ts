import { z } from 'zod';
import { blankToUndefined, zCalendarDate, zIntId, zListLimit, zText } from './common';

/** The action log's most rows per answer. */
export const ACTIVITY_MAX_LIMIT = 1000;
/**
 * The entries the Activity log tab shows at first, and how many more each "Show more entries" adds. Each
 * entry is a card with a table of its changes, ~45 elements: the tab asked for 500, and a test week's 50
 * or so were already 2,200 elements for a phone to lay out twice (the server's screen, then the app's),
 * Lighthouse TBT 251 ms; 20 are ~1,070 elements, TBT 118 ms (issue 28).
 */
export const ACTIVITY_PAGE = 20;

/** A day (YYYY-MM-DD, a whole Africa/Nairobi day) or an instant (ISO 8601). */
const ZDayOrInstant = z.preprocess(
  blankToUndefined,
  z
    .union([
      zCalendarDate('Dates are YYYY-MM-DD or an ISO 8601 instant.'),
      z.iso
        .datetime({ offset: true, error: 'Dates are YYYY-MM-DD or an ISO 8601 instant.' })
        .refine((s) => Number.isFinite(Date.parse(s)), 'Dates are YYYY-MM-DD or an ISO 8601 instant.'),
    ])
    .optional(),
);

export const ZActivityQuery = z
  .object({
    userId: z.preprocess(blankToUndefined, zIntId('Unknown user.').optional()),
    entity: z.preprocess(blankToUndefined, zText({ label: 'Entity', max: 60 }).optional()),
    from: ZDayOrInstant,
    to: ZDayOrInstant,
    limit: z.preprocess(blankToUndefined, zListLimit(ACTIVITY_MAX_LIMIT)),
  })
  .optional()
  .transform((v) => v ?? { limit: ACTIVITY_MAX_LIMIT });
export type TActivityQuery = {
  userId?: number | undefined;
  entity?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  limit: number;
};

export const ZFieldChange = z.object({ from: z.unknown(), to: z.unknown() });

export const ZActivityEntry = z.object({
  at: z.string(),
  userId: z.number().nullable(),
  userName: z.string().nullable(),
  role: z.string().nullable(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  changes: z.record(z.string(), ZFieldChange),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type TActivityEntry = z.infer<typeof ZActivityEntry>;

export const ZActivityFilters = z.object({
  /** ACTIVITY_RETENTION_DAYS: how long an entry is kept. */
  retentionDays: z.number(),
  entities: z.array(z.string()),
  users: z.array(z.object({ id: z.number(), name: z.string(), role: z.string().nullable() })),
});
