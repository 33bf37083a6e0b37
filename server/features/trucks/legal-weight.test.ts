import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDriver, makeOrder, makeTruck } from '../../../test/factories';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';

let t: TestApp;
let admin: SignedIn;
let ops: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.signIn('ADMIN');
  ops = await t.signIn('OPS');
});
afterAll(() => t.close());

async function paidOrder() {
  return makeOrder(t.database.db, { trucks: 1, status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
}

describe('legal gross weight on assignments', () => {
  it('refuses a 20 t load on a 3-axle truck weighing 9 t empty, naming the limit and the legal payload', async () => {
    const truck = await makeTruck(t.database.db, { plate: 'KDA 900X', axles: 3, tareT: 9 });
    const driver = await makeDriver(t.database.db);
    const order = await paidOrder();
    const res = await t.call('POST', `/api/admin/orders/${order.id}/assignments`, admin, {
      truckId: truck.id,
      driverId: driver.id,
      tonnes: 20,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      error:
        'Over the legal weight: a 3-axle truck may weigh 26 t gross. KDA 900X weighs 9 t empty, so its legal payload is 17 t; this load makes 29 t.',
      limitT: 26,
      legalPayloadT: 17,
    });
    // The legal payload itself goes through.
    const ok = await t.call('POST', `/api/admin/orders/${order.id}/assignments`, admin, {
      truckId: truck.id,
      driverId: driver.id,
      tonnes: 17,
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ tonnes: 17, overrideLegalLimit: false, overrideReason: null });
  });

  it('takes the load when ADMIN overrides with a reason, and records the reason on the load', async () => {
    const truck = await makeTruck(t.database.db, { axles: 2, tareT: 8 });
    const driver = await makeDriver(t.database.db);
    const order = await paidOrder();
    const url = `/api/admin/orders/${order.id}/assignments`;
    const body = { truckId: truck.id, driverId: driver.id, tonnes: 12, overrideLegalLimit: true };
    const noReason = await t.call('POST', url, admin, body);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toBe('Give a reason for loading above the legal limit.');
    const res = await t.call('POST', url, admin, {
      ...body,
      overrideReason: 'Weighbridge permit KeNHA 4411',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      overrideLegalLimit: true,
      overrideReason: 'Weighbridge permit KeNHA 4411',
    });
    const listed = (await t.call('GET', url, admin)).json();
    expect(listed[0]).toMatchObject({
      overrideLegalLimit: true,
      overrideReason: 'Weighbridge permit KeNHA 4411',
    });
    // The Orders tab's listing shows it on the load too.
    const orders = (await t.call('GET', '/api/admin/orders', admin)).json();
    const load = orders.find((o: { id: number }) => o.id === order.id).assignments[0];
    expect(load).toMatchObject({ overrideReason: 'Weighbridge permit KeNHA 4411' });
  });

  it('OPS cannot schedule loads at all, so it cannot override the limit', async () => {
    const truck = await makeTruck(t.database.db, { axles: 2, tareT: 8 });
    const driver = await makeDriver(t.database.db);
    const order = await paidOrder();
    const res = await t.call('POST', `/api/admin/orders/${order.id}/assignments`, ops, {
      truckId: truck.id,
      driverId: driver.id,
      tonnes: 12,
      overrideLegalLimit: true,
      overrideReason: 'Please',
    });
    expect(res.statusCode).toBe(403);
  });

  it('a truck without a recorded empty weight is not checked', async () => {
    const truck = await makeTruck(t.database.db, { axles: 2 });
    const driver = await makeDriver(t.database.db);
    const order = await paidOrder();
    const res = await t.call('POST', `/api/admin/orders/${order.id}/assignments`, admin, {
      truckId: truck.id,
      driverId: driver.id,
      tonnes: 20,
    });
    expect(res.statusCode).toBe(201);
  });

  it('ADMIN edits the limits, OPS reads them; later loads follow the edited limit', async () => {
    expect((await t.call('GET', '/api/admin/gross-limits', ops)).json()).toMatchObject([
      { axles: 2, grossT: 18 },
      { axles: 3, grossT: 26 },
      { axles: 4, grossT: 30 },
    ]);
    expect((await t.call('PUT', '/api/admin/gross-limits/4', ops, { grossT: 40 })).statusCode).toBe(403);
    const bad = await t.call('PUT', '/api/admin/gross-limits/5', admin, { grossT: 40 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('Axles must be 2, 3 or 4.');
    const truck = await makeTruck(t.database.db, { axles: 4, tareT: 12 });
    const driver = await makeDriver(t.database.db);
    const trucks = (await t.call('GET', '/api/admin/trucks', ops)).json();
    expect(trucks.find((x: { id: string }) => x.id === truck.id).legalPayloadT).toBe(18);
    const edited = await t.call('PUT', '/api/admin/gross-limits/4', admin, { grossT: 32 });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()[2]).toMatchObject({ axles: 4, grossT: 32 });
    const order = await paidOrder();
    const res = await t.call('POST', `/api/admin/orders/${order.id}/assignments`, admin, {
      truckId: truck.id,
      driverId: driver.id,
      tonnes: 20,
    });
    expect(res.statusCode).toBe(201);
    await t.call('PUT', '/api/admin/gross-limits/4', admin, { grossT: 30 });
  });

  it('the truck form keeps axles, empty weight and tank capacity', async () => {
    const created = await t.call('POST', '/api/admin/trucks', admin, {
      id: 'LW-1',
      plate: 'KDB 1',
      capacityT: 20,
      axles: 3,
      tareT: 6,
      tankCapacityL: 300,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ axles: 3, tareT: 6, tankCapacityL: 300, legalPayloadT: 20 });
    const patched = await t.call('PATCH', '/api/admin/trucks/LW-1', admin, { axles: 2, tareT: '' });
    expect(patched.json()).toMatchObject({ axles: 2, tareT: null, legalPayloadT: null });
    expect((await t.call('PATCH', '/api/admin/trucks/LW-1', ops, { axles: 4 })).statusCode).toBe(403);
  });
});
