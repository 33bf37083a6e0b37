import { and, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../drizzle/db';
import { costs, fuelLogs, trucks } from '../../drizzle/schema';
import { mileageSince } from '../../shared/domain/duplicates';
import { fromCents } from '../../shared/domain/money';
import type { TFuelLog } from '../../shared/schemas/money';

/** The pump attendant types a truck id or a plate, in any case and spacing. */
export async function findTruckByIdOrPlate(db: DbOrTx, typed: string) {
  const key = typed.toLowerCase();
  const [truck] = await db
    .select()
    .from(trucks)
    .where(
      or(
        sql`lower(${trucks.id}) = ${key}`,
        sql`lower(replace(${trucks.plate}, ' ', '')) = ${key.replace(/\s+/g, '')}`,
      ),
    )
    .limit(1);
  return truck;
}

/** Non-voided logs of a truck that could repeat this one: the same odometer, or captured within `windowMs`. */
export function fuelLogsNear(
  db: DbOrTx,
  c: { truckId: string; odometer: number | null; capturedAt: Date },
  windowMs: number,
) {
  return db
    .select()
    .from(fuelLogs)
    .where(
      and(
        eq(fuelLogs.truckId, c.truckId),
        isNull(fuelLogs.voidedAt),
        or(
          c.odometer !== null ? eq(fuelLogs.odometer, c.odometer) : sql`false`,
          and(
            gte(fuelLogs.capturedAt, new Date(c.capturedAt.getTime() - windowMs)),
            lte(fuelLogs.capturedAt, new Date(c.capturedAt.getTime() + windowMs)),
          ),
        ),
      ),
    );
}

/** The FUEL cost a log carries (source FUEL: it changes with the log, never in the cost ledger). */
export async function insertFuelCost(db: DbOrTx, values: Omit<typeof costs.$inferInsert, 'type' | 'source'>) {
  const [row] = await db
    .insert(costs)
    .values({ ...values, type: 'FUEL', source: 'FUEL' })
    .returning({ id: costs.id });
  return row!;
}

export async function insertFuelLog(db: DbOrTx, values: typeof fuelLogs.$inferInsert) {
  const [row] = await db.insert(fuelLogs).values(values).returning();
  return row!;
}

interface Row {
  id: number;
  truck_id: string;
  plate: string | null;
  litres: number | null;
  odometer: number | null;
  cost_cents: number;
  note: string | null;
  captured_at: string | Date;
  photo_path: string | null;
  driver_name: string | null;
  previous_odometer: number | null;
  is_duplicate: boolean;
  duplicate_of: number | null;
  confirmed_at: string | Date | null;
  created_by: string | null;
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

/**
 * Latest fuel logs with the km since the truck's previous reading, voided ones skipped. "Previous" is the
 * list's own order, capture time then entry: two stops captured in the same minute (the form's
 * precision) follow each other as entered, instead of both reading "n/a".
 */
export async function listFuelLogs(db: DbOrTx, limit: number, id?: number): Promise<TFuelLog[]> {
  const rows = await sqlRows<Row>(
    db,
    sql`
    select f.id, f.truck_id, t.plate, f.litres::float8 as litres, f.odometer::float8 as odometer, f.cost_cents::float8 as cost_cents,
           f.note, f.captured_at, f.photo_path, d.name as driver_name, f.is_duplicate, f.duplicate_of, f.confirmed_at,
           u.name as created_by,
           (select p.odometer::float8 from fuel_logs p
             where p.truck_id = f.truck_id and (p.captured_at, p.id) < (f.captured_at, f.id)
               and p.odometer is not null and p.voided_at is null
             order by p.captured_at desc, p.id desc limit 1) as previous_odometer
    from fuel_logs f
    left join trucks t on t.id = f.truck_id
    left join drivers d on d.id = f.driver_id
    left join users u on u.id = f.created_by_id
    ${id ? sql`where f.id = ${id}` : sql``}
    order by f.captured_at desc, f.id desc
    limit ${limit}`,
  );
  return rows.map((r) => ({
    id: r.id,
    truckId: r.truck_id,
    plate: r.plate,
    litres: r.litres,
    odometer: r.odometer,
    cost: fromCents(r.cost_cents),
    note: r.note,
    capturedAt: iso(r.captured_at)!,
    photoPath: r.photo_path,
    driverName: r.driver_name,
    mileage: mileageSince(r.odometer, r.previous_odometer),
    isDuplicate: r.is_duplicate,
    duplicateOf: r.duplicate_of,
    confirmedAt: iso(r.confirmed_at),
    createdBy: r.created_by,
  }));
}
