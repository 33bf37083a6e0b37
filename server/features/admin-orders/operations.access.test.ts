import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuelLogs, trucks } from '../../../drizzle/schema';
import type { Role } from '../../../shared/roles';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';
import { storeImage } from '../../uploads';

// The role matrix of the operations routes over HTTP: anonymous callers get 401, every role outside the
// route's list 403 — before any input is looked at.
const STAFF_ROLES: Role[] = ['ADMIN', 'OPS', 'DRIVER', 'FUEL', 'CUSTOMER'];
type Method = 'GET' | 'POST' | 'PATCH';
const ROUTES: [Method, string, Role[]][] = [
  ['GET', '/api/admin/orders', ['ADMIN']],
  ['GET', '/api/admin/orders?assigned=true', ['ADMIN']],
  ['POST', '/api/admin/orders', ['ADMIN']],
  ['GET', '/api/admin/orders/1/assignments', ['ADMIN']],
  ['POST', '/api/admin/orders/1/assignments', ['ADMIN']],
  ['POST', '/api/admin/orders/1/payment-review', ['ADMIN']],
  ['PATCH', '/api/admin/assignments/1', ['ADMIN', 'OPS', 'DRIVER']],
  ['GET', '/api/admin/trucks', ['ADMIN', 'OPS', 'FUEL']],
  ['POST', '/api/admin/trucks', ['ADMIN']],
  ['PATCH', '/api/admin/trucks/T1', ['ADMIN', 'OPS']],
  ['GET', '/api/admin/drivers', ['ADMIN', 'OPS']],
  ['POST', '/api/admin/drivers', ['ADMIN']],
  ['PATCH', '/api/admin/drivers/D1', ['ADMIN']],
  ['GET', '/api/admin/stock', ['ADMIN', 'OPS']],
  ['GET', '/api/admin/stock/tx', ['ADMIN', 'OPS']],
  ['POST', '/api/admin/stock/receipt', ['ADMIN', 'OPS']],
  ['PATCH', '/api/admin/stock/tx/1', ['ADMIN']],
  ['GET', '/api/admin/dashboard', ['ADMIN']],
];

let t: TestApp;
const who = {} as Record<Role, SignedIn>;

beforeAll(async () => {
  t = await createTestApp({ config: { dataDir: `/tmp/mchanga-ops-access-${process.pid}` } });
  for (const role of STAFF_ROLES) who[role] = await t.signIn(role);
});
afterAll(() => t.close());

const call = (method: Method, url: string, signedIn?: SignedIn, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: signedIn?.headers ?? {},
    ...(method === 'GET' ? {} : { payload: (payload ?? {}) as object }),
  });

describe('operations role matrix', () => {
  it.each(ROUTES)('%s %s refuses anonymous callers with 401', async (method, url) => {
    const res = await call(method, url);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toHaveProperty('error');
  });

  it.each(ROUTES)('%s %s refuses roles outside %j with 403', async (method, url, allowed) => {
    for (const role of STAFF_ROLES.filter((r) => !allowed.includes(r))) {
      const res = await call(method, url, who[role]);
      expect(res.statusCode, `${role} ${method} ${url}`).toBe(403);
      expect(res.json()).toHaveProperty('error');
    }
  });

  it.each(ROUTES)('%s %s lets %j through the role gate', async (method, url, allowed) => {
    for (const role of allowed) {
      const res = await call(method, url, who[role]);
      expect([200, 201, 400, 404, 409], `${role} ${method} ${url}`).toContain(res.statusCode);
    }
  });
});

