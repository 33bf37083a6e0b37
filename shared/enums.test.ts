import { describe, expect, it } from 'vitest';
import {
  ASSIGNMENT_STATUSES,
  IDLE_WATCH_LOAD_STATUSES,
  isClosedOrder,
  isLoadOut,
  isOpenLoad,
  isPaymentDue,
  isUnpaidOrder,
  ORDER_STATUSES,
} from './enums';

describe('the predicates over shared/enums tuples', () => {
  it.each(
    ASSIGNMENT_STATUSES.map((s) => [
      s,
      {
        open: ['SCHEDULED', 'IN_TRANSIT', 'ARRIVED'].includes(s),
        out: ['IN_TRANSIT', 'ARRIVED'].includes(s),
        idleWatch: ['SCHEDULED', 'IN_TRANSIT'].includes(s),
      },
    ]),
  )('load %s', (status, expected) =>
    expect({
      open: isOpenLoad(status),
      out: isLoadOut(status),
      idleWatch: (IDLE_WATCH_LOAD_STATUSES as readonly string[]).includes(status),
    }).toEqual(expected),
  );

  it.each(
    ORDER_STATUSES.map((s) => [
      s,
      {
        closed: ['DELIVERED', 'CANCELLED'].includes(s),
        unpaid: ['AWAITING_PAYMENT', 'PAYMENT_REVIEW'].includes(s),
      },
    ]),
  )('order %s', (status, expected) =>
    expect({ closed: isClosedOrder(status), unpaid: isUnpaidOrder(status) }).toEqual(expected),
  );

  it.each([
    ['PENDING', true],
    ['REJECTED', true],
    ['SUBMITTED', false],
    ['CONFIRMED', false],
  ] as const)('payment %s due: %s', (status, due) => expect(isPaymentDue(status)).toBe(due));

  it('knows no status it was not given', () => {
    expect(isOpenLoad('LOST')).toBe(false);
    expect(isClosedOrder('LOST')).toBe(false);
  });
});
