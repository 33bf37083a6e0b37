import { describe, expect, it } from 'vitest';
import type { Role } from '../../shared/roles';
import type { CtxUser } from './actor';
import {
  canMoveLoad,
  costLedgerDepth,
  customerOwnsOrder,
  driverOwnsLoad,
  driverRows,
  linkedDriver,
  loadActor,
  mayEditTruckFields,
  mayReadAccount,
  mayReadOrder,
  mayReadOrderDocument,
  mayReadUpload,
  type UploadOwner,
} from './rules';

const user = (role: Role, over: Partial<CtxUser> = {}): CtxUser => ({
  id: 7,
  role,
  name: role,
  email: `${role.toLowerCase()}@example.co.ke`,
  phone: null,
  driverId: null,
  ...over,
});

const admin = user('ADMIN');
const ops = user('OPS');
const fuel = user('FUEL');
const customer = user('CUSTOMER', { id: 41 });
const otherCustomer = user('CUSTOMER', { id: 42 });
const driver = user('DRIVER', { driverId: 'DRV-1' });
const otherDriver = user('DRIVER', { driverId: 'DRV-2' });
const unlinkedDriver = user('DRIVER');
// A staff account carrying a driver id is not that driver: only a DRIVER account is.
const adminWithDriverId = user('ADMIN', { driverId: 'DRV-1' });
const fuelWithDriverId = user('FUEL', { driverId: 'DRV-1' });

describe('loads', () => {
  const mine = { driverId: 'DRV-1' };
  const unassigned = { driverId: null };
  it.each([
    ['ADMIN', false, 'ops', admin, mine],
    ['OPS', false, 'ops', ops, mine],
    ['OPS, a load with no driver', false, 'ops', ops, unassigned],
    ['its driver', true, 'driver', driver, mine],
    ['another driver', false, null, otherDriver, mine],
    ['a driver not linked', false, null, unlinkedDriver, unassigned],
    ['a driver, a load with no driver', false, null, driver, unassigned],
    ['ADMIN with a driver id', false, 'ops', adminWithDriverId, mine],
    ['FUEL', false, null, fuel, mine],
    ['FUEL with a driver id', false, null, fuelWithDriverId, mine],
    ['CUSTOMER', false, null, customer, mine],
  ] as const)('%s: owns the load %s, acts as %s', (_name, owns, actor, who, load) => {
    expect(driverOwnsLoad(who, load)).toBe(owns);
    expect(loadActor(who, load)).toBe(actor);
    expect(canMoveLoad(who, load)).toBe(actor !== null);
  });
});

describe('drivers', () => {
  it.each([
    ['a driver, nothing asked', driver, undefined, { ok: true, driverId: 'DRV-1' }],
    ['a driver asking for themselves', driver, 'DRV-1', { ok: true, driverId: 'DRV-1' }],
    ['a driver asking for another', driver, 'DRV-2', { ok: false, reason: 'not-yours' }],
    ['a driver not linked', unlinkedDriver, undefined, { ok: false, reason: 'not-linked' }],
    ['a driver not linked asking for one', unlinkedDriver, 'DRV-1', { ok: false, reason: 'not-linked' }],
    ['ADMIN, nothing asked (all)', admin, undefined, { ok: true, driverId: undefined }],
    ['ADMIN asking for one', admin, 'DRV-2', { ok: true, driverId: 'DRV-2' }],
    [
      'ADMIN with a driver id asking for another',
      adminWithDriverId,
      'DRV-2',
      { ok: true, driverId: 'DRV-2' },
    ],
    ['OPS', ops, undefined, { ok: true, driverId: undefined }],
    ['FUEL', fuel, undefined, { ok: true, driverId: undefined }],
    ['CUSTOMER', customer, undefined, { ok: false, reason: 'not-yours' }],
    ['CUSTOMER asking for one', customer, 'DRV-1', { ok: false, reason: 'not-yours' }],
  ] as const)('driverRows: %s', (_name, who, requested, expected) => {
    expect(driverRows(who, requested)).toEqual(expected);
  });

  it.each([
    ['a driver', 'DRV-1', driver],
    ['a driver not linked', null, unlinkedDriver],
    ['ADMIN with a driver id', null, adminWithDriverId],
    ['FUEL with a driver id', null, fuelWithDriverId],
    ['CUSTOMER', null, customer],
  ] as const)('linkedDriver of %s is %s', (_name, expected, who) => {
    expect(linkedDriver(who)).toBe(expected);
  });
});

