import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../drizzle/db';
import { drivers, trucks } from '../../../drizzle/schema';
import {
  FLEET_MESSAGES,
  type TTruck,
  ZTruck,
  ZTruckCreateInput,
  ZTruckUpdateInput,
} from '../../../shared/schemas/fleet';
import { appError } from '../../errors';
import { roleProcedure, router } from '../../trpc';

async function truckRows(db: DbOrTx, id?: string): Promise<TTruck[]> {
  const rows = await db
    .select({ truck: trucks, driver: drivers })
    .from(trucks)
    .leftJoin(drivers, eq(drivers.id, trucks.primaryDriverId))
    .where(id ? eq(trucks.id, id) : undefined)
    .orderBy(asc(trucks.id));
  return rows.map(({ truck, driver }) => ({
    id: truck.id,
    plate: truck.plate,
    capacityT: truck.capacityT,
    capacity_t: truck.capacityT,
    primaryDriverId: truck.primaryDriverId,
    driverName: driver?.name ?? null,
    driverPhone: driver?.phone ?? null,
    driverEmail: driver?.email ?? null,
    deviceId: truck.deviceId,
    updatedAt: truck.updatedAt.toISOString(),
  }));
}

async function assertDriverExists(db: DbOrTx, driverId: string | null | undefined) {
  if (!driverId) return;
  const [d] = await db.select({ id: drivers.id }).from(drivers).where(eq(drivers.id, driverId)).limit(1);
  if (!d) throw appError('BAD_REQUEST', FLEET_MESSAGES.unknownDriver);
}

async function assertDeviceFree(db: DbOrTx, deviceId: string | null | undefined, truckId: string) {
  if (!deviceId) return;
  const [other] = await db
    .select({ id: trucks.id })
    .from(trucks)
    .where(sql`${trucks.deviceId} = ${deviceId} and ${trucks.id} <> ${truckId}`)
    .limit(1);
  if (other) throw appError('CONFLICT', FLEET_MESSAGES.deviceTaken);
}

export const trucksRouter = router({
  /** FUEL reads it for the fuel form's suggestions; OPS for its forms and the fleet map. */
  list: roleProcedure('ADMIN', 'OPS', 'FUEL')
    .output(ZTruck.array())
    .query(({ ctx }) => truckRows(ctx.db)),

  create: roleProcedure('ADMIN')
    .input(ZTruckCreateInput)
    .output(ZTruck)
    .mutation(async ({ ctx, input }) => {
      await assertDriverExists(ctx.db, input.primaryDriverId);
      await assertDeviceFree(ctx.db, input.deviceId, input.id);
      const inserted = await ctx.db
        .insert(trucks)
        .values({
          id: input.id,
          plate: input.plate,
          capacityT: input.capacityT,
          primaryDriverId: input.primaryDriverId ?? null,
          deviceId: input.deviceId ?? null,
        })
        .onConflictDoNothing({ target: trucks.id })
        .returning({ id: trucks.id });
      if (inserted.length === 0) throw appError('CONFLICT', FLEET_MESSAGES.truckIdTaken);
      return (await truckRows(ctx.db, input.id))[0]!;
    }),

  /** ADMIN edits everything but the id; OPS may only reassign the primary driver (the fleet map). */
  update: roleProcedure('ADMIN', 'OPS')
    .input(ZTruckUpdateInput)
    .output(ZTruck)
    .mutation(async ({ ctx, input }) => {
      const { id, ...changes } = input;
      const touched = Object.entries(changes)
        .filter(([, v]) => v !== undefined)
        .map(([k]) => k);
      if (ctx.user.role === 'OPS' && touched.some((k) => k !== 'primaryDriverId')) {
        throw appError('FORBIDDEN', FLEET_MESSAGES.opsDriverOnly);
      }
      await assertDriverExists(ctx.db, changes.primaryDriverId);
      await assertDeviceFree(ctx.db, changes.deviceId, id);
      const set: Partial<typeof trucks.$inferInsert> = { updatedAt: ctx.now() };
      if (changes.plate !== undefined) set.plate = changes.plate;
      if (changes.capacityT !== undefined) set.capacityT = changes.capacityT;
      if (changes.primaryDriverId !== undefined) set.primaryDriverId = changes.primaryDriverId;
      if (changes.deviceId !== undefined) set.deviceId = changes.deviceId;
      const updated = await ctx.db
        .update(trucks)
        .set(set)
        .where(eq(trucks.id, id))
        .returning({ id: trucks.id });
      if (updated.length === 0) throw appError('NOT_FOUND', FLEET_MESSAGES.unknownTruck);
      return (await truckRows(ctx.db, id))[0]!;
    }),
});
