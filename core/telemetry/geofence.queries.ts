import { sql } from 'drizzle-orm';
import { type DbOrTx, rows as sqlRows } from '../../drizzle/db';
import { sqlLiterals } from '../../drizzle/sql-lists';
import { OPEN_LOAD_STATUSES, type OpenLoadStatus } from '../../shared/enums';

const list = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * Serialises the geofence step per truck (two batches of one truck never read the same state), in truck
 * order so that concurrent jobs never wait on each other in turn; held to the end of the transaction.
 * Answers the trucks that still exist (one deleted while its fixes waited in the queue is skipped).
 */
export async function lockTrucks(db: DbOrTx, truckIds: readonly string[]): Promise<string[]> {
  const rows = await sqlRows<{ id: string }>(
    db,
    sql`select id, pg_advisory_xact_lock(hashtextextended('geofence:' || id, 0))
        from (select id from trucks where id in (${list(truckIds)}) order by id) t`,
  );
  return rows.map((r) => r.id).sort();
}

export interface StateRow {
  truck_id: string;
  fence: string;
  state: unknown;
}

export function states(db: DbOrTx, truckIds: readonly string[]) {
  return sqlRows<StateRow>(
    db,
    sql`select truck_id, fence, state from geofence_states where truck_id in (${list(truckIds)})`,
  );
}

export interface OpenLoadRow {
  id: number;
  truck_id: string;
  order_id: number;
  status: OpenLoadStatus;
  scheduled_at: string | Date | null;
  in_transit_at: string | Date | null;
  site_lat: number | null;
  site_lng: number | null;
  site_radius_m: number | null;
}

/** The trucks' loads still to deliver, with their orders' site points (along the active-loads index). */
export function openLoads(db: DbOrTx, truckIds: readonly string[]) {
  return sqlRows<OpenLoadRow>(
    db,
    sql`select a.id, a.truck_id, a.order_id, a.status, a.scheduled_at, a.in_transit_at,
               o.site_lat, o.site_lng, o.site_radius_m
        from assignments a join orders o on o.id = a.order_id
        where a.truck_id in (${list(truckIds)}) and a.status in (${sqlLiterals(OPEN_LOAD_STATUSES)})
        order by a.id`,
  );
}

export async function saveStates(
  db: DbOrTx,
  rows: Array<{ truck_id: string; fence: string; state: unknown }>,
  now: Date,
) {
  if (rows.length === 0) return;
  await sqlRows(
    db,
    sql`insert into geofence_states (truck_id, fence, state, updated_at)
        select truck_id, fence, state, ${now.toISOString()}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(truck_id text, fence text, state jsonb)
        on conflict (truck_id, fence) do update set state = excluded.state, updated_at = excluded.updated_at`,
  );
}

export async function dropStates(db: DbOrTx, rows: Array<{ truck_id: string; fence: string }>) {
  if (rows.length === 0) return;
  await sqlRows(
    db,
    sql`delete from geofence_states g
        using jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(truck_id text, fence text)
        where g.truck_id = x.truck_id and g.fence = x.fence`,
  );
}

export interface EventRow {
  truck_id: string;
  kind: 'YARD_EXIT' | 'SITE_ENTRY' | 'SITE_EXIT' | 'YARD_ENTRY';
  order_id: number | null;
  assignment_id: number | null;
  at: string;
  confirmed_at: string;
  lat: number;
  lng: number;
}

/**
 * Records crossings once per truck, kind and time. A yard entry without a load of its own belongs to the
 * load whose site the truck last left (the return leg of its trip). Returns the rows newly written.
 */
export function insertEvents(db: DbOrTx, events: EventRow[]) {
  return sqlRows<{
    id: number;
    truck_id: string;
    kind: string;
    at: string | Date;
    assignment_id: number | null;
  }>(
    db,
    sql`insert into geofence_events (truck_id, kind, order_id, assignment_id, at, confirmed_at, lat, lng)
        select x.truck_id, x.kind,
               coalesce(x.order_id, back.order_id), coalesce(x.assignment_id, back.assignment_id),
               x.at, x.confirmed_at, x.lat, x.lng
        from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as x(
          truck_id text, kind text, order_id int, assignment_id int, at timestamptz, confirmed_at timestamptz,
          lat float8, lng float8)
        left join lateral (
          select e.order_id, e.assignment_id from geofence_events e
          where x.kind = 'YARD_ENTRY' and x.assignment_id is null
            and e.truck_id = x.truck_id and e.kind = 'SITE_EXIT' and e.at <= x.at
          order by e.at desc limit 1) back on true
        order by x.at
        on conflict (truck_id, kind, at) do nothing
        returning id, truck_id, kind, at, assignment_id`,
  );
}
