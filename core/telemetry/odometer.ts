import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, rows } from '../../drizzle/db';
import { BUSINESS_TIME_ZONE } from '../../shared/constants';
import { MOVING_KMH } from '../../shared/domain/telemetry';
import { remeasureTrips } from './trip-km';

/** Fixes a transaction just inserted (only those: a fix already stored is not returned). */
export interface InsertedFix {
  truck_id: string;
  fix_time: string | Date;
  speed_kmh: number | null;
}

const iso = (t: string | Date) => (typeof t === 'string' ? new Date(t) : t).toISOString();

/** Great-circle km from the previous row of window `w` to this one (null on a truck's first fix). */
const segmentKm = sql.raw(`2 * 6371 * asin(sqrt(
  power(sin(radians(p.lat - lag(p.lat) over w) / 2), 2)
  + cos(radians(lag(p.lat) over w)) * cos(radians(p.lat)) * power(sin(radians(p.lng - lag(p.lng) over w) / 2), 2)))`);

/**
 * Keeps the rollups exact in the transaction that inserted `fixes`: each truck's GPS odometer (cum_km)
 * from the fix before the earliest new one onwards (in time order: only the new fixes; a late fix also
 * shifts the ones after it), then the per-day rollup (truck_days): counts and extremes from the new fixes,
 * km again for the days whose segments changed. Serialised per truck (transaction lock, in truck order).
 */
export async function rollUpFixes(tx: DbOrTx, fixes: InsertedFix[]): Promise<void> {
  if (fixes.length === 0) return;
  const span = new Map<string, { from: string; to: string }>();
  for (const f of fixes) {
    const at = iso(f.fix_time);
    const cur = span.get(f.truck_id);
    if (!cur) span.set(f.truck_id, { from: at, to: at });
    else {
      if (at < cur.from) cur.from = at;
      if (at > cur.to) cur.to = at;
    }
  }
  const trucks = [...span.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([truck_id, s]) => ({ truck_id, from_t: s.from, to_t: s.to }));
  const input = JSON.stringify(trucks);
  await rows(
    tx,
    sql`select pg_advisory_xact_lock(hashtextextended('odometer:' || truck_id, 0))
        from jsonb_to_recordset(${input}::jsonb) as x(truck_id text) order by truck_id`,
  );

  const shifted = await rows(
    tx,
    sql`with t as (select * from jsonb_to_recordset(${input}::jsonb) as x(truck_id text, from_t timestamptz)),
    anchor as (
      select t.truck_id, a.fix_time, a.device_id, coalesce(a.cum_km, 0) as cum_km
      from t left join lateral (
        select fix_time, device_id, cum_km from truck_positions p
        where p.truck_id = t.truck_id and p.fix_time < t.from_t
        order by fix_time desc, device_id desc limit 1) a on true),
    seq as (
      select x.device_id, x.fix_time,
        x.base + coalesce(sum(x.seg) over (partition by x.truck_id order by x.fix_time, x.device_id
                                             rows unbounded preceding), 0) as cum
      from (select p.device_id, p.fix_time, p.truck_id, an.cum_km as base, ${segmentKm} as seg
            from truck_positions p join anchor an on an.truck_id = p.truck_id
            where an.fix_time is null or (p.fix_time, p.device_id) >= (an.fix_time, an.device_id)
            window w as (partition by p.truck_id order by p.fix_time, p.device_id)) x)
    update truck_positions p set cum_km = s.cum
    from seq s
    where p.device_id = s.device_id and p.fix_time = s.fix_time and p.cum_km is distinct from s.cum
    returning 1`,
  );

  // The days of the new fixes: counts and extremes added, km measured again (odometer at the day's last
  // fix minus at the last fix before the day, or its first).
  const perDay = JSON.stringify(
    fixes.map((f) => ({ truck_id: f.truck_id, fix_time: iso(f.fix_time), speed_kmh: f.speed_kmh })),
  );
  await rows(
    tx,
    sql`with x as (
      select truck_id, (fix_time at time zone ${BUSINESS_TIME_ZONE})::date as day, count(*)::int as fixes,
        (count(*) filter (where speed_kmh > ${MOVING_KMH}))::int as moving, min(fix_time) as first_at,
        max(fix_time) as last_at, max(speed_kmh) as top
      from jsonb_to_recordset(${perDay}::jsonb) as r(truck_id text, fix_time timestamptz, speed_kmh float8)
      group by 1, 2)
    insert into truck_days (truck_id, day, km, fixes, moving_fixes, first_fix_at, last_fix_at, max_speed_kmh)
    select x.truck_id, x.day, ${dayKm(sql.raw('x.truck_id'), sql.raw('x.day'))}, x.fixes, x.moving, x.first_at, x.last_at, x.top
    from x
    on conflict (truck_id, day) do update set
      km = excluded.km,
      fixes = truck_days.fixes + excluded.fixes,
      moving_fixes = truck_days.moving_fixes + excluded.moving_fixes,
      first_fix_at = least(truck_days.first_fix_at, excluded.first_fix_at),
      last_fix_at = greatest(truck_days.last_fix_at, excluded.last_fix_at),
      max_speed_kmh = greatest(truck_days.max_speed_kmh, excluded.max_speed_kmh)`,
  );
  // Trips already rolled up whose window the new fixes fall in (late GPS) are measured again.
  await remeasureTrips(tx, trucks);
  // Fixes in time order move only themselves. A late one also changed the segment of the fix after it,
  // whose day may be another: the days up to the fix after the latest new one are measured again.
  if (shifted.length <= fixes.length) return;
  await rows(
    tx,
    sql`with t as (select * from jsonb_to_recordset(${input}::jsonb) as x(truck_id text, from_t timestamptz, to_t timestamptz)),
    span as (
      select t.truck_id, (t.from_t at time zone ${BUSINESS_TIME_ZONE})::date as day_from,
        coalesce((select (p.fix_time at time zone ${BUSINESS_TIME_ZONE})::date from truck_positions p
                  where p.truck_id = t.truck_id and p.fix_time > t.to_t order by p.fix_time limit 1),
                 (t.to_t at time zone ${BUSINESS_TIME_ZONE})::date) as day_to
      from t)
    update truck_days d set km = ${dayKm(sql.raw('d.truck_id'), sql.raw('d.day'))}
    from span s where s.truck_id = d.truck_id and d.day between s.day_from and s.day_to`,
  );
}

