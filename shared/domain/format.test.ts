import { describe, expect, it } from 'vitest';
import { canonicalPaymentMethod } from '../payments';
import { formatKes, formatKesExact, formatKm, fromCents, orderStatusLabel, toCents } from './format';

describe('format', () => {
  it.each([
    [32000, 'KES 32,000'],
    [640000, 'KES 640,000'],
    [1234567.6, 'KES 1,234,568'],
    [0, 'KES 0'],
  ])('formatKes(%s) = %s', (n, s) => expect(formatKes(n)).toBe(s));

  it('keeps cents where they matter', () => expect(formatKesExact(1234.5)).toBe('KES 1,234.5'));
  it('formats km', () => {
    expect(formatKm(12)).toBe('12 km');
    expect(formatKm(12.34)).toBe('12.3 km');
  });
  it('converts cents both ways without float drift', () => {
    expect(toCents(1234.56)).toBe(123456);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(fromCents(123456)).toBe(1234.56);
  });
  it.each([
    ['AWAITING_PAYMENT', 'Awaiting Payment'],
    ['PAYMENT_REVIEW', 'Awaiting Payment Review'],
    ['RECEIVED', 'Received'],
    ['IN_TRANSIT', 'In Transit'],
    ['DELIVERED', 'Delivered'],
    ['WHATEVER', 'WHATEVER'],
  ])('status %s → %s', (code, label) => expect(orderStatusLabel(code)).toBe(label));
});

describe('canonicalPaymentMethod', () => {
  it.each([
    ['Equity', 'Equity'],
    ['equity', 'Equity'],
    ['Co-operative', 'Cooperative'],
    ['co-op', undefined],
    ['M-Pesa', 'M-Pesa paybill'],
    ['mpesa paybill', 'M-Pesa paybill'],
    ['Barclays', undefined],
  ])('%s → %s', (input, out) => expect(canonicalPaymentMethod(input)).toBe(out));
});
