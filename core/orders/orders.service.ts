import type { DbOrTx } from '../../drizzle/db';
import { raiseAlert, writeOutbox } from '../../drizzle/outbox';
import { siteRadiusFor } from '../../shared/domain/geofence';
import { fromCents, toCents } from '../../shared/domain/money';
import { accountRefOf } from '../../shared/domain/mpesa';
import { loadOutsideWindow } from '../../shared/domain/trip-profit';
import type { Language, SandType } from '../../shared/enums';
import type { Logger } from '../../shared/logger';
import { ADMIN_ORDER_MESSAGES, type TAdminOrderCreateInput } from '../../shared/schemas/admin-orders';
import {
  ORDER_MESSAGES,
  type TGuestOrderInput,
  type TGuestOrderResult,
  type TListedOrder,
  type TOrderCreated,
  type TOrderInput,
} from '../../shared/schemas/orders';
import { trackingPath } from '../../shared/schemas/tracking';
import type { Settings } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { insertUser } from '../auth/auth.queries';
import { issueSession } from '../auth/auth.service';
import { hashPassword } from '../auth/passwords';
import { type LimitCheck, type Limiters, limited, reserve } from '../auth/rate-limit';
import { appError } from '../errors';
import { signPaymentToken } from '../mpesa/payment-token';
import { distanceResolverFor } from '../pricing/distance.service';
import { quoteFor } from '../pricing/pricing.service';
import { customerExists, insertOrder, listOrders, type OrderRow } from './orders.queries';

/**
 * Where and when the order was asked for. A guest's address spends the guest-order allowance, and the
 * registration allowance too when the order makes a login.
 */
export type OrderRequest = { ip: string; now: Date; guest?: boolean };

export interface OrderDeps {
  settings: Settings;
  log: Logger;
  /** Needed for guest orders (their allowance per address); an order from a WhatsApp conversation has none. */
  limiters: Limiters | undefined;
}

/** Who asked for the order and on what terms; every entry point (guest, customer, admin) fills one in. */
export interface NewOrder {
  name: string;
  phone: string;
  email: string;
  site: string;
  sandType: SandType;
  trucks: number;
  distanceKm?: number | undefined;
  dateNeeded?: string | null | undefined;
  overnightPour?: boolean | undefined;
  customerId?: number | null | undefined;
  /** The staff member who took it by phone. */
  createdById?: number | null | undefined;
  /** An admin's per-truck price instead of the distance price. */
  perTruckOverride?: number | undefined;
  /** A guest's new portal login: a CUSTOMER account made with the order and signed in at once. */
  newAccount?: { password: string; language?: Language | undefined } | undefined;
  /** The buyer's KRA PIN for the tax invoice. */
  kraPin?: string | undefined;
}

export function toOrderCreated(row: OrderRow): TOrderCreated {
  return {
    id: row.id,
    status: row.status,
    perTruck: fromCents(row.perTruckCents),
    total: fromCents(row.totalCents),
    distanceKm: row.distanceKm,
    distanceSource: row.distanceSource,
    truckCount: row.trucks,
    sandType: row.sandType,
    accountRef: accountRefOf(row.id),
  };
}

/**
 * The one way an order is placed. The quote (and the argon2 hash of a new login) are worked out before
 * the transaction; the order, its login and its `order.created` alert commit together. A guest's order
 * spends the per-address guest allowance, and a new login the same allowance as registration.
 */
