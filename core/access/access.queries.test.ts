import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../drizzle/db';
import { rows as sqlRows } from '../../drizzle/db';
import type { AssignmentStatus } from '../../shared/enums';
import { makeAssignment, makeDriver, makeOrder, makeTruck } from '../../test/factories';
import { createTestDatabase } from '../../test/helpers';
import { recentLoads } from '../driver-dashboard/driver-dashboard.queries';
import { truckPositionRows } from '../telemetry/telemetry.queries';
import { driverOwnsLoadSql, driverOwnsTruckSql } from './access.queries';
import type { CtxUser } from './actor';
import { driverOwnsLoad, linkedDriver } from './rules';

// The SQL twins of the ownership rules, checked against the rules on the same rows: every (driver, load)
// pair answers the same in SQL as in rules.ts, and the lists scoped by them hold exactly those rows.
let database: Database;
let d1: string;
let d2: string;
const loads: Array<{ id: number; driverId: string | null; truckId: string; status: AssignmentStatus }> = [];
const trucksOf: Record<string, string> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  d1 = (await makeDriver(db)).id;
  d2 = (await makeDriver(db)).id;
  // The trucks: d1's own (primary), one d1 drives a scheduled load of, one where d1's load is delivered,
  // d2's own, and one nobody is on.
  trucksOf.primary = (await makeTruck(db, { primaryDriverId: d1 })).id;
  trucksOf.openLoad = (await makeTruck(db)).id;
  trucksOf.doneLoad = (await makeTruck(db)).id;
  trucksOf.other = (await makeTruck(db, { primaryDriverId: d2 })).id;
  trucksOf.idle = (await makeTruck(db)).id;
  const order = await makeOrder(db, { trucks: 5 });
  const add = async (truckId: string, driverId: string | null, status: AssignmentStatus) => {
    const load = await makeAssignment(db, { orderId: order.id, truckId, driverId, status, tonnes: 4 });
    loads.push({ id: load.id, driverId, truckId, status });
  };
  await add(trucksOf.primary, d1, 'IN_TRANSIT');
  await add(trucksOf.openLoad, d1, 'SCHEDULED');
  await add(trucksOf.doneLoad, d1, 'DELIVERED');
  await add(trucksOf.other, d2, 'ARRIVED');
  await add(trucksOf.idle, null, 'CANCELLED');
});
afterAll(() => database.close());

const driverUser = (driverId: string): CtxUser => ({
  id: 1,
  role: 'DRIVER',
  name: 'Driver',
  email: 'driver@example.co.ke',
  phone: null,
  driverId,
});

describe('driverOwnsLoadSql', () => {
  it('answers every (driver, load) pair as driverOwnsLoad does', async () => {
    for (const driverId of [d1, d2, 'DRV-NOBODY']) {
      const user = driverUser(driverId);
      const owned = await sqlRows<{ id: number }>(
        database.db,
        sql`select a.id from assignments a where ${driverOwnsLoadSql(linkedDriver(user)!, 'a')} order by a.id`,
      );
      expect(
        owned.map((r) => Number(r.id)),
        driverId,
      ).toEqual(loads.filter((l) => driverOwnsLoad(user, l)).map((l) => l.id));
    }
  });

  it("scopes a driver's recent loads on the dashboard", async () => {
    expect((await recentLoads(database.db, d1)).map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual(
      loads.filter((l) => l.driverId === d1).map((l) => l.id),
    );
  });
});

describe('driverOwnsTruckSql', () => {
  it('a driver sees the trucks they are primary on or drive an open load of, nothing else', async () => {
    const seen = await sqlRows<{ id: string }>(
      database.db,
      sql`select t.id from trucks t where ${driverOwnsTruckSql(d1, 't')} order by t.id`,
    );
    expect(seen.map((r) => r.id)).toEqual([trucksOf.primary!, trucksOf.openLoad!].sort());
    // The map's list is scoped by the same fragment.
    const onMap = await truckPositionRows(database.db, d1);
    expect(onMap.map((r) => r.truck_id).sort()).toEqual([trucksOf.primary!, trucksOf.openLoad!].sort());
    expect((await truckPositionRows(database.db, d2)).map((r) => r.truck_id)).toEqual([trucksOf.other]);
    expect(await truckPositionRows(database.db, 'DRV-NOBODY')).toEqual([]);
  });
});
