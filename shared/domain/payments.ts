/**
 * How a payment settles an order: the one rule for an ops confirmation and an M-Pesa payment, and what
 * counts as the same money twice. Pure.
 */
import { isPaymentDue, isUnpaidOrder, type OrderPaymentStatus, type OrderStatus } from '../enums';
import { MPESA_METHOD } from '../payments';

/** The method M-Pesa's own reports (callbacks, status queries) are recorded with. */
export const MPESA_REPORTED_METHOD = 'MPESA';
/** Every method name an M-Pesa payment is recorded with: reported by M-Pesa, or typed by a person. */
export const MPESA_METHODS = [MPESA_REPORTED_METHOD, MPESA_METHOD] as const;

export function isMpesaMethod(method: string): boolean {
  return (MPESA_METHODS as readonly string[]).includes(method);
}

// One M-Pesa receipt is one payment, whoever reports it and on whichever order: it settles at most one
// payment row (confirmed, on any order or unmatched: `payments_settled_receipt_key` in the database, and
// `settledReceiptHolder` before it). Bank references are not compared: banks and customers reuse them, so
// they only key one order's replays.

/**
 * At most this many new payment confirmations per order a day. A large order is paid in at most four
 * M-Pesa parts (KES 250,000 each) or a few bank transfers; two more allow a corrected reference. Each one
 * alerts ops, so more is noise (or abuse); the rest are answered 429 until the oldest is a day old.
 */
export const CONFIRMATIONS_PER_ORDER = { count: 6, windowMs: 24 * 3600_000 } as const;

/** Seconds until the oldest confirmation in the window leaves it, or null when another one is allowed. */
export function confirmationWait(recent: Date[], now: Date): number | null {
  if (recent.length < CONFIRMATIONS_PER_ORDER.count) return null;
  const oldest = recent[recent.length - CONFIRMATIONS_PER_ORDER.count]!.getTime();
  return Math.max(1, Math.ceil((oldest + CONFIRMATIONS_PER_ORDER.windowMs - now.getTime()) / 1000));
}

/** The customer still has to pay and confirm: a new order with no payment sent, or its last one rejected. */
export const needsPayment = (o: { status: string; payment_status: string }) =>
  o.status === 'AWAITING_PAYMENT' && isPaymentDue(o.payment_status);

/** Payment confirmed: the order is Received if it was still waiting for its money; later states stay. */
export function confirmedOrder(status: OrderStatus): { status: OrderStatus; paymentStatus: 'CONFIRMED' } {
  return { status: isUnpaidOrder(status) ? 'RECEIVED' : status, paymentStatus: 'CONFIRMED' };
}

export interface OrderMoney {
  status: OrderStatus;
  paymentStatus: OrderPaymentStatus;
  totalCents: number;
  /** Sum of the amounts of the order's confirmed payments that carry one. */
  paidCents: number;
}

/** Still owed: nothing once the payment is confirmed (ops may confirm without an amount) or cancelled. */
export function balanceCents(o: OrderMoney): number {
  if (o.paymentStatus === 'CONFIRMED' || o.status === 'CANCELLED') return 0;
  return Math.max(0, o.totalCents - o.paidCents);
}

export interface Settlement {
  /** The part of this payment beyond what the order owed: a credit ops refund or carry over. */
  creditCents: number;
  /** What the order still owes after it. */
  balanceCents: number;
  /** True when this payment clears the balance: confirm the payment and move the order on. */
  settles: boolean;
}

/**
 * A new payment of `amountCents` against an order (its money before the payment). A cancelled or already
 * settled order owes nothing, so all of it is credit.
 */
export function settle(order: OrderMoney, amountCents: number): Settlement {
  const owed = balanceCents(order);
  if (owed === 0) return { creditCents: amountCents, balanceCents: 0, settles: false };
  return {
    creditCents: Math.max(0, amountCents - owed),
    balanceCents: Math.max(0, owed - amountCents),
    settles: amountCents >= owed,
  };
}
