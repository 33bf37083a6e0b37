import { timingSafeEqual } from 'node:crypto';
import type { CtxUser } from './actor';

/**
 * Who may see or change which row, written once. Role gating of whole procedures stays in the tRPC
 * builders (`roleProcedure`) and the raw routes' table; these are the rules about rows (this order, this
 * load, this driver, this file) and the role differences inside a use case. Pure: the user and the row's
 * owner in, a decision out. Their SQL twins, for lists scoped in the query, are in access.queries.ts.
 * Anything not named here is refused.
 */
type Who = Pick<CtxUser, 'id' | 'role' | 'driverId'>;

/** The dispatch office: ADMIN and OPS. */
export const isOperations = (user: Who) => user.role === 'ADMIN' || user.role === 'OPS';

/** The driver this account is: a DRIVER linked to a driver record, else nobody. */
export const linkedDriver = (user: Who): string | null =>
  user.role === 'DRIVER' && user.driverId ? user.driverId : null;

// ---------------------------------------------------------------------------------------------------
// Loads

/** The load is assigned to this account's driver. */
export function driverOwnsLoad(user: Who, load: { driverId: string | null }): boolean {
  const driverId = linkedDriver(user);
  return driverId !== null && load.driverId === driverId;
}

/** Who the user is to a load: operations, its own driver, or nobody (null: refused). */
export function loadActor(user: Who, load: { driverId: string | null }): 'ops' | 'driver' | null {
  if (isOperations(user)) return 'ops';
  return driverOwnsLoad(user, load) ? 'driver' : null;
}

/** Ops, or the driver the load is assigned to, may move it (how far: `loadMove` in shared/domain). */
export const canMoveLoad = (user: Who, load: { driverId: string | null }) => loadActor(user, load) !== null;

// ---------------------------------------------------------------------------------------------------
// Drivers

export type DriverRows =
  /** `driverId` undefined: every driver's rows (or the one the page picks). */
  { ok: true; driverId: string | undefined } | { ok: false; reason: 'not-linked' | 'not-yours' };

/**
 * Whose driver rows (dashboard, trips, trucks on the map) a user reads: a DRIVER only their own linked
 * driver, whatever they ask for (asking for another is 'not-yours'); the office and FUEL the one they
 * name, or all. A customer reads none.
 */
export function driverRows(user: Who, requested?: string): DriverRows {
  if (user.role === 'DRIVER') {
    if (!user.driverId) return { ok: false, reason: 'not-linked' };
    if (requested && requested !== user.driverId) return { ok: false, reason: 'not-yours' };
    return { ok: true, driverId: user.driverId };
  }
  if (user.role === 'CUSTOMER') return { ok: false, reason: 'not-yours' };
  return { ok: true, driverId: requested };
}

// ---------------------------------------------------------------------------------------------------
// Orders

/** The signed-in customer's own order. */
export const customerOwnsOrder = (user: Who, order: { customerId: number | null }) =>
  user.role === 'CUSTOMER' && order.customerId === user.id;

/**
 * Operations, or the customer whose order it is: who may see an order and point its site. Anyone else
 * is told it does not exist, exactly like an unknown id.
 */
export const mayReadOrder = (user: Who, order: { customerId: number | null }) =>
  isOperations(user) || customerOwnsOrder(user, order);

/**
 * An order's documents (its receipt, its credit notes): who may read the order, and whoever holds the
 * order's tracking link (its token, as `?token=`). Anyone else is told the order does not exist.
 */
export function mayReadOrderDocument(
  user: Who | null,
  order: { customerId: number | null; trackingToken: string },
  token: string | undefined,
): boolean {
  if (user && mayReadOrder(user, order)) return true;
  if (!token) return false;
  const given = Buffer.from(token);
  const expected = Buffer.from(order.trackingToken);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

// ---------------------------------------------------------------------------------------------------
// Customer accounts (issue 24)

/**
 * A customer account's statement and figures: ADMIN any account; a customer only their own. Anyone else
 * is told the account does not exist, exactly like an unknown id.
 */
export const mayReadAccount = (user: Who, customerId: number) =>
  user.role === 'ADMIN' || (user.role === 'CUSTOMER' && user.id === customerId);

// ---------------------------------------------------------------------------------------------------
// Trucks and costs

/** ADMIN edits a truck's every field; OPS only reassigns its primary driver (the fleet map). */
export function mayEditTruckFields(user: Who, fields: readonly string[]): boolean {
  if (user.role === 'ADMIN') return true;
  return user.role === 'OPS' && fields.every((f) => f === 'primaryDriverId');
}

/** How far back the cost ledger goes: OPS the recent entries it needs beside its form; ADMIN far more. */
export const costLedgerDepth = (user: Who) => (user.role === 'ADMIN' ? 2000 : 100);

// ---------------------------------------------------------------------------------------------------
// Uploads

/** What an uploaded file belongs to, as its rows say (core/uploads `uploadOwner`); undefined: nothing. */
export type UploadOwner =
  /** A fuel photo a fuel log references. */
  | { kind: 'fuel-photo' }
  /** A proof-of-delivery photo, with the driver of its load. */
  | { kind: 'delivery-photo'; driverId: string | null }
  /** A driver's national ID or profile photo, with that driver (null: no driver references it now). */
  | { kind: 'driver-document'; driverId: string | null };

/**
 * Driver documents go to ADMIN and to the driver they belong to; fuel photos to FUEL, OPS and ADMIN,
 * and only while a fuel log references them; delivery photos to ADMIN, OPS and the driver of that load.
 */
export function mayReadUpload(user: Who, owner: UploadOwner | undefined): boolean {
  if (!owner) return false;
  switch (owner.kind) {
    case 'fuel-photo':
      return isOperations(user) || user.role === 'FUEL';
    case 'delivery-photo':
      // Those who may move the load see its proof.
      return loadActor(user, owner) !== null;
    case 'driver-document':
      return user.role === 'ADMIN' || (owner.driverId !== null && linkedDriver(user) === owner.driverId);
  }
}