describe('operations validation messages', () => {
  it('admin orders, loads and payment reviews answer with their messages', async () => {
    const admin = who.ADMIN;
    const cases: [Method, string, unknown, number, string][] = [
      [
        'POST',
        '/api/admin/orders',
        { name: 'A', site: 'Ruiru', sandType: 'coarse', trucks: 21 },
        400,
        'Trucks must be between 1 and 20.',
      ],
      [
        'POST',
        '/api/admin/orders',
        { name: 'A', site: 'Ruiru', sandType: 'coarse', perTruckOverride: 0 },
        400,
        'Per-truck price must be greater than zero.',
      ],
      [
        'POST',
        '/api/admin/orders',
        { name: 'A', site: 'Ruiru', sandType: 'coarse', customerId: 99999 },
        400,
        'No customer with that ID exists.',
      ],
      [
        'POST',
        '/api/admin/orders/99999/assignments',
        { truckId: 'T1', driverId: 'D1' },
        404,
        'Order not found.',
      ],
      ['POST', '/api/admin/orders/99999/payment-review', { decision: 'confirm' }, 404, 'Order not found.'],
      ['PATCH', '/api/admin/assignments/99999', { status: 'DELIVERED' }, 404, 'Assignment not found.'],
      ['PATCH', '/api/admin/stock/tx/99999', { reason: 'Lorry' }, 404, 'Stock transaction not found.'],
      ['PATCH', '/api/admin/drivers/NOPE', { name: 'Nobody' }, 404, 'No driver with that ID exists.'],
      [
        'POST',
        '/api/admin/stock/receipt',
        { truckId: 'NOPE', trucks: 1, costPerTonne: 10 },
        400,
        'Select the truck receiving stock.',
      ],
    ];
    for (const [method, url, payload, status, message] of cases) {
      const res = await call(method, url, admin, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(status);
      expect(res.json()).toEqual({ error: message });
    }

    const order = (
      await call('POST', '/api/admin/orders', admin, {
        name: 'Desk',
        phone: '0700111222',
        site: 'Juja',
        sandType: 'smooth',
      })
    ).json();
    expect(order).toMatchObject({ status: 'AWAITING_PAYMENT', truckCount: 1 });
    const loadCases: [unknown, string][] = [
      [{ truckId: '', driverId: 'D1' }, 'Select a truck.'],
      [{ truckId: 'T1', driverId: '' }, 'Select a driver.'],
      [{ truckId: 'T1', driverId: 'D1', tonnes: 0 }, 'Tonnes must be greater than zero.'],
      [{ truckId: 'NOPE', driverId: 'D1' }, 'No truck with that ID exists.'],
    ];
    for (const [payload, message] of loadCases) {
      const res = await call('POST', `/api/admin/orders/${order.id}/assignments`, admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
    const noPayment = await call('POST', `/api/admin/orders/${order.id}/payment-review`, admin, {
      decision: 'confirm',
    });
    expect(noPayment.statusCode).toBe(409);
    expect(noPayment.json()).toEqual({
      error: 'There is no payment confirmation to review. Enter the payment reference to record it.',
    });
  });

  it('keeps device ids unique on update too', async () => {
    const admin = who.ADMIN;
    await call('POST', '/api/admin/trucks', admin, {
      id: 'DV-1',
      plate: 'KDV 1',
      capacityT: 20,
      deviceId: 'dev-one',
    });
    await call('POST', '/api/admin/trucks', admin, { id: 'DV-2', plate: 'KDV 2', capacityT: 20 });
    const taken = await call('PATCH', '/api/admin/trucks/DV-2', admin, { deviceId: 'dev-one' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'This device ID is already linked to another truck.' });
    const same = await call('PATCH', '/api/admin/trucks/DV-1', admin, {
      deviceId: 'dev-one',
      plate: 'KDV 11',
    });
    expect(same.json()).toMatchObject({ deviceId: 'dev-one', plate: 'KDV 11' });
  });
});

describe('uploads', () => {
  it('refuses images over 5 MB with 413', async () => {
    await call('POST', '/api/admin/drivers', who.ADMIN, { id: 'UP-1', name: 'Upload Driver' });
    const huge = `data:image/jpeg;base64,${Buffer.alloc(5 * 1024 * 1024 + 10, 1).toString('base64')}`;
    const res = await call('PATCH', '/api/admin/drivers/UP-1', who.ADMIN, {
      name: 'Upload Driver',
      photoData: huge,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Images must be 5 MB or smaller.' });
  });

  it('serves fuel photos to FUEL, OPS and ADMIN only, and only when a fuel log references them', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#222' } })
      .png()
      .toBuffer();
    const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
    const name = await storeImage(t.deps.config, dataUrl, 'fuel-photo');
    const orphan = await storeImage(t.deps.config, dataUrl, 'fuel-photo');
    await t.database.db
      .insert(trucks)
      .values({ id: 'FUEL-T', plate: 'KFU 1', capacityT: 20 })
      .onConflictDoNothing();
    await t.database.db
      .insert(fuelLogs)
      .values({ truckId: 'FUEL-T', costCents: 500_000, capturedAt: new Date(), photoPath: name });
    for (const role of ['ADMIN', 'OPS', 'FUEL'] as const) {
      expect((await call('GET', `/api/uploads/${name}`, who[role])).statusCode, role).toBe(200);
      expect((await call('GET', `/api/uploads/${orphan}`, who[role])).statusCode, role).toBe(404);
    }
    for (const role of ['DRIVER', 'CUSTOMER'] as const) {
      expect((await call('GET', `/api/uploads/${name}`, who[role])).statusCode, role).toBe(404);
    }
    expect((await call('GET', `/api/uploads/${name}`)).statusCode).toBe(401);
  });
});
