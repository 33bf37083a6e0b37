import { type SQL, sql } from 'drizzle-orm';
import { sqlLiterals } from '../../drizzle/sql-lists';
import { OPEN_LOAD_STATUSES } from '../../shared/enums';

/**
 * Ownership in SQL, for lists scoped in the query (a driver's loads, trips and trucks): the twins of the
 * rules in rules.ts. Each takes the alias its query gives the table; access.queries.test.ts checks them
 * against the rules on the same rows.
 */

/** `driverOwnsLoad`: the load (an `assignments` row) is this driver's. */
export const driverOwnsLoadSql = (driverId: string, load = 'a'): SQL =>
  sql`${sql.identifier(load)}.driver_id = ${driverId}`;

/**
 * The trucks a DRIVER sees on the map: those they are the primary driver of, or drive an open load of.
 */
export const driverOwnsTruckSql = (driverId: string, truck = 't'): SQL =>
  sql`(${sql.identifier(truck)}.primary_driver_id = ${driverId} or exists (
        select 1 from assignments own where own.truck_id = ${sql.identifier(truck)}.id
          and ${driverOwnsLoadSql(driverId, 'own')}
          and own.status in (${sqlLiterals(OPEN_LOAD_STATUSES)})))`;
