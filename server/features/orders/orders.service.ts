import type { DbOrTx } from '../../../drizzle/db';
import { raiseAlert } from '../../../drizzle/outbox';
import { toCents } from '../../../shared/domain/format';
import { accountRefOf } from '../../../shared/domain/mpesa';
import { loadOutsideWindow } from '../../../shared/domain/trip-profit';
import type { Logger } from '../../../shared/logger';
import { ADMIN_ORDER_MESSAGES, type TAdminOrderCreateInput } from '../../../shared/schemas/admin-orders';
import {
  ORDER_MESSAGES,
  type TGuestOrderInput,
  type TGuestOrderResult,
  type TListedOrder,
  type TOrderCreated,
  type TOrderInput,
} from '../../../shared/schemas/orders';
import type { Settings } from '../../../shared/settings';
import { hashPassword } from '../../auth/passwords';
import { type LimitCheck, type Limiters, limited, reserve } from '../../auth/rate-limit';
import type { CtxUser } from '../../context';
import { appError } from '../../errors';
import { insertUser } from '../auth/auth.queries';
import { issueSession } from '../auth/auth.service';
import { signPaymentToken } from '../mpesa/payment-token';
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
  limiters: Limiters;
}

/** Who asked for the order and on what terms; every entry point (guest, customer, admin) fills one in. */
export interface NewOrder {
  name: string;
  phone: string;
  email: string;
  site: string;
  sandType: 'coarse' | 'smooth';
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
  newAccount?: { password: string } | undefined;
}

export function toOrderCreated(row: OrderRow): TOrderCreated {
  return {
    id: row.id,
    status: row.status,
    perTruck: row.perTruckCents / 100,
    total: row.totalCents / 100,
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
    const checks: LimitCheck[] = [[deps.limiters.guestOrderPerIp, request.ip]];
    if (order.newAccount) checks.push([deps.limiters.registerPerIp, request.ip]);
    await limited(() => reserve(checks));
  }
  const quote = await quoteFor(db, deps.settings, deps.log, {
    site: order.site,
    trucks: order.trucks,
    distanceKm: order.distanceKm,
    perTruckOverride: order.perTruckOverride ?? null,
  });
  const perTruckCents = toCents(quote.perTruck);
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
    });
    await raiseAlert(tx, { kind: 'order.created', orderId: row.id });
    return { row, account };
  });
  return {
    ...toOrderCreated(row),
    ...(request.guest
      ? { paymentToken: await signPaymentToken(row.id, deps.settings.jwtSecret, request.now) }
      : {}),
    ...(account ? { account: await issueSession(deps.settings, account) } : {}),
  };
}

/** The load fields every entry point shares. */
const loadOf = (
  input: Pick<NewOrder, 'site' | 'sandType' | 'trucks' | 'distanceKm' | 'dateNeeded' | 'overnightPour'>,
) => ({
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