export async function placeOrder(
  db: DbOrTx,
  deps: OrderDeps,
  order: NewOrder,
  request: OrderRequest,
): Promise<TGuestOrderResult> {
  if (request.guest) {
    const l = deps.limiters;
    if (!l) throw new Error('A guest order needs the rate limiters');
    const checks: LimitCheck[] = [[l.guestOrderPerIp, request.ip]];
    if (order.newAccount) checks.push([l.registerPerIp, request.ip]);
    await limited(() => reserve(checks));
  }
  const quote = await quoteFor(db, deps.settings, deps.log, {
    site: order.site,
    trucks: order.trucks,
    distanceKm: order.distanceKm,
    perTruckOverride: order.perTruckOverride ?? null,
  });
  const perTruckCents = toCents(quote.perTruck);
  // The site's first point, for the geofence and the driver's directions: the geocoder's, else a town or
  // estate named in the site (gazetteer), with the wider fence a looked-up point gets. A customer's pin,
  // a shared location or the driver at the site refine it later.
  const located = await distanceResolverFor(deps.settings, deps.log).locate(order.site);
  const passwordHash = order.newAccount ? await hashPassword(order.newAccount.password) : undefined;
  const { row, account } = await db.transaction(async (tx) => {
    let account: Awaited<ReturnType<typeof insertUser>>;
    if (passwordHash) {
      account = await insertUser(tx, {
        name: order.name,
        email: order.email,
        phone: order.phone,
        role: 'CUSTOMER',
        passwordHash,
        language: order.newAccount?.language,
      });
      // Never attach an order to somebody else's existing account.
      if (!account) throw appError('CONFLICT', ORDER_MESSAGES.accountExists);
    }
    const row = await insertOrder(tx, {
      createdAt: request.now,
      updatedAt: request.now,
      customerId: account?.id ?? order.customerId ?? null,
      createdById: order.createdById ?? null,
      name: order.name,
      phone: order.phone,
      email: order.email,
      site: order.site,
      sandType: order.sandType,
      trucks: order.trucks,
      perTruckCents,
      totalCents: perTruckCents * order.trucks,
      distanceKm: quote.distanceKm,
      distanceSource: quote.distanceSource,
      dateNeeded: order.dateNeeded ?? null,
      overnightPour: order.overnightPour ?? false,
      priceOverridden: order.perTruckOverride !== undefined,
      customerPin: order.kraPin ?? null,
      ...(located
        ? {
            siteLat: located.lat,
            siteLng: located.lng,
            siteRadiusM: siteRadiusFor(located.source, deps.settings.tracking.siteRadiusM),
            siteSource: located.source,
            siteSetAt: request.now,
          }
        : {}),
    });
    await raiseAlert(tx, { kind: 'order.created', orderId: row.id });
    await recordChange(tx, { entity: 'order', entityId: row.id, after: row });
    // The customer's own notice (WhatsApp or SMS, when either is configured): tracking link and code.
    await writeOutbox(tx, 'customer.notify', { event: 'order.placed', orderId: row.id });
    return { row, account };
  });
  return {
    ...toOrderCreated(row),
    ...(request.guest
      ? {
          paymentToken: await signPaymentToken(row.id, deps.settings.jwtSecret, request.now),
          trackingUrl: trackingPath(row.trackingToken),
          deliveryCode: row.deliveryCode,
        }
      : {}),
    ...(account ? { account: await issueSession(deps.settings, account) } : {}),
  };
}

/** The load fields every entry point shares. */
const loadOf = (
  input: Pick<
    NewOrder,
    'site' | 'sandType' | 'trucks' | 'distanceKm' | 'dateNeeded' | 'overnightPour' | 'kraPin'
  >,
) => ({
  kraPin: input.kraPin,
  overnightPour: input.overnightPour,
  site: input.site,
  sandType: input.sandType,
  trucks: input.trucks,
  distanceKm: input.distanceKm,
  dateNeeded: input.dateNeeded,
});

export function placeGuestOrder(db: DbOrTx, deps: OrderDeps, input: TGuestOrderInput, request: OrderRequest) {
  const contact = { name: input.name, phone: input.phone, email: input.email ?? '' };
  return placeOrder(
    db,
    deps,
    { ...contact, ...loadOf(input), newAccount: input.account ?? undefined },
    { ...request, guest: true },
  );
}

export function placeCustomerOrder(
  db: DbOrTx,
  deps: OrderDeps,
  customer: CtxUser,
  input: TOrderInput,
  request: OrderRequest,
) {
  const contact = { name: customer.name, phone: customer.phone ?? '', email: customer.email };
  return placeOrder(db, deps, { ...contact, ...loadOf(input), customerId: customer.id }, request);
}

/** An order taken by phone: the quote, or the admin's per-truck override; optionally for a known customer. */
export async function placeAdminOrder(
  db: DbOrTx,
  deps: OrderDeps,
  admin: CtxUser,
  input: TAdminOrderCreateInput,
  request: OrderRequest,
) {
  if (input.customerId && !(await customerExists(db, input.customerId)))
    throw appError('BAD_REQUEST', ADMIN_ORDER_MESSAGES.unknownCustomer);
  const contact = { name: input.name, phone: input.phone, email: input.email ?? '' };
  return placeOrder(
    db,
    deps,
    {
      ...contact,
      ...loadOf(input),
      customerId: input.customerId,
      createdById: admin.id,
      perTruckOverride: input.perTruckOverride,
    },
    request,
  );
}

export function customerOrders(db: DbOrTx, customer: CtxUser): Promise<TListedOrder[]> {
  return listOrders(db, { customerId: customer.id });
}

/** Every order for operations; each load says whether it is outside the transport hours. */
export async function workspaceOrders(
  db: DbOrTx,
  assigned: boolean | undefined,
  settings: Pick<Settings, 'trips'>,
): Promise<TListedOrder[]> {
  const orders = await listOrders(db, { assigned });
  return orders.map((o) => ({
    ...o,
    assignments: o.assignments.map((a) => ({
      ...a,
      outsideWindow: loadOutsideWindow(a, settings.trips.window),
    })),
  }));
}
