import { describe, expect, it } from 'vitest';
import {
  balanceCents,
  CONFIRMATIONS_PER_ORDER,
  confirmationWait,
  confirmedOrder,
  isMpesaMethod,
  type OrderMoney,
  settle,
} from './payments';

const order = (over: Partial<OrderMoney> = {}): OrderMoney => ({
  status: 'AWAITING_PAYMENT',
  paymentStatus: 'PENDING',
  totalCents: 6_400_000,
  paidCents: 0,
  ...over,
});

describe('confirmedOrder', () => {
  it.each([
    ['AWAITING_PAYMENT', 'RECEIVED'],
    ['PAYMENT_REVIEW', 'RECEIVED'],
    ['RECEIVED', 'RECEIVED'],
    ['IN_TRANSIT', 'IN_TRANSIT'],
    ['DELIVERED', 'DELIVERED'],
    ['CANCELLED', 'CANCELLED'],
  ] as const)('%s → %s', (from, to) =>
    expect(confirmedOrder(from)).toEqual({ status: to, paymentStatus: 'CONFIRMED' }),
  );
});

describe('settle', () => {
  it.each([
    ['full', order(), 6_400_000, { creditCents: 0, balanceCents: 0, settles: true }],
    ['partial', order(), 2_000_000, { creditCents: 0, balanceCents: 4_400_000, settles: false }],
    [
      'the rest',
      order({ paidCents: 2_000_000 }),
      4_400_000,
      { creditCents: 0, balanceCents: 0, settles: true },
    ],
    ['over', order(), 7_000_000, { creditCents: 600_000, balanceCents: 0, settles: true }],
    [
      'over after a part',
      order({ paidCents: 6_000_000 }),
      1_000_000,
      { creditCents: 600_000, balanceCents: 0, settles: true },
    ],
    [
      'in review',
      order({ status: 'PAYMENT_REVIEW', paymentStatus: 'SUBMITTED' }),
      6_400_000,
      { creditCents: 0, balanceCents: 0, settles: true },
    ],
    [
      'after a rejection',
      order({ paymentStatus: 'REJECTED' }),
      6_400_000,
      { creditCents: 0, balanceCents: 0, settles: true },
    ],
    [
      'already confirmed',
      order({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' }),
      500_000,
      { creditCents: 500_000, balanceCents: 0, settles: false },
    ],
    [
      'cancelled',
      order({ status: 'CANCELLED' }),
      500_000,
      { creditCents: 500_000, balanceCents: 0, settles: false },
    ],
    [
      'cents rounded up by STK',
      order({ totalCents: 3_200_050 }),
      3_200_100,
      { creditCents: 50, balanceCents: 0, settles: true },
    ],
  ])('%s', (_name, before, amount, after) => expect(settle(before, amount)).toEqual(after));

  it('owes nothing once confirmed, whatever was paid', () => {
    expect(balanceCents(order({ paymentStatus: 'CONFIRMED' }))).toBe(0);
    expect(balanceCents(order({ paidCents: 9_000_000 }))).toBe(0);
    expect(balanceCents(order({ paidCents: 1_000_000 }))).toBe(5_400_000);
  });
});

describe('confirmationWait: at most CONFIRMATIONS_PER_ORDER a day', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000);
  it.each([
    ['none yet', [], null],
    ['five in the day', [20, 10, 5, 2, 1].map(hoursAgo), null],
    ['six: wait until the oldest is a day old (4 h)', [20, 10, 5, 2, 1, 0.5].map(hoursAgo), 4 * 3600],
    ['seven: the second oldest counts', [23, 20, 10, 5, 2, 1, 0.5].map(hoursAgo), 4 * 3600],
    ['six, the oldest leaving now: one second', [24 - 1 / 3600, 10, 5, 2, 1, 0.5].map(hoursAgo), 1],
  ])('%s', (_label, recent, wait) => {
    expect(CONFIRMATIONS_PER_ORDER.count).toBe(6);
    expect(confirmationWait(recent, now)).toBe(wait);
  });
});

describe('isMpesaMethod', () => {
  it.each([
    ['MPESA', true],
    ['M-Pesa paybill', true],
    ['Equity', false],
    ['mpesa', false],
  ])('%s → %s', (method, expected) => {
    expect(isMpesaMethod(method)).toBe(expected);
  });
});
