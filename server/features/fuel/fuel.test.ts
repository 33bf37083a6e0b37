import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costs, fuelLogs } from '../../../drizzle/schema';
import { makeDriver, makeFuelLog, makeTruck, unique } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
const now = new Date('2026-11-20T09:00:00Z'); // Friday 12:00 in Nairobi

beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(() => t.close());

describe('fuel logs', () => {
  it('records a stop by plate with its FUEL cost, driver and mileage since the previous reading', async () => {
    const fuel = await t.signIn('FUEL');
    const driver = await makeDriver(t.database.db, { name: 'Mutua Driver' });
    const plate = `KCA ${unique()}`;
    const truck = await makeTruck(t.database.db, { plate, primaryDriverId: driver.id });
    const first = await t.call('POST', '/api/fuel/logs', fuel, {
      truckId: plate.toLowerCase().replace(' ', ''),
      litres: 80,
      odometer: 10_000,
      cost: 14_000,
      note: 'Shell Juja',
      capturedAt: new Date(now.getTime() - 48 * 3600_000).toISOString(),
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      truckId: truck.id,
      plate,
      litres: 80,
      cost: 14000,
      driverName: 'Mutua Driver',
      mileage: null,
      isDuplicate: false,
    });
    const second = await t.call('POST', '/api/fuel/logs', fuel, {
      truckId: truck.id,
      litres: '',
      odometer: 10_420.5,
      cost: 9000,
      note: '',
    });
    expect(second.json()).toMatchObject({ litres: null, mileage: 420.5, capturedAt: now.toISOString() });
    const [log] = await t.database.db.select().from(fuelLogs).where(eq(fuelLogs.id, first.json().id));
    const [cost] = await t.database.db.select().from(costs).where(eq(costs.id, log!.costId!));
    expect(cost).toMatchObject({ type: 'FUEL', amountCents: 1_400_000, truckId: truck.id, source: 'FUEL' });
    const list = await t.call('GET', '/api/fuel/logs?limit=50', fuel);
    expect(
      list
        .json()
        .filter((l: { truckId: string }) => l.truckId === truck.id)
        .map((l: { id: number }) => l.id),
    ).toEqual([second.json().id, first.json().id]);
  });

  it('counts the km from a stop captured in the same minute, as entered (the form keeps minutes)', async () => {
    const fuel = await t.signIn('FUEL');
    const truck = await makeTruck(t.database.db, { plate: `KCB ${unique()}` });
    const at = new Date(now.getTime() - 3600_000).toISOString();
    const stop = (litres: number, odometer: number) =>
      t.call('POST', '/api/fuel/logs', fuel, {
        truckId: truck.id,
        litres,
        odometer,
        cost: litres * 175,
        capturedAt: at,
      });
    const first = await stop(80, 120_000);
    const second = await stop(60, 120_450);
    expect(first.json()).toMatchObject({ mileage: null });
    expect(second.json()).toMatchObject({ mileage: 450 });
    const list = await t.call('GET', '/api/fuel/logs?limit=50', fuel);
    expect(
      list
        .json()
        .filter((l: { truckId: string }) => l.truckId === truck.id)
        .map((l: { odometer: number; mileage: number | null }) => [l.odometer, l.mileage]),
    ).toEqual([
      [120_450, 450],
      [120_000, null],
    ]);
  });

  it('validates and refuses unknown trucks', async () => {
    const fuel = await t.signIn('FUEL');
    const truck = await makeTruck(t.database.db);
    expect((await t.call('POST', '/api/fuel/logs', fuel, { truckId: null, cost: 100 })).json()).toEqual({
      error: 'Truck is required.',
    });
    expect((await t.call('POST', '/api/fuel/logs', fuel, { truckId: truck.id, cost: null })).json()).toEqual({
      error: 'Total cost is required.',
    });
    expect(
      (await t.call('POST', '/api/fuel/logs', fuel, { truckId: truck.id, cost: 1, litres: -1 })).json(),
    ).toEqual({ error: 'Litres cannot be negative.' });
    expect((await t.call('POST', '/api/fuel/logs', fuel, { truckId: 'GHOST', cost: 1 })).json()).toEqual({
      error: 'No truck matches that ID or plate.',
    });
    expect(
      (await t.call('POST', '/api/fuel/logs', await t.signIn('DRIVER'), { truckId: truck.id, cost: 1 }))
        .statusCode,
    ).toBe(403);
  });

  it('flags a repeated odometer as a duplicate; 20 racing identical logs store one', async () => {
    const fuel = await t.signIn('FUEL');
    const truck = await makeTruck(t.database.db);
    await makeFuelLog(t.database.db, {
      truckId: truck.id,
      litres: 80,
      odometer: 10_000,
      costCents: 1_400_000,
      capturedAt: new Date(now.getTime() - 48 * 3600_000),
    });
    const dup = await t.call('POST', '/api/fuel/logs', fuel, {
      truckId: truck.id,
      litres: 10,
      odometer: 10_000,
      cost: 2000,
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({
      duplicate: true,
      message: 'Potential duplicate fuel entry detected.',
      existing: { truck_id: truck.id, odometer: 10000, litres: 80, cost: 14000 },
    });
    const ok = await t.call('POST', '/api/fuel/logs', fuel, {
      truckId: truck.id,
      litres: 10,
      odometer: 10_000,
      cost: 2000,
      overrideDuplicate: true,
      duplicateOf: dup.json().existing.id,
    });
    expect(ok.json()).toMatchObject({ isDuplicate: true, duplicateOf: dup.json().existing.id });

    const other = await makeTruck(t.database.db);
    const body = { truckId: other.id, litres: 55, odometer: 50_000, cost: 9_900 };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.call('POST', '/api/fuel/logs', fuel, body)),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(19);
  });
});
