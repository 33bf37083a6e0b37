import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ZRegisterInput } from '../../shared/schemas/auth';
import { ZCostInput, ZFuelInput } from '../../shared/schemas/money';
import { ZGuestOrderInput, ZPortalAccount } from '../../shared/schemas/orders';
import { fieldErrors } from './useZodForm';

function check<V extends Record<string, unknown>>(
  schema: z.ZodType,
  values: V,
  input: unknown = values,
  options: Parameters<typeof fieldErrors<V>>[2] = {},
) {
  const result = schema.safeParse(input);
  return result.success ? null : fieldErrors(result.error.issues, values, options);
}

describe('fieldErrors', () => {
  const cost = { type: '', truckId: '', amount: '', description: '' };

  it('tells the first field in form order, with the schema (server) wording', () => {
    expect(check(ZCostInput, cost)).toMatchObject({
      first: 'Cost type is required.',
      byField: {
        type: 'Cost type is required.',
        truckId: 'Select the truck for this cost.',
        amount: 'Enter an amount greater than zero.',
        description: 'Provide a short description.',
      },
    });
    expect(check(ZCostInput, { ...cost, type: 'REPAIR', truckId: 'T1', amount: '0' })?.first).toBe(
      'Enter an amount greater than zero.',
    );
  });

  it("replaces a field's wording when the form asks (OPS)", () => {
    const messages = { type: 'Select a cost type.', truckId: 'Select a truck for this cost.' };
    expect(check(ZCostInput, cost, cost, { messages })?.byField).toMatchObject({
      type: 'Select a cost type.',
      truckId: 'Select a truck for this cost.',
      amount: 'Enter an amount greater than zero.',
    });
  });

  it('puts issues on the field they belong to under another name', () => {
    const fuel = { truck: '', cost: '' };
    const input = { truckId: null, cost: null, litres: null, odometer: null };
    expect(check(ZFuelInput, fuel, input, { fields: { truckId: 'truck' } })?.first).toBe(
      'Truck is required.',
    );
    expect(
      check(ZFuelInput, fuel, { ...input, truckId: 'T1' }, { fields: { truckId: 'truck' } })?.first,
    ).toBe('Total cost is required.');
  });

  it('orders the guest form: site, then portal email, passwords matching, password length', () => {
    const fields = { 'account.password': 'password', 'account.confirmPassword': 'confirm' } as const;
    const values = {
      site: '',
      email: '',
      confirm: '',
      password: '',
      name: 'N',
      phone: '0711',
      dateNeeded: '',
    };
    const input = (v: typeof values) => ({
      ...v,
      sandType: 'coarse',
      trucks: 1,
      account: { password: v.password, confirmPassword: v.confirm },
    });
    const first = (v: typeof values) => check(ZGuestOrderInput, v, input(v), { fields })?.first;
    expect(first(values)).toBe('Site is required.');
    const sited = { ...values, site: 'Ruiru', dateNeeded: '2026-12-15' };
    expect(first(sited)).toBe('Email is required to create your portal login.');
    const withEmail = { ...sited, email: 'a@b.co' };
    expect(first({ ...withEmail, password: 'short', confirm: 'other' })).toBe('Passwords do not match.');
    expect(first({ ...withEmail, password: 'short', confirm: 'short' })).toBe(
      'Password must be at least 8 characters long.',
    );
    expect(first({ ...withEmail, password: 'jenga-pass-1', confirm: 'jenga-pass-1' })).toBeUndefined();
  });

  it('registration: password length first, then the confirmation', () => {
    const schema = ZRegisterInput.and(ZPortalAccount);
    const values = { name: 'A', email: 'a@b.co', phone: '', password: 'short', confirm: 'short' };
    const input = (v: typeof values) => ({ ...v, confirmPassword: v.confirm });
    const fields = { confirmPassword: 'confirm' } as const;
    expect(check(schema, values, input(values), { fields })?.first).toBe(
      'Password must be at least 8 characters long.',
    );
    const typo = { ...values, password: 'mchanga-pass', confirm: 'mchanga-pass-typo' };
    expect(check(schema, typo, input(typo), { fields })?.first).toBe('Passwords do not match.');
  });
});