describe('orders', () => {
  const ownOrder = { customerId: 41 };
  const guestOrder = { customerId: null };
  it.each([
    ['its customer', true, true, customer, ownOrder],
    ['another customer', false, false, otherCustomer, ownOrder],
    ['a customer, a guest order', false, false, customer, guestOrder],
    ['ADMIN', false, true, admin, ownOrder],
    ['OPS, a guest order', false, true, ops, guestOrder],
    ['a driver', false, false, driver, ownOrder],
    ['FUEL', false, false, fuel, ownOrder],
    // A staff account whose id happens to be the order's customer id is not that customer.
    ['OPS with the customer id', false, true, user('OPS', { id: 41 }), ownOrder],
    ['a driver with the customer id', false, false, user('DRIVER', { id: 41 }), ownOrder],
  ] as const)('%s: owns %s, may read %s', (_name, owns, reads, who, order) => {
    expect(customerOwnsOrder(who, order)).toBe(owns);
    expect(mayReadOrder(who, order)).toBe(reads);
  });
});

describe('trucks and costs', () => {
  it.each([
    ['ADMIN', ['plate', 'capacityT', 'deviceId'], true, admin],
    ['ADMIN', [], true, admin],
    ['OPS', ['primaryDriverId'], true, ops],
    ['OPS', [], true, ops],
    ['OPS', ['primaryDriverId', 'plate'], false, ops],
    ['OPS', ['deviceId'], false, ops],
    ['FUEL', ['primaryDriverId'], false, fuel],
    ['DRIVER', ['primaryDriverId'], false, driver],
    ['CUSTOMER', [], false, customer],
  ] as const)('%s may edit %j: %s', (_name, fields, allowed, who) => {
    expect(mayEditTruckFields(who, fields)).toBe(allowed);
  });

  it.each([
    ['ADMIN', 2000, admin],
    ['OPS', 100, ops],
  ] as const)('the cost ledger of %s goes %i entries back', (_name, depth, who) => {
    expect(costLedgerDepth(who)).toBe(depth);
  });
});

describe('uploads', () => {
  const fuelPhoto: UploadOwner = { kind: 'fuel-photo' };
  const proofOfMine: UploadOwner = { kind: 'delivery-photo', driverId: 'DRV-1' };
  const proofOfNobody: UploadOwner = { kind: 'delivery-photo', driverId: null };
  const myPhoto: UploadOwner = { kind: 'driver-document', driverId: 'DRV-1' };
  const orphanDocument: UploadOwner = { kind: 'driver-document', driverId: null };
  const everyone = { admin, ops, fuel, driver, otherDriver, unlinkedDriver, customer, fuelWithDriverId };
  type Name = keyof typeof everyone;

  it.each<[string, Name[], UploadOwner | undefined]>([
    ['a referenced fuel photo', ['admin', 'ops', 'fuel', 'fuelWithDriverId'], fuelPhoto],
    ['a fuel or delivery photo nothing references', [], undefined],
    ["a proof of delivery of DRV-1's load", ['admin', 'ops', 'driver'], proofOfMine],
    ['a proof of delivery of a load without a driver', ['admin', 'ops'], proofOfNobody],
    ["DRV-1's ID or profile photo", ['admin', 'driver'], myPhoto],
    ['a driver document no driver references', ['admin'], orphanDocument],
  ])('%s is readable by %j', (_name, readers, owner) => {
    for (const [name, who] of Object.entries(everyone))
      expect(mayReadUpload(who, owner), name).toBe(readers.includes(name as Name));
  });
});

describe('mayReadOrderDocument (receipts and credit notes, issue 23)', () => {
  const order = { customerId: 7, trackingToken: 'a'.repeat(32) };
  it.each([
    ['ADMIN', admin, undefined, true],
    ['OPS', ops, undefined, true],
    ["the order's customer", user('CUSTOMER'), undefined, true],
    ['another customer', user('CUSTOMER', { id: 8 }), undefined, false],
    ['another customer with the token', user('CUSTOMER', { id: 8 }), 'a'.repeat(32), true],
    ['FUEL', fuel, undefined, false],
    ['DRIVER', user('DRIVER', { driverId: 'D1' }), undefined, false],
    ['anyone with the token', null, 'a'.repeat(32), true],
    ['anyone with a wrong token', null, 'b'.repeat(32), false],
    ['anyone with a shorter token', null, 'a'.repeat(31), false],
    ['anyone without a token', null, undefined, false],
  ] as const)('%s: %s', (_name, who, token, allowed) => {
    expect(mayReadOrderDocument(who, order, token)).toBe(allowed);
  });
});

describe('mayReadAccount (statements, issue 24)', () => {
  it.each([
    ['ADMIN, any account', admin, 41, true],
    ['the customer, their own', customer, 41, true],
    ['another customer', otherCustomer, 41, false],
    ['OPS', ops, 41, false],
    ['FUEL', fuel, 41, false],
    ['a DRIVER whose user id is the account', user('DRIVER', { id: 41, driverId: 'D1' }), 41, false],
  ] as const)('%s: %s', (_name, who, customerId, allowed) => {
    expect(mayReadAccount(who, customerId)).toBe(allowed);
  });
});
