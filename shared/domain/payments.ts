/**
 * How a payment settles an order: the one rule for an ops confirmation and an M-Pesa payment. Pure.
 */

type OrderStatus =
  | 'AWAITING_PAYMENT'
  | 'PAYMENT_REVIEW'
  | 'RECEIVED'
  | 'IN_TRANSIT'
  | 'DELIVERED'
  | 'CANCELLED';

/** Payment confirmed: the order is Received if it was still waiting for its money; later states stay. */
export function confirmedOrder(status: OrderStatus): { status: OrderStatus; paymentStatus: 'CONFIRMED' } {
  const waiting = status === 'AWAITING_PAYMENT' || status === 'PAYMENT_REVIEW';
  return { status: waiting ? 'RECEIVED' : status, paymentStatus: 'CONFIRMED' };
}

export interface OrderMoney {
  status: OrderStatus;
  paymentStatus: 'PENDING' | 'SUBMITTED' | 'CONFIRMED' | 'REJECTED';
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
