import { describe, expect, it } from 'vitest';
import type { AssignmentStatus } from '../../../shared/enums';
import { orderActions, tonnesScheduled, tonnesToSchedule } from './loads';

const load = (status: AssignmentStatus, tonnes = 20) => ({
  id: 1,
  truck_id: 'T1',
  truckId: 'T1',
  plate: 'KDA 101S',
  tonnes,
  scheduledAt: null,
  status,
  driver: 'Mwangi',
  scheduledBeforePayment: false,
});

describe('tonnes to schedule', () => {
  it.each([
    [1, [], 20],
    [3, [load('SCHEDULED')], 40],
    [3, [load('SCHEDULED'), load('CANCELLED')], 40],
    [2, [load('DELIVERED'), load('IN_TRANSIT')], 0],
    [2, [load('DELIVERED', 12.5)], 27.5],
    [1, [load('SCHEDULED', 20), load('SCHEDULED', 20)], 0],
  ])('%s trucks with %j leave %s t', (trucks, assignments, left) => {
    expect(tonnesToSchedule({ trucks, assignments })).toBe(left);
  });
  it('counts every load that is not cancelled', () =>
    expect(tonnesScheduled({ trucks: 3, assignments: [load('DELIVERED'), load('CANCELLED')] })).toBe(20));
});

describe('next action on an order', () => {
  const order = (status: string, payment: string, trucks: number, assignments: ReturnType<typeof load>[]) =>
    orderActions({
      status: status as never,
      payment_status: payment as never,
      trucks,
      assignments,
    });
  it.each([
    [
      'a submitted payment is reviewed first',
      'PAYMENT_REVIEW',
      'SUBMITTED',
      1,
      [],
      ['review-payment', 'assign'],
    ],
    [
      'an unpaid order records a payment, or takes a truck before it',
      'AWAITING_PAYMENT',
      'PENDING',
      2,
      [],
      ['record-payment', 'assign'],
    ],
    [
      'a rejected payment can be recorded again',
      'AWAITING_PAYMENT',
      'REJECTED',
      1,
      [],
      ['record-payment', 'assign'],
    ],
    ['a paid order takes trucks', 'RECEIVED', 'CONFIRMED', 2, [], ['assign']],
    [
      'a paid order with tonnes left and a load out',
      'IN_TRANSIT',
      'CONFIRMED',
      2,
      [load('IN_TRANSIT')],
      ['assign', 'deliver'],
    ],
    [
      'a fully scheduled order waits for delivery',
      'RECEIVED',
      'CONFIRMED',
      1,
      [load('SCHEDULED')],
      ['deliver'],
    ],
    ['a delivered order is closed', 'DELIVERED', 'CONFIRMED', 1, [load('DELIVERED')], []],
    ['a cancelled order is closed', 'CANCELLED', 'PENDING', 1, [], []],
  ])('%s', (_, status, payment, trucks, assignments, actions) => {
    expect(order(status, payment, trucks, assignments)).toEqual(actions);
  });
});
