import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../../drizzle/db';
import { assignments, deliveryProofs, drivers, orders, trucks, users } from '../../../drizzle/schema';
import { accountRefOf } from '../../../shared/domain/mpesa';
import { balanceCents } from '../../../shared/domain/payments';
import type { TDeliveryProof } from '../../../shared/schemas/loads';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { trackingPath } from '../../../shared/schemas/tracking';
import { type OrderPayments, paymentsOfOrders } from '../payments/payments.queries';

export type OrderRow = typeof orders.$inferSelect;

export interface OrderFilter {
  /** One customer's orders. */
  customerId?: number;
  /** With (true) or without (false) a load that is not cancelled, for the workspace filter. */
  assigned?: boolean | undefined;
}

function whereOf(filter: OrderFilter) {
  const hasLoad = sql`exists (select 1 from ${assignments} where ${assignments.orderId} = ${orders.id} and ${assignments.status} <> 'CANCELLED')`;
  return and(
    filter.customerId !== undefined ? eq(orders.customerId, filter.customerId) : undefined,
    filter.assigned === undefined ? undefined : filter.assigned ? hasLoad : sql`not ${hasLoad}`,
  );
}

/** The proof as staff see it: the photo through the access-checked uploads route. */
export function proofOf(
  p: null | {
    photoPath: string | null;
    method: 'code' | 'receiver' | null;
    receiverName: string | null;
    flagged: boolean | null;
    recordedAt: Date | null;
  },
  recordedBy: string | null,
): TDeliveryProof | null {
  if (!p?.photoPath || !p.method || !p.recordedAt) return null;
  return {
    photoUrl: `/api/uploads/${p.photoPath}`,
    method: p.method,
    receiverName: p.receiverName,
    flagged: p.flagged ?? false,
    recordedAt: p.recordedAt.toISOString(),
    recordedBy,
  };
}

const recorder = alias(users, 'recorder');

/**
 * Orders in the spec's listed shape (snake_case), newest first, each with its assignments. A customer's
 * own listing carries the delivery code; staff listings carry the proofs of delivery instead.
 */
