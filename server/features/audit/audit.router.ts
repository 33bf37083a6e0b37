import { and, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../../drizzle/db';
import { costs, fuelLogs } from '../../../drizzle/schema';
import { addDays, startOfLocalDate } from '../../../shared/domain/time';
import {
  MONEY_MESSAGES,
  type TAuditRecord,
  ZAuditListInput,
  ZAuditRecord,
  ZAuditReviewInput,
  ZAuditVoidInput,
} from '../../../shared/schemas/money';
import type { Context } from '../../context';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';

const adminProcedure = roleProcedure('ADMIN');
type AuditFilters = NonNullable<z.infer<typeof ZAuditListInput>>;

const statusSql = (alias: string) =>
  sql.raw(
    `case when ${alias}.voided_at is not null then 'voided' when ${alias}.reviewed_at is not null then 'reviewed' else 'pending' end`,
  );

/** Duplicate-flagged costs and fuel logs in one list, newest event first. */
async function listAudit(ctx: Pick<Context, 'deps'>, f: AuditFilters): Promise<TAuditRecord[]> {
  const from = f.from ? startOfLocalDate(f.from).toISOString() : null;
  const to = f.to ? startOfLocalDate(addDays(f.to, 1)).toISOString() : null;
  const costPart = sql`
    select 'COST' as entity, c.id, ${statusSql('c')} as status, c.type, c.truck_id, t.plate as truck_plate, c.incurred_at as event_at,
           c.amount_cents::float8 / 100 as amount, null::float8 as litres, null::float8 as cost, c.description, null::text as note,
           c.duplicate_of, cu.name as created_by_name, cu.email as created_by_email, fu.name as confirmed_by_name, c.confirmed_at,
           ru.name as reviewed_by_name, c.reviewed_at, vu.name as voided_by_name, c.voided_at, c.review_note, c.void_reason,
           null::int as linked_cost_id
    from costs c left join trucks t on t.id = c.truck_id
    left join users cu on cu.id = c.created_by_id left join users fu on fu.id = c.confirmed_by_id
    left join users ru on ru.id = c.reviewed_by_id left join users vu on vu.id = c.voided_by_id
    where c.is_duplicate and c.source <> 'FUEL'`;
  const fuelPart = sql`
    select 'FUEL' as entity, l.id, ${statusSql('l')} as status, 'FUEL' as type, l.truck_id, t.plate as truck_plate, l.captured_at as event_at,
           null::float8 as amount, l.litres::float8 as litres, l.cost_cents::float8 / 100 as cost, null::text as description, l.note,
           l.duplicate_of, cu.name, cu.email, fu.name, l.confirmed_at, ru.name, l.reviewed_at, vu.name, l.voided_at, l.review_note,
           l.void_reason, l.cost_id as linked_cost_id
    from fuel_logs l left join trucks t on t.id = l.truck_id
    left join users cu on cu.id = l.created_by_id left join users fu on fu.id = l.confirmed_by_id
    left join users ru on ru.id = l.reviewed_by_id left join users vu on vu.id = l.voided_by_id
    where l.is_duplicate`;
  const parts =
    f.entity === 'cost' ? costPart : f.entity === 'fuel' ? fuelPart : sql`${costPart} union all ${fuelPart}`;
  const rows = await ctx.deps.database.rows<Record<string, unknown>>(sql`
    select * from (${parts}) r
    where (${f.status ?? null}::text is null or r.status = ${f.status ?? null})
      and (${f.type ?? null}::text is null or r.type = ${f.type ?? null})
      and (${f.truckId ?? null}::text is null or r.truck_id = ${f.truckId ?? null})
      and (${from}::timestamptz is null or r.event_at >= ${from})
      and (${to}::timestamptz is null or r.event_at < ${to})
    order by r.event_at desc, r.id desc
    limit ${f.limit}`);
  const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return rows.map((r) => ({
    entity: r.entity as 'COST' | 'FUEL',
    id: Number(r.id),
    status: r.status as TAuditRecord['status'],
    type: String(r.type),
    truckId: str(r.truck_id),
    truckPlate: str(r.truck_plate),
    eventAt: iso(r.event_at)!,
    amount: num(r.amount),
    litres: num(r.litres),
    cost: num(r.cost),
    description: str(r.description),
    note: str(r.note),
    duplicateOf: num(r.duplicate_of),
    createdByName: str(r.created_by_name),
    createdByEmail: str(r.created_by_email),
    confirmedByName: str(r.confirmed_by_name),
    confirmedAt: iso(r.confirmed_at),
    reviewedByName: str(r.reviewed_by_name),
    reviewedAt: iso(r.reviewed_at),
    voidedByName: str(r.voided_by_name),
    voidedAt: iso(r.voided_at),
    reviewNote: str(r.review_note),
    voidReason: str(r.void_reason),
    linkedCostId: num(r.linked_cost_id),
  }));
}

const ZActionResult = z.object({
  entity: z.enum(['cost', 'fuel']),
  id: z.number(),
  status: z.enum(['reviewed', 'voided']),
});

export const auditRouter = router({
  list: adminProcedure
    .input(ZAuditListInput)
    .output(ZAuditRecord.array())
    .query(({ ctx, input }) => listAudit(ctx, input ?? { limit: 400 })),

  review: adminProcedure
    .input(ZAuditReviewInput)
    .output(ZActionResult)
    .mutation(async ({ ctx, input }) => {
      const table = input.entity === 'cost' ? costs : fuelLogs;
      const set = {
        reviewedById: ctx.user.id,
        reviewedAt: ctx.now(),
        reviewNote: input.note || null,
        updatedAt: ctx.now(),
      };
      const updated = await ctx.db
        .update(table)
        .set(set)
        .where(and(eq(table.id, input.id), eq(table.isDuplicate, true), isNull(table.voidedAt)))
        .returning({ id: table.id });
      if (updated.length === 0) await explainMiss(ctx.db, input.entity, input.id);
      return { entity: input.entity, id: input.id, status: 'reviewed' as const };
    }),

  /** Voiding takes the record out of every total; a fuel log can take its linked cost with it. */
  void: adminProcedure
    .input(ZAuditVoidInput)
    .output(ZActionResult)
    .mutation(async ({ ctx, input }) => {
      const now = ctx.now();
      const set = { voidedById: ctx.user.id, voidedAt: now, voidReason: input.reason, updatedAt: now };
      await ctx.db.transaction(async (tx) => {
        const table = input.entity === 'cost' ? costs : fuelLogs;
        const updated = await tx
          .update(table)
          .set(set)
          .where(and(eq(table.id, input.id), eq(table.isDuplicate, true), isNull(table.voidedAt)))
          .returning({ id: table.id });
        if (updated.length === 0) await explainMiss(tx, input.entity, input.id);
        if (input.entity === 'fuel' && input.cascadeCost) {
          const [log] = await tx
            .select({ costId: fuelLogs.costId })
            .from(fuelLogs)
            .where(eq(fuelLogs.id, input.id));
          if (log?.costId) {
            await tx
              .update(costs)
              .set({ ...set, voidReason: `${input.reason} (voided with fuel log #${input.id})` })
              .where(and(eq(costs.id, log.costId), isNull(costs.voidedAt)));
          }
        }
      });
      return { entity: input.entity, id: input.id, status: 'voided' as const };
    }),
});

async function explainMiss(db: DbOrTx, entity: 'cost' | 'fuel', id: number): Promise<never> {
  const table = entity === 'cost' ? costs : fuelLogs;
  const [row] = await db
    .select({ isDuplicate: table.isDuplicate, voidedAt: table.voidedAt })
    .from(table)
    .where(eq(table.id, id));
  if (row?.isDuplicate && row.voidedAt) throw appError('CONFLICT', MONEY_MESSAGES.alreadyVoided);
  throw appError('NOT_FOUND', MONEY_MESSAGES.recordNotFound);
}
