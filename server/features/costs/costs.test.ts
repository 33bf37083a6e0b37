import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, costs } from '../../../drizzle/schema';
import { makeTruck } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
const now = new Date('2026-11-20T09:00:00Z'); // Friday 12:00 in Nairobi

beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(() => t.close());

describe('costs', () => {
  it('validates with the spec messages', async () => {
    const admin = await t.signIn('ADMIN');
    const truck = await makeTruck(t.database.db);
    for (const [payload, message] of [
      [{ type: 'REPAIR', amount: 10, description: 'x' }, 'Select the truck for this cost.'],
      [{ truckId: truck.id, amount: 10, description: 'x' }, 'Cost type is required.'],
      [{ truckId: truck.id, type: 'BRIBE', amount: 10, description: 'x' }, 'Cost type is required.'],
      [
        { truckId: truck.id, type: 'REPAIR', amount: 0, description: 'x' },
        'Enter an amount greater than zero.',
      ],
      [{ truckId: truck.id, type: 'REPAIR', amount: 10, description: ' ' }, 'Provide a short description.'],
      [{ truckId: 'NOPE', type: 'REPAIR', amount: 10, description: 'x' }, 'Select the truck for this cost.'],
    ] as const) {
      const res = await t.call('POST', '/api/admin/costs', admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
  });

  it('answers 409 with the existing entry for a duplicate, and stores it flagged only when confirmed with its id', async () => {
    const ops = await t.signIn('OPS');
    const truck = await makeTruck(t.database.db);
    const body = { truckId: truck.id, type: 'REPAIR', amount: 4500.5, description: 'Clutch plate' };
    const first = await t.call('POST', '/api/admin/costs', ops, body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      type: 'REPAIR',
      amount: 4500.5,
      truck_id: truck.id,
      is_duplicate: false,
    });
    const again = await t.call('POST', '/api/admin/costs', ops, { ...body, description: 'Clutch again' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: 'Potential duplicate cost detected.',
      duplicate: true,
      message: 'Potential duplicate cost detected.',
      existing: {
        id: first.json().id,
        truck_id: truck.id,
        amount: 4500.5,
        description: 'Clutch plate',
        incurred_at: expect.any(String),
      },
    });
    const wrongRef = await t.call('POST', '/api/admin/costs', ops, {
      ...body,
      overrideDuplicate: true,
      duplicateOf: 999,
    });
    expect(wrongRef.statusCode).toBe(400);
    const confirmed = await t.call('POST', '/api/admin/costs', ops, {
      ...body,
      overrideDuplicate: true,
      duplicateOf: first.json().id,
    });
    expect(confirmed.statusCode).toBe(201);
    expect(confirmed.json()).toMatchObject({
      is_duplicate: true,
      duplicate_of: first.json().id,
      confirmed_at: now.toISOString(),
    });
    await t.jobs.drain();
    const alerts = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(eq(alertDeliveries.eventKey, `duplicate.flagged:cost:${confirmed.json().id}`));
    expect(alerts.length).toBeGreaterThan(0);
    // Outside 24 h it is no duplicate.
    const later = await t.call('POST', '/api/admin/costs', ops, {
      ...body,
      incurredAt: new Date(now.getTime() + 25 * 3600_000).toISOString(),
    });
    expect(later.statusCode).toBe(201);
  });

  it('stores exactly one of 20 identical submissions racing each other', async () => {
    const admin = await t.signIn('ADMIN');
    const truck = await makeTruck(t.database.db);
    const body = { truckId: truck.id, type: 'LOADING', amount: 1234, description: 'Loader hire' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.call('POST', '/api/admin/costs', admin, body)),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(19);
    const stored = await t.database.db
      .select()
      .from(costs)
      .where(and(eq(costs.truckId, truck.id), eq(costs.type, 'LOADING')));
    expect(stored).toHaveLength(1);
  });

  it('lets ADMIN edit without a duplicate check, not OPS; FUEL cannot read costs', async () => {
    const admin = await t.signIn('ADMIN');
    const ops = await t.signIn('OPS');
    const fuel = await t.signIn('FUEL');
    const truck = await makeTruck(t.database.db);
    const created = (
      await t.call('POST', '/api/admin/costs', admin, {
        truckId: truck.id,
        type: 'OTHER',
        amount: 99,
        description: 'Parking',
      })
    ).json();
    const edited = await t.call('PATCH', `/api/admin/costs/${created.id}`, admin, {
      truckId: truck.id,
      type: 'OTHER',
      amount: 150,
      description: 'Parking fee',
    });
    expect(edited.json()).toMatchObject({ amount: 150, description: 'Parking fee' });
    expect(
      (
        await t.call('PATCH', `/api/admin/costs/${created.id}`, ops, {
          truckId: truck.id,
          type: 'OTHER',
          amount: 1,
          description: 'x',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await t.call('PATCH', '/api/admin/costs/99999', admin, {
          truckId: truck.id,
          type: 'OTHER',
          amount: 1,
          description: 'x',
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.call('GET', '/api/admin/costs', fuel)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/admin/costs', ops)).statusCode).toBe(200);
    expect((await t.call('GET', '/api/admin/costs')).statusCode).toBe(401);
  });
});
