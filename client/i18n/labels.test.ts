import { describe, expect, it } from 'vitest';
import { type StatusGroup, statusLabel } from './labels';
import { landingEn } from './landing-en';
import { landingSw } from './landing-sw';

/** A `t` over a catalog that answers a missing key with the key, as i18next and useLandingT do. */
const tOf = (catalog: object) => (key: string) => {
  const value = key
    .split('.')
    .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalog);
  return typeof value === 'string' ? value : key;
};

const en = tOf(landingEn);
const sw = tOf(landingSw);

describe('statusLabel', () => {
  it.each<[StatusGroup, string | null | undefined, string]>([
    ['order', 'AWAITING_PAYMENT', 'Awaiting Payment'],
    ['order', 'PAYMENT_REVIEW', 'Awaiting Payment Review'],
    ['order', 'IN_TRANSIT', 'In Transit'],
    // a state the catalog does not know is shown as given; none is shown as nothing
    ['order', 'ON_HOLD', 'ON_HOLD'],
    ['order', null, ''],
    ['order', undefined, ''],
    ['order', '', ''],
    // spec: a payment without a state reads PENDING
    ['payment', null, 'Pending'],
    ['payment', undefined, 'Pending'],
    ['payment', '', 'Pending'],
    ['payment', 'CONFIRMED', 'Confirmed'],
    ['load', 'ARRIVED', 'Arrived'],
    ['load', 'LOST', 'LOST'],
    ['distance', 'manual', 'manual distance'],
    ['distance', 'heuristic', 'name heuristic'],
    ['distance', 'default', 'default estimate'],
    // any other source (or none) is an estimate, never a raw code
    ['distance', null, 'estimated'],
    ['distance', 'osrm', 'estimated'],
    ['distance', 'toString', 'estimated'],
  ])('English: %s %j → %j', (group, code, label) => {
    expect(statusLabel(en, group, code)).toBe(label);
  });

  it.each<[StatusGroup, string | null | undefined]>([
    ['order', 'AWAITING_PAYMENT'],
    ['order', 'DELIVERED'],
    ['payment', null],
    ['payment', 'REJECTED'],
    ['load', 'IN_TRANSIT'],
    ['distance', 'geocoded'],
    ['distance', null],
  ])('Kiswahili has its own word for %s %j', (group, code) => {
    const label = statusLabel(sw, group, code);
    expect(label).not.toBe('');
    expect(label).not.toBe(statusLabel(en, group, code));
    expect(label).not.toMatch(/^status\./);
  });

  it('Kiswahili shows an unknown state as given', () => {
    expect(statusLabel(sw, 'order', 'ON_HOLD')).toBe('ON_HOLD');
  });
});
