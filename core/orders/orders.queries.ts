import { and, desc, eq, inArray, isNull, notInArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { assignments, orders, users } from '../../drizzle/schema';
import { EXACT_SITE_SOURCES } from '../../shared/domain/geofence';
import { fromCents } from '../../shared/domain/money';
import { accountRefOf } from '../../shared/domain/mpesa';
import { balanceCents } from '../../shared/domain/payments';
import type { TListedOrder } from '../../shared/schemas/orders';
import { trackingPath } from '../../shared/schemas/tracking';
import { orderDocuments } from '../invoices/invoices.queries';
import { loadRows, proofOf } from '../loads/loads.queries';
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
  const documents = await orderDocuments(db, rows);
  const loads = await loadRows(
    db,
    inArray(
      assignments.orderId,
      rows.map((r) => r.id),
    ),
  );
  const byOrder = new Map<number, TListedOrder['assignments']>();
  for (const { a, plate, driver, proof, recordedBy } of loads) {
    const list = byOrder.get(a.orderId) ?? [];
    list.push({
      id: a.id,
      truck_id: a.truckId,
      truckId: a.truckId,
      plate,
      tonnes: a.tonnes,
      scheduledAt: a.scheduledAt?.toISOString() ?? null,
      status: a.status,
      driver,
      scheduledBeforePayment: a.scheduledBeforePayment,
      inTransitAt: a.inTransitAt?.toISOString() ?? null,
      arrivedAt: a.arrivedAt?.toISOString() ?? null,
      deliveredAt: a.deliveredAt?.toISOString() ?? null,
      proof: forCustomer ? null : proofOf(proof, recordedBy),
      ...(forCustomer
        ? {}
        : {
            withoutProof: a.status === 'DELIVERED' && !proof?.photoPath,
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
    per_truck: fromCents(r.perTruckCents),
    total: fromCents(r.totalCents),
    distance_km: r.distanceKm,
    distance_source: r.distanceSource,
    date_needed: r.dateNeeded,
    overnight_pour: r.overnightPour,
    assignments: byOrder.get(r.id) ?? [],
    name: r.name,
    email: r.email,
    phone: r.phone,
    ...moneyOf(r, money.get(r.id)),
    siteLat: r.siteLat,
    siteLng: r.siteLng,
    siteRadiusM: r.siteRadiusM,
    siteSource: r.siteSource,
    trackingUrl: trackingPath(r.trackingToken),
    ...(forCustomer ? { deliveryCode: r.deliveryCode } : {}),
    ...documents.get(r.id)!,
  }));
}

/** The order's account number, what it was paid (in KES), what it still owes, its credit and its payments. */
function moneyOf(r: OrderRow, m: OrderPayments | undefined) {
  const paidCents = m?.paidCents ?? 0;
  return {
    accountRef: accountRefOf(r.id),
    paid: fromCents(paidCents),
    balance: fromCents(
      balanceCents({
        status: r.status,
        paymentStatus: r.paymentStatus,
        totalCents: r.totalCents,
        paidCents,
      }),
    ),
    credit: fromCents(m?.creditCents),
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

export async function findOrder(db: DbOrTx, id: number): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).limit(1);
  return row;
}

/**
 * The order, locked until the transaction ends. Every change to an order's money (a payment confirmed by
 * the customer, ops or M-Pesa, a review, a match) takes this lock before it reads the order's payments, so
 * they happen one after another; load moves queue up on it too.
 */
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

/**
 * The driver's position at the site as the order's point, unless someone put one there exactly (a pin, a
 * shared location, a driver before): it replaces nothing or a looked-up point (geocoder, gazetteer).
 */
export async function setDriverSitePoint(
  db: DbOrTx,
  orderId: number,
  site: { lat: number; lng: number; radiusM: number },
  now: Date,
) {
  await db
    .update(orders)
    .set({
      siteLat: site.lat,
      siteLng: site.lng,
      siteRadiusM: site.radiusM,
      siteSource: 'driver',
      siteSetAt: now,
      updatedAt: now,
    })
    .where(
      and(
        eq(orders.id, orderId),
        or(isNull(orders.siteSource), notInArray(orders.siteSource, [...EXACT_SITE_SOURCES])),
      ),
    );
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
