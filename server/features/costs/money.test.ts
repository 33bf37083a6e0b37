import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, costs, drivers, fuelLogs, trucks } from '../../../drizzle/schema';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';

let t: TestApp;
let admin: SignedIn;
let ops: SignedIn;
let fuel: SignedIn;
const now = new Date('2026-11-20T09:00:00Z'); // Friday 12:00 in Nairobi

beforeAll(async () => {
  t = await createTestApp({ now: () => now });
  admin = await t.signIn('ADMIN');
  ops = await t.signIn('OPS');
  fuel = await t.signIn('FUEL');
  await t.database.db.insert(drivers).values({ id: 'DRV-M', name: 'Mutua Driver' });
  await t.database.db.insert(trucks).values([
    { id: 'TRK-M1', plate: 'KCA 100M', primaryDriverId: 'DRV-M' },
    { id: 'TRK-M2', plate: 'KCB 200M' },
  ]);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, who?: SignedIn, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: who?.headers ?? {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

describe('costs', () => {
  it('validates with the spec messages', async () => {
    for (const [payload, message] of [
      [{ type: 'REPAIR', amount: 10, description: 'x' }, 'Select the truck for this cost.'],
      [{ truckId: 'TRK-M1', amount: 10, description: 'x' }, 'Cost type is required.'],
      [{ truckId: 'TRK-M1', type: 'BRIBE', amount: 10, description: 'x' }, 'Cost type is required.'],
      [
        { truckId: 'TRK-M1', type: 'REPAIR', amount: 0, description: 'x' },
        'Enter an amount greater than zero.',
      ],
      [{ truckId: 'TRK-M1', type: 'REPAIR', amount: 10, description: ' ' }, 'Provide a short description.'],
      [{ truckId: 'NOPE', type: 'REPAIR', amount: 10, description: 'x' }, 'Select the truck for this cost.'],
    ] as const) {
      const res = await call('POST', '/api/admin/costs', admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
  });

  it('answers 409 with the existing entry for a duplicate, and stores it flagged only when confirmed with its id', async () => {
    const body = { truckId: 'TRK-M1', type: 'REPAIR', amount: 4500.5, description: 'Clutch plate' };
    const first = await call('POST', '/api/admin/costs', ops, body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      type: 'REPAIR',
      amount: 4500.5,
      truck_id: 'TRK-M1',
      is_duplicate: false,
    });
    const again = await call('POST', '/api/admin/costs', ops, { ...body, description: 'Clutch again' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: 'Potential duplicate cost detected.',
      duplicate: true,
      message: 'Potential duplicate cost detected.',
      existing: {
        id: first.json().id,
        truck_id: 'TRK-M1',
        amount: 4500.5,
        description: 'Clutch plate',
        incurred_at: expect.any(String),
      },
    });
    const wrongRef = await call('POST', '/api/admin/costs', ops, {
      ...body,
      overrideDuplicate: true,
      duplicateOf: 999,
    });
    expect(wrongRef.statusCode).toBe(400);
    const confirmed = await call('POST', '/api/admin/costs', ops, {
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
    const later = await call('POST', '/api/admin/costs', ops, {
      ...body,
      incurredAt: new Date(now.getTime() + 25 * 3600_000).toISOString(),
    });
    expect(later.statusCode).toBe(201);
  });

  it('stores exactly one of 20 identical submissions racing each other', async () => {
    const body = { truckId: 'TRK-M2', type: 'LOADING', amount: 1234, description: 'Loader hire' };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/api/admin/costs', admin, body)),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(19);
    const stored = await t.database.db
      .select()
      .from(costs)
      .where(sql`${costs.truckId} = 'TRK-M2' and ${costs.type} = 'LOADING'`);
    expect(stored).toHaveLength(1);
  });

  it('lets ADMIN edit without a duplicate check, not OPS; FUEL cannot read costs', async () => {
    const created = (
      await call('POST', '/api/admin/costs', admin, {
        truckId: 'TRK-M2',
        type: 'OTHER',
        amount: 99,
        description: 'Parking',
      })
    ).json();
    const edited = await call('PATCH', `/api/admin/costs/${created.id}`, admin, {
      truckId: 'TRK-M2',
      type: 'OTHER',
      amount: 150,
      description: 'Parking fee',
    });
    expect(edited.json()).toMatchObject({ amount: 150, description: 'Parking fee' });
    expect(
      (
        await call('PATCH', `/api/admin/costs/${created.id}`, ops, {
          truckId: 'TRK-M2',
          type: 'OTHER',
          amount: 1,
          description: 'x',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call('PATCH', '/api/admin/costs/99999', admin, {
          truckId: 'TRK-M2',
          type: 'OTHER',
          amount: 1,
          description: 'x',
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('GET', '/api/admin/costs', fuel)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/costs', ops)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/costs')).statusCode).toBe(401);
  });
});

describe('fuel logs', () => {
  it('records a stop by plate with its FUEL cost, driver and mileage since the previous reading', async () => {
    const first = await call('POST', '/api/fuel/logs', fuel, {
      truckId: 'kca100m',
      litres: 80,
      odometer: 10_000,
      cost: 14_000,
      note: 'Shell Juja',
      capturedAt: new Date(now.getTime() - 48 * 3600_000).toISOString(),
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      truckId: 'TRK-M1',
      plate: 'KCA 100M',
      litres: 80,
      cost: 14000,
      driverName: 'Mutua Driver',
      mileage: null,
      isDuplicate: false,
    });
    const second = await call('POST', '/api/fuel/logs', fuel, {
      truckId: 'TRK-M1',
      litres: '',
      odometer: 10_420.5,
      cost: 9000,
      note: '',
    });
    expect(second.json()).toMatchObject({ litres: null, mileage: 420.5, capturedAt: now.toISOString() });
    const [log] = await t.database.db.select().from(fuelLogs).where(eq(fuelLogs.id, first.json().id));
    const [cost] = await t.database.db.select().from(costs).where(eq(costs.id, log!.costId!));
    expect(cost).toMatchObject({ type: 'FUEL', amountCents: 1_400_000, truckId: 'TRK-M1', source: 'FUEL' });
    const list = await call('GET', '/api/fuel/logs?limit=50', fuel);
    expect(
      list
        .json()
        .map((l: { id: number }) => l.id)
        .slice(0, 2),
    ).toEqual([second.json().id, first.json().id]);
  });

  it('validates and refuses unknown trucks', async () => {
    expect((await call('POST', '/api/fuel/logs', fuel, { truckId: null, cost: 100 })).json()).toEqual({
      error: 'Truck is required.',
    });
    expect((await call('POST', '/api/fuel/logs', fuel, { truckId: 'TRK-M1', cost: null })).json()).toEqual({
      error: 'Total cost is required.',
    });
    expect(
      (await call('POST', '/api/fuel/logs', fuel, { truckId: 'TRK-M1', cost: 1, litres: -1 })).json(),
    ).toEqual({ error: 'Litres cannot be negative.' });
    expect((await call('POST', '/api/fuel/logs', fuel, { truckId: 'GHOST', cost: 1 })).json()).toEqual({
      error: 'No truck matches that ID or plate.',
    });
    expect(
      (await call('POST', '/api/fuel/logs', await t.signIn('DRIVER'), { truckId: 'TRK-M1', cost: 1 }))
        .statusCode,
    ).toBe(403);
  });

  it('flags a repeated odometer as a duplicate; 20 racing identical logs store one', async () => {
    const dup = await call('POST', '/api/fuel/logs', fuel, {
      truckId: 'TRK-M1',
      litres: 10,
      odometer: 10_000,
      cost: 2000,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      duplicate: true,
      message: 'Potential duplicate fuel entry detected.',
      existing: { truck_id: 'TRK-M1', odometer: 10000, litres: 80, cost: 14000 },
    });
    const ok = await call('POST', '/api/fuel/logs', fuel, {
      truckId: 'TRK-M1',
      litres: 10,
      odometer: 10_000,
      cost: 2000,
      overrideDuplicate: true,
      duplicateOf: dup.json().existing.id,
    });
    expect(ok.json()).toMatchObject({ isDuplicate: true, duplicateOf: dup.json().existing.id });

    const body = { truckId: 'TRK-M2', litres: 55, odometer: 50_000, cost: 9_900 };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('POST', '/api/fuel/logs', fuel, body)),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(19);
  });
});

describe('duplicate audit and finance', () => {
  it('lists, reviews and voids duplicates with who and when; voids leave every total, with the fuel cascade', async () => {
    const list = await call('GET', '/api/admin/audit/duplicates?limit=400', admin);
    expect(list.statusCode).toBe(200);
    const records = list.json();
    expect(records.map((r: { entity: string }) => r.entity).sort()).toEqual(['COST', 'FUEL']);
    const fuelRecord = records.find((r: { entity: string }) => r.entity === 'FUEL');
    expect(fuelRecord).toMatchObject({
      status: 'pending',
      type: 'FUEL',
      truckPlate: 'KCA 100M',
      litres: 10,
      cost: 2000,
      createdByName: fuel.user.name,
      confirmedByName: fuel.user.name,
      linkedCostId: expect.any(Number),
    });
    expect((await call('GET', '/api/admin/audit/duplicates?entity=cost', admin)).json()).toHaveLength(1);
    expect((await call('GET', '/api/admin/audit/duplicates?status=voided', admin)).json()).toHaveLength(0);
    expect((await call('GET', '/api/admin/audit/duplicates?from=2030-01-01', admin)).json()).toHaveLength(0);

    const costRecord = records.find((r: { entity: string }) => r.entity === 'COST');
    const reviewed = await call('POST', `/api/admin/audit/duplicates/cost/${costRecord.id}/review`, admin, {
      note: 'Two clutches, both real',
    });
    expect(reviewed.statusCode).toBe(200);
    const afterReview = (await call('GET', '/api/admin/audit/duplicates?status=reviewed', admin)).json();
    expect(afterReview[0]).toMatchObject({
      id: costRecord.id,
      reviewNote: 'Two clutches, both real',
      reviewedByName: admin.user.name,
      reviewedAt: now.toISOString(),
    });

    const before = (
      await call('GET', '/api/admin/finance/summary?from=2026-11-01&to=2026-11-30', admin)
    ).json();
    const noReason = await call('POST', `/api/admin/audit/duplicates/fuel/${fuelRecord.id}/void`, admin, {
      reason: '',
    });
    expect(noReason.json()).toEqual({ error: 'Provide a reason before voiding the duplicate record.' });
    const voided = await call('POST', `/api/admin/audit/duplicates/fuel/${fuelRecord.id}/void`, admin, {
      reason: 'Entered twice',
      cascadeCost: true,
    });
    expect(voided.statusCode).toBe(200);
    const [linked] = await t.database.db.select().from(costs).where(eq(costs.id, fuelRecord.linkedCostId));
    expect(linked?.voidedAt).not.toBeNull();
    const after = (
      await call('GET', '/api/admin/finance/summary?from=2026-11-01&to=2026-11-30', admin)
    ).json();
    expect(before.costTotal - after.costTotal).toBe(2000);
    expect(
      (
        await call('POST', `/api/admin/audit/duplicates/fuel/${fuelRecord.id}/void`, admin, {
          reason: 'again',
        })
      ).statusCode,
    ).toBe(409);
    expect(
      (await call('POST', `/api/admin/audit/duplicates/fuel/${fuelRecord.id}/review`, admin, {})).statusCode,
    ).toBe(409);
    expect((await call('POST', '/api/admin/audit/duplicates/cost/999999/review', admin, {})).statusCode).toBe(
      404,
    );
    expect((await call('GET', '/api/admin/audit/duplicates', ops)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/finance/summary', ops)).statusCode).toBe(403);
  });

  it('answers summary, timeseries and per-truck breakdown over Nairobi days; the rollup equals a recomputation', async () => {
    const customer = await t.signIn('CUSTOMER');
    const order = (
      await call('POST', '/api/orders', customer, {
        site: 'Ruiru',
        sandType: 'coarse',
        trucks: 2,
        distanceKm: 10,
      })
    ).json();
    const a1 = (
      await call('POST', `/api/admin/orders/${order.id}/assignments`, admin, {
        truckId: 'TRK-M1',
        driverId: 'DRV-M',
      })
    ).json();
    const a2 = (
      await call('POST', `/api/admin/orders/${order.id}/assignments`, admin, {
        truckId: 'TRK-M2',
        driverId: 'DRV-M',
        tonnes: 10,
      })
    ).json();
    await call('PATCH', `/api/admin/assignments/${a1.id}`, admin, { status: 'DELIVERED' });
    await call('PATCH', `/api/admin/assignments/${a2.id}`, admin, { status: 'DELIVERED' });

    const summary = (
      await call('GET', '/api/admin/finance/summary?from=2026-11-20&to=2026-11-20', admin)
    ).json();
    expect(summary.revenue).toBe(32000 + 16000);
    expect(summary.orders).toBe(1);
    const series = (
      await call('GET', '/api/admin/finance/timeseries?from=2026-11-18&to=2026-11-20', admin)
    ).json();
    expect(series.map((p: { date: string }) => p.date)).toEqual(['2026-11-18', '2026-11-19', '2026-11-20']);
    expect(series[2].revenue).toBe(48000);
    expect(series[0]).toMatchObject({ revenue: 0, cost: 14000 });
    const rows = (
      await call('GET', '/api/admin/finance/truck-breakdown?from=2026-11-20&to=2026-11-20', admin)
    ).json();
    const m1 = rows.find((r: { truckId: string }) => r.truckId === 'TRK-M1');
    expect(m1).toMatchObject({ plate: 'KCA 100M', loads: 1, revenue: 32000 });
    expect(m1.gross).toBeCloseTo(m1.revenue - m1.cost, 2);
    expect(m1.margin).toBe(Math.round((m1.gross / m1.revenue) * 1000) / 10);
    expect(
      (await call('GET', '/api/admin/finance/summary?from=2026-11-21&to=2026-11-20', admin)).statusCode,
    ).toBe(400);

    // Mix in edits, voids and an un-delivery, then compare the rollup with a recomputation from raw rows.
    const c = (
      await call('POST', '/api/admin/costs', admin, {
        truckId: 'TRK-M2',
        type: 'SALARY',
        amount: 800,
        description: 'Turn boy',
      })
    ).json();
    await call('PATCH', `/api/admin/costs/${c.id}`, admin, {
      truckId: 'TRK-M1',
      type: 'SALARY',
      amount: 900,
      description: 'Turn boy',
      incurredAt: '2026-11-19T05:00:00Z',
    });
    await t.database.db.execute(sql`update assignments set tonnes = 12 where id = ${a2.id}`);
    await t.database.db.execute(sql`update costs set voided_at = now() where id = ${c.id}`);
    const snapshot = async () =>
      (
        await t.deps.database.rows<Record<string, unknown>>(sql`
        select day::text as day, truck_id, loads, orders, revenue_cents::float8 as r, cost_cents::float8 as c from finance_daily
        where loads <> 0 or orders <> 0 or revenue_cents <> 0 or cost_cents <> 0 order by 1, 2`)
      ).map((r) => JSON.stringify(r));
    const maintained = await snapshot();
    await t.database.db.execute(sql`select finance_rebuild()`);
    expect(await snapshot()).toEqual(maintained);
  });
});
