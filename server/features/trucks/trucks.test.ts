import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDriver, makeTruck, unique } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('trucks', () => {
  it('registers trucks with the spec validations and unique ids', async () => {
    const admin = await t.signIn('ADMIN');
    const id = unique('TRK-');
    const device = unique('phone-');
    const ok = await t.call('POST', '/api/admin/trucks', admin, {
      id,
      plate: 'kcx 123a',
      capacityT: 20,
      deviceId: device,
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      id,
      plate: 'KCX 123A',
      capacityT: 20,
      capacity_t: 20,
      deviceId: device,
    });
    expect(
      (await t.call('POST', '/api/admin/trucks', admin, { id, plate: 'KDA 1', capacityT: 20 })).statusCode,
    ).toBe(409);
    expect(
      (
        await t.call('POST', '/api/admin/trucks', admin, {
          id: unique('TRK-'),
          plate: 'KDA 1',
          deviceId: device,
        })
      ).statusCode,
    ).toBe(409);
    const other = unique('TRK-');
    for (const [payload, message] of [
      [{ id: other, plate: '', capacityT: 20 }, 'Plate is required.'],
      [{ id: other, plate: 'KDA 2', capacityT: 0 }, 'Capacity (tonnes) must be greater than zero.'],
      [{ id: other, plate: 'KDA 2', capacity_t: 0.5 }, 'Capacity (tonnes) must be greater than zero.'],
      [{ id: '', plate: 'KDA 2', capacityT: 20 }, 'Provide a unique truck ID.'],
      [{ id: other, plate: 'KDA 2', primaryDriverId: 'NOPE' }, 'No driver with that ID exists.'],
    ] as const) {
      const res = await t.call('POST', '/api/admin/trucks', admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
    expect(
      (await t.call('POST', '/api/admin/trucks', admin, { id: other, plate: 'KDA 2', capacity_t: 18 })).json()
        .capacityT,
    ).toBe(18);
  });

  it('lets ADMIN edit; OPS only reassign the driver; FUEL only read', async () => {
    const [admin, ops, fuel, customer] = await Promise.all(
      (['ADMIN', 'OPS', 'FUEL', 'CUSTOMER'] as const).map((r) => t.signIn(r)),
    );
    const driver = await makeDriver(t.database.db, { name: 'Achieng Driver', phone: '0711000111' });
    const truck = await makeTruck(t.database.db, { capacityT: 18 });
    const url = `/api/admin/trucks/${truck.id}`;
    const patch = await t.call('PATCH', url, admin, { plate: 'KDA 222', capacityT: 19 });
    expect(patch.json()).toMatchObject({ id: truck.id, plate: 'KDA 222', capacityT: 19 });
    const opsMove = await t.call('PATCH', url, ops, { primaryDriverId: driver.id });
    expect(opsMove.statusCode).toBe(200);
    expect(opsMove.json()).toMatchObject({
      primaryDriverId: driver.id,
      driverName: 'Achieng Driver',
      driverPhone: '0711000111',
    });
    const opsPlate = await t.call('PATCH', url, ops, { plate: 'HACKED' });
    expect(opsPlate.statusCode).toBe(403);
    expect(opsPlate.json()).toEqual({ error: "Operations can only change a truck's driver." });
    expect((await t.call('PATCH', '/api/admin/trucks/NOPE', admin, { plate: 'X' })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/admin/trucks', fuel)).statusCode).toBe(200);
    expect((await t.call('POST', '/api/admin/trucks', ops, { id: 'T-OPS', plate: 'X' })).statusCode).toBe(
      403,
    );
    expect((await t.call('GET', '/api/admin/trucks', customer)).statusCode).toBe(403);
    expect((await t.call('GET', '/api/admin/trucks')).statusCode).toBe(401);
  });

  it('keeps device ids unique on update too', async () => {
    const admin = await t.signIn('ADMIN');
    const device = unique('dev-');
    const one = await makeTruck(t.database.db, { deviceId: device });
    const two = await makeTruck(t.database.db);
    const taken = await t.call('PATCH', `/api/admin/trucks/${two.id}`, admin, { deviceId: device });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'This device ID is already linked to another truck.' });
    const same = await t.call('PATCH', `/api/admin/trucks/${one.id}`, admin, {
      deviceId: device,
      plate: 'KDV 11',
    });
    expect(same.json()).toMatchObject({ deviceId: device, plate: 'KDV 11' });
  });
});

describeRoleMatrix('trucks', () => t, [
  ['GET', '/api/admin/trucks', ['ADMIN', 'OPS', 'FUEL']],
  ['POST', '/api/admin/trucks', ['ADMIN']],
  ['PATCH', '/api/admin/trucks/T1', ['ADMIN', 'OPS']],
]);
