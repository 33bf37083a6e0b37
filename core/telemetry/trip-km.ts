import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';

/**
 * A trip's km from the truck's GPS odometer over its window (`w.truck_id`, `w.yard_exit`, `w.yard_entry`):
 * at the last fix in it minus at the first, null with fewer than two fixes (as gpsKmBetween). Two index
 * probes, whatever the history.
 */
const windowKm = sql.raw(`(select case when f.fix_time < l.fix_time then greatest(l.cum_km - f.cum_km, 0) end
    from (select 1) one
    left join lateral (select fix_time, cum_km from truck_positions p
      where p.truck_id = w.truck_id and p.fix_time >= w.yard_exit and p.fix_time <= w.yard_entry
      order by p.fix_time, p.device_id limit 1) f on true
    left join lateral (select fix_time, cum_km from truck_positions p
      where p.truck_id = w.truck_id and p.fix_time >= w.yard_exit and p.fix_time <= w.yard_entry
      order by p.fix_time desc, p.device_id desc limit 1) l on true)`);

/** The trip windows (first yard exit, first yard entry) of the loads matching `where` over `a` (assignments). */
const windows = (where: SQL) => sql`
  select a.id as assignment_id, a.truck_id, ev.yard_exit, ev.yard_entry
  from assignments a
  cross join lateral (
    select min(g.at) filter (where g.kind = 'YARD_EXIT') as yard_exit,
           min(g.at) filter (where g.kind = 'YARD_ENTRY') as yard_entry
    from geofence_events g where g.assignment_id = a.id and g.kind in ('YARD_EXIT', 'YARD_ENTRY')) ev
  where ${where} and a.truck_id is not null and ev.yard_exit is not null and ev.yard_entry is not null`;

/**
 * Rolls up the trips of these loads (their yard events were just recorded): the window from their events,
 * the km from the odometer. A window whose fixes are gone (retention) keeps the km it had.
 */
export async function rollUpTrips(tx: DbOrTx, assignmentIds: number[]): Promise<void> {
  const ids = [...new Set(assignmentIds)].sort((a, b) => a - b);
  if (ids.length === 0) return;
  const list = JSON.stringify(ids);
  // The odometer's lock of each truck (as rollUpFixes takes it), so late fixes written meanwhile are seen.
  await rows(
    tx,
    sql`select pg_advisory_xact_lock(hashtextextended('odometer:' || t.truck_id, 0))
        from (select distinct truck_id from assignments
              where id in (select value::int from jsonb_array_elements_text(${list}::jsonb))
                and truck_id is not null order by truck_id) t`,
  );
  await rows(
    tx,
    sql`insert into trip_km (assignment_id, truck_id, yard_exit_at, yard_entry_at, km, updated_at)
        select w.assignment_id, w.truck_id, w.yard_exit, w.yard_entry, ${windowKm}, now()
        from (${windows(sql`a.id in (select value::int from jsonb_array_elements_text(${list}::jsonb))`)}) w
        order by w.assignment_id
        on conflict (assignment_id) do update set
          truck_id = excluded.truck_id,
          yard_exit_at = excluded.yard_exit_at,
          yard_entry_at = excluded.yard_entry_at,
          km = case when excluded.km is null and trip_km.yard_exit_at = excluded.yard_exit_at
                      and trip_km.yard_entry_at = excluded.yard_entry_at then trip_km.km else excluded.km end,
          updated_at = now()`,
  );
}

/**
 * Late fixes: the trips of these trucks whose window holds a fix in [from_t, to_t] are measured again (a
 * fix before a window shifts both ends of it alike; one inside changes its km). Runs in the transaction
 * that wrote the fixes, under the truck's odometer lock; only updates, so it locks no load.
 */
export async function remeasureTrips(
  tx: DbOrTx,
  spans: Array<{ truck_id: string; from_t: string; to_t: string }>,
): Promise<void> {
  if (spans.length === 0) return;
  await rows(
    tx,
    sql`with s as (select * from jsonb_to_recordset(${JSON.stringify(spans)}::jsonb)
                     as x(truck_id text, from_t timestamptz, to_t timestamptz)),
        w as (select k.assignment_id, k.truck_id, k.yard_exit_at as yard_exit, k.yard_entry_at as yard_entry
              from s join trip_km k on k.truck_id = s.truck_id
                and k.yard_entry_at >= s.from_t and k.yard_exit_at <= s.to_t),
        m as (select w.assignment_id, ${windowKm} as km from w)
        update trip_km k set km = m.km, updated_at = now()
        from m where k.assignment_id = m.assignment_id and m.km is not null and k.km is distinct from m.km`,
  );
}