export async function listOrders(db: DbOrTx, filter: OrderFilter = {}, limit = 500): Promise<TListedOrder[]> {
  const forCustomer = filter.customerId !== undefined;
  const rows = await db
    .select()
    .from(orders)
    .where(whereOf(filter))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  if (rows.length === 0) return [];
  const money = await paymentsOfOrders(
    db,
    rows.map((r) => r.id),
  );
  const loads = await db
    .select({
      id: assignments.id,
      orderId: assignments.orderId,
      truckId: assignments.truckId,
      plate: trucks.plate,
      tonnes: assignments.tonnes,
      scheduledAt: assignments.scheduledAt,
      status: assignments.status,
      driver: drivers.name,
      scheduledBeforePayment: assignments.scheduledBeforePayment,
      overrideReason: assignments.overrideReason,
      inTransitAt: assignments.inTransitAt,
      arrivedAt: assignments.arrivedAt,
      deliveredAt: assignments.deliveredAt,
      proof: {
        photoPath: deliveryProofs.photoPath,
        method: deliveryProofs.method,
        receiverName: deliveryProofs.receiverName,
        flagged: deliveryProofs.flagged,
        recordedAt: deliveryProofs.recordedAt,
      },
      recordedBy: recorder.name,
    })
    .from(assignments)
    .leftJoin(trucks, eq(trucks.id, assignments.truckId))
    .leftJoin(drivers, eq(drivers.id, assignments.driverId))
    .leftJoin(deliveryProofs, eq(deliveryProofs.assignmentId, assignments.id))
    .leftJoin(recorder, eq(recorder.id, deliveryProofs.recordedById))
    .where(
      inArray(
        assignments.orderId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(assignments.id));
  const byOrder = new Map<number, TListedOrder['assignments']>();
  for (const a of loads) {
    const list = byOrder.get(a.orderId) ?? [];
    list.push({
      id: a.id,
      truck_id: a.truckId,
      truckId: a.truckId,
      plate: a.plate,
      tonnes: a.tonnes,
      scheduledAt: a.scheduledAt?.toISOString() ?? null,
      status: a.status,
      driver: a.driver,
      scheduledBeforePayment: a.scheduledBeforePayment,
      inTransitAt: a.inTransitAt?.toISOString() ?? null,
      arrivedAt: a.arrivedAt?.toISOString() ?? null,
      deliveredAt: a.deliveredAt?.toISOString() ?? null,
      proof: forCustomer ? null : proofOf(a.proof, a.recordedBy),
      ...(forCustomer
        ? {}
        : {
            withoutProof: a.status === 'DELIVERED' && !a.proof?.photoPath,
            overrideReason: a.overrideReason,
          }),
    });
    byOrder.set(a.orderId, list);
  }
  return rows.map((r) => ({
    id: r.id,
    created_at: r.createdAt.toISOString(),
    site: r.site,
    status: r.status,
    payment_status: r.paymentStatus ?? 'PENDING',
    sand_type: r.sandType,
    trucks: r.trucks,
    per_truck: r.perTruckCents / 100,
    total: r.totalCents / 100,
    distance_km: r.distanceKm,
    distance_source: r.distanceSource,
    date_needed: r.dateNeeded,
    overnight_pour: r.overnightPour,
    assignments: byOrder.get(r.id) ?? [],
    name: r.name,
    email: r.email,
    ...moneyOf(r, money.get(r.id)),
    siteLat: r.siteLat,
    siteLng: r.siteLng,
    siteRadiusM: r.siteRadiusM,
    siteSource: r.siteSource,
    trackingUrl: trackingPath(r.trackingToken),
    ...(forCustomer ? { deliveryCode: r.deliveryCode } : {}),
  }));
}

/** The order's account number, what it was paid (in KES), what it still owes, its credit and its payments. */
function moneyOf(r: OrderRow, m: OrderPayments | undefined) {
  const paidCents = m?.paidCents ?? 0;
  return {
    accountRef: accountRefOf(r.id),
    paid: paidCents / 100,
    balance:
      balanceCents({
        status: r.status,
        paymentStatus: r.paymentStatus,
        totalCents: r.totalCents,
        paidCents,
      }) / 100,
    credit: (m?.creditCents ?? 0) / 100,
    payments: m?.payments ?? [],
  };
}

export async function insertOrder(db: DbOrTx, values: typeof orders.$inferInsert): Promise<OrderRow> {
  const [row] = await db.insert(orders).values(values).returning();
  return row!;
}

export async function customerExists(db: DbOrTx, id: number): Promise<boolean> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'CUSTOMER')))
    .limit(1);
  return rows.length > 0;
}

/** The order, locked until the transaction ends (payments, reviews and load moves of one order queue up). */
export async function lockOrder(db: DbOrTx, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update').limit(1);
  return row;
}

/**
 * A customer's own order, locked until the transaction ends. Another customer's order is not found, the
 * same as an unknown id, so order ids cannot be probed.
 */
export async function lockCustomerOrder(
  db: DbOrTx,
  customerId: number,
  id: number,
): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.customerId, customerId)))
    .for('update')
    .limit(1);
  return row;
}

/** Sets the order's site point and its geofence radius. */
export async function setSitePoint(
  db: DbOrTx,
  orderId: number,
  site: { lat: number; lng: number; radiusM: number; source: NonNullable<OrderRow['siteSource']> },
  now: Date,
) {
  await db
    .update(orders)
    .set({
      siteLat: site.lat,
      siteLng: site.lng,
      siteRadiusM: site.radiusM,
      siteSource: site.source,
      siteSetAt: now,
      updatedAt: now,
    })
    .where(eq(orders.id, orderId));
}