/** A truck-day's km from the odometer: at its last fix minus at the last fix before it (or its first). */
function dayKm(truck: SQL, day: SQL): SQL {
  const start = sql`(${day}::timestamp at time zone ${BUSINESS_TIME_ZONE})`;
  const end = sql`((${day} + 1)::timestamp at time zone ${BUSINESS_TIME_ZONE})`;
  return sql`greatest(coalesce(
    (select cum_km from truck_positions p where p.truck_id = ${truck} and p.fix_time < ${end}
       order by fix_time desc, device_id desc limit 1)
    - coalesce(
        (select cum_km from truck_positions p where p.truck_id = ${truck} and p.fix_time < ${start}
           order by fix_time desc, device_id desc limit 1),
        (select cum_km from truck_positions p where p.truck_id = ${truck} and p.fix_time >= ${start}
           order by fix_time, device_id limit 1)), 0), 0)`;
}

/**
 * The truck's GPS km between two instants over its fixes in between (the odometer at the last fix at or
 * before `to` minus at the first at or after `from`), or null with fewer than two fixes in between. Two
 * index probes, whatever the history.
 */
export async function gpsKmBetween(
  db: DbOrTx,
  truckId: string,
  from: Date,
  to: Date,
): Promise<number | null> {
  const [row] = await rows<{
    first_at: string | Date | null;
    first_km: number | null;
    last_at: string | Date | null;
    last_km: number | null;
  }>(
    db,
    sql`select a.fix_time as first_at, a.cum_km as first_km, b.fix_time as last_at, b.cum_km as last_km
        from (select 1) one
        left join lateral (select fix_time, cum_km from truck_positions
          where truck_id = ${truckId} and fix_time >= ${from.toISOString()} and fix_time <= ${to.toISOString()}
          order by fix_time, device_id limit 1) a on true
        left join lateral (select fix_time, cum_km from truck_positions
          where truck_id = ${truckId} and fix_time >= ${from.toISOString()} and fix_time <= ${to.toISOString()}
          order by fix_time desc, device_id desc limit 1) b on true`,
  );
  if (!row?.first_at || !row.last_at || row.first_km === null || row.last_km === null) return null;
  if (new Date(row.first_at).getTime() >= new Date(row.last_at).getTime()) return null;
  return Math.max(0, Number(row.last_km) - Number(row.first_km));
}
