import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertDeliveries, costs, stockTransactions } from '../../../drizzle/schema';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';
import { uploadsDir } from '../../uploads';

let t: TestApp;
let admin: SignedIn;
let ops: SignedIn;
let fuel: SignedIn;
let customer: SignedIn;
let now = new Date('2026-11-26T09:00:00Z'); // Thursday 12:00 in Nairobi

beforeAll(async () => {
  t = await createTestApp({ now: () => now, config: { dataDir: `/tmp/mchanga-ops-test-${process.pid}` } });
  admin = await t.signIn('ADMIN');
  ops = await t.signIn('OPS');
  fuel = await t.signIn('FUEL');
  customer = await t.signIn('CUSTOMER');
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, who?: SignedIn, payload?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: who?.headers ?? {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

async function imageDataUrl(withExif = false): Promise<string> {
  let img = sharp({ create: { width: 32, height: 24, channels: 3, background: '#c8964f' } }).jpeg();
  if (withExif)
    img = img.withExif({ IFD0: { Copyright: 'secret-gps-owner', ImageDescription: 'plate KCX' } });
  return `data:image/jpeg;base64,${(await img.toBuffer()).toString('base64')}`;
}

describe('trucks', () => {
  it('registers trucks with the spec validations and unique ids', async () => {
    const ok = await call('POST', '/api/admin/trucks', admin, {
      id: 'TRK-1',
      plate: 'kcx 123a',
      capacityT: 20,
      deviceId: 'phone-kcx',
    });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      id: 'TRK-1',
      plate: 'KCX 123A',
      capacityT: 20,
      capacity_t: 20,
      deviceId: 'phone-kcx',
    });
    expect(
      (await call('POST', '/api/admin/trucks', admin, { id: 'TRK-1', plate: 'KDA 1', capacityT: 20 }))
        .statusCode,
    ).toBe(409);
    expect(
      (await call('POST', '/api/admin/trucks', admin, { id: 'TRK-9', plate: 'KDA 1', deviceId: 'phone-kcx' }))
        .statusCode,
    ).toBe(409);
    for (const [payload, message] of [
      [{ id: 'TRK-2', plate: '', capacityT: 20 }, 'Plate is required.'],
      [{ id: 'TRK-2', plate: 'KDA 2', capacityT: 0 }, 'Capacity (tonnes) must be greater than zero.'],
      [{ id: 'TRK-2', plate: 'KDA 2', capacity_t: 0.5 }, 'Capacity (tonnes) must be greater than zero.'],
      [{ id: '', plate: 'KDA 2', capacityT: 20 }, 'Provide a unique truck ID.'],
      [{ id: 'TRK-2', plate: 'KDA 2', primaryDriverId: 'NOPE' }, 'No driver with that ID exists.'],
    ] as const) {
      const res = await call('POST', '/api/admin/trucks', admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
    expect(
      (await call('POST', '/api/admin/trucks', admin, { id: 'TRK-2', plate: 'KDA 2', capacity_t: 18 })).json()
        .capacityT,
    ).toBe(18);
  });

  it('lets ADMIN edit; OPS only reassign the driver; FUEL only read', async () => {
    await call('POST', '/api/admin/drivers', admin, {
      id: 'DRV-A',
      name: 'Achieng Driver',
      phone: '0711000111',
    });
    const patch = await call('PATCH', '/api/admin/trucks/TRK-2', admin, { plate: 'KDA 222', capacityT: 19 });
    expect(patch.json()).toMatchObject({ id: 'TRK-2', plate: 'KDA 222', capacityT: 19 });
    const opsMove = await call('PATCH', '/api/admin/trucks/TRK-2', ops, { primaryDriverId: 'DRV-A' });
    expect(opsMove.statusCode).toBe(200);
    expect(opsMove.json()).toMatchObject({
      primaryDriverId: 'DRV-A',
      driverName: 'Achieng Driver',
      driverPhone: '0711000111',
    });
    const opsPlate = await call('PATCH', '/api/admin/trucks/TRK-2', ops, { plate: 'HACKED' });
    expect(opsPlate.statusCode).toBe(403);
    expect(opsPlate.json()).toEqual({ error: "Operations can only change a truck's driver." });
    expect((await call('PATCH', '/api/admin/trucks/NOPE', admin, { plate: 'X' })).statusCode).toBe(404);
    expect((await call('GET', '/api/admin/trucks', fuel)).statusCode).toBe(200);
    expect((await call('POST', '/api/admin/trucks', ops, { id: 'T-OPS', plate: 'X' })).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/trucks', customer)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/trucks')).statusCode).toBe(401);
  });
});

describe('drivers and uploads', () => {
  it('validates drivers and refuses reused ids', async () => {
    expect(
      (
        await call('POST', '/api/admin/drivers', admin, { id: 'DRV-B', name: 'Baraka', email: '', phone: '' })
      ).json(),
    ).toMatchObject({
      id: 'DRV-B',
      email: null,
      phone: null,
    });
    expect((await call('POST', '/api/admin/drivers', admin, { id: 'DRV-B', name: 'Again' })).statusCode).toBe(
      409,
    );
    expect((await call('POST', '/api/admin/drivers', admin, { id: 'DRV-C', name: ' ' })).json()).toEqual({
      error: 'Driver name is required.',
    });
    expect((await call('POST', '/api/admin/drivers', admin, { id: '', name: 'C' })).json()).toEqual({
      error: 'Provide a unique driver ID.',
    });
    expect((await call('GET', '/api/admin/drivers', ops)).statusCode).toBe(200);
    expect((await call('POST', '/api/admin/drivers', ops, { id: 'DRV-X', name: 'X' })).statusCode).toBe(403);
  });

  it('stores photos checked by their bytes, without EXIF, served only to ADMIN and the driver', async () => {
    const res = await call('PATCH', '/api/admin/drivers/DRV-B', admin, {
      name: 'Baraka Otieno',
      email: 'baraka@example.co.ke',
      phone: '0722000333',
      photoData: await imageDataUrl(true),
      nationalIdData: await imageDataUrl(),
    });
    expect(res.statusCode).toBe(200);
    const driver = res.json();
    expect(driver.photoPath).toMatch(/^driver-photo-[a-f0-9]{32}\.jpg$/);
    const stored = readFileSync(join(uploadsDir(t.deps.config), driver.photoPath));
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(stored.includes(Buffer.from('secret-gps-owner'))).toBe(false);

    const asAdmin = await call('GET', `/api/uploads/${driver.photoPath}`, admin);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.headers['content-type']).toBe('image/jpeg');
    const self = await t.signIn('DRIVER', { driverId: 'DRV-B' });
    const other = await t.signIn('DRIVER', { driverId: 'DRV-A' });
    expect((await call('GET', `/api/uploads/${driver.photoPath}`, self)).statusCode).toBe(200);
    expect((await call('GET', `/api/uploads/${driver.photoPath}`, other)).statusCode).toBe(404);
    expect((await call('GET', `/api/uploads/${driver.photoPath}`, ops)).statusCode).toBe(404);
    expect((await call('GET', `/api/uploads/${driver.photoPath}`)).statusCode).toBe(401);
    expect((await call('GET', '/api/uploads/..%2F..%2Fjwt-secret', admin)).statusCode).toBe(404);
  });

  it('refuses what is not an image, whatever it claims, and images over 5 MB', async () => {
    const text = `data:image/png;base64,${Buffer.from('<script>alert(1)</script>').toString('base64')}`;
    const notImage = await call('PATCH', '/api/admin/drivers/DRV-B', admin, {
      name: 'Baraka',
      photoData: text,
    });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json()).toEqual({ error: 'Only images can be uploaded.' });
    expect(
      (await call('PATCH', '/api/admin/drivers/DRV-B', admin, { name: 'Baraka', photoData: 'hello' }))
        .statusCode,
    ).toBe(400);
    const huge = `data:image/jpeg;base64,${Buffer.alloc(5 * 1024 * 1024 + 10, 1).toString('base64')}`;
    const tooBig = await call('PATCH', '/api/admin/drivers/DRV-B', admin, {
      name: 'Baraka',
      photoData: huge,
    });
    expect([400, 413]).toContain(tooBig.statusCode);
    expect(tooBig.json().error).toMatch(/5 MB/);
  });
});

describe('orders, payment review, loads, stock and the overview', () => {
  it('runs an order from payment to delivery and moves stock, order status and the overview', async () => {
    const receipt = await call('POST', '/api/admin/stock/receipt', ops, {
      truckId: 'TRK-1',
      trucks: 2.5,
      category: 'coarse',
      costPerTonne: 400,
    });
    expect(receipt.statusCode).toBe(201);
    expect(receipt.json()).toMatchObject({
      kind: 'RECEIPT',
      trucks: 2.5,
      tonnes: 50,
      category: 'coarse',
      truck_id: 'TRK-1',
      reason: 'Yard receipt',
    });
    const [purchase] = await t.database.db.select().from(costs).where(eq(costs.stockTxId, receipt.json().id));
    expect(purchase).toMatchObject({
      type: 'STOCK_PURCHASE',
      amountCents: 50 * 400 * 100,
      truckId: 'TRK-1',
      source: 'STOCK',
    });
    expect((await call('GET', '/api/admin/stock', ops)).json()).toEqual({
      yard_name: 'Juja Yard',
      tonnes: 50,
      trucks_coarse: 2.5,
      trucks_smooth: 0,
      trucks_total: 2.5,
      unit_tonnes: 20,
    });

    const placed = (
      await call('POST', '/api/orders', customer, { site: 'Ruiru', sandType: 'coarse', trucks: 2 })
    ).json();
    await call('POST', `/api/orders/${placed.id}/payment`, customer, {
      method: 'Equity',
      reference: 'EQ-555',
    });
    const pending = await call('GET', '/api/admin/orders?assigned=false', admin);
    expect(pending.json().map((o: { id: number }) => o.id)).toContain(placed.id);

    const reject = await call('POST', `/api/admin/orders/${placed.id}/payment-review`, admin, {
      decision: 'reject',
    });
    expect(reject.statusCode).toBe(400);
    expect(reject.json()).toEqual({ error: 'Give a reason for rejecting the payment.' });
    const rejected = await call('POST', `/api/admin/orders/${placed.id}/payment-review`, admin, {
      decision: 'reject',
      note: 'Not received',
    });
    expect(rejected.json()).toEqual({ status: 'AWAITING_PAYMENT', paymentStatus: 'REJECTED' });
    await call('POST', `/api/orders/${placed.id}/payment`, customer, {
      method: 'Equity',
      reference: 'EQ-556',
    });
    const confirmed = await call('POST', `/api/admin/orders/${placed.id}/payment-review`, admin, {
      decision: 'confirm',
    });
    expect(confirmed.json()).toEqual({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });

    const noTruck = await call('POST', `/api/admin/orders/${placed.id}/assignments`, admin, {
      truckId: '',
      driverId: 'DRV-A',
    });
    expect(noTruck.json()).toEqual({ error: 'Select a truck.' });
    const first = await call('POST', `/api/admin/orders/${placed.id}/assignments`, admin, {
      truckId: 'TRK-1',
      driverId: 'DRV-A',
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      truck_id: 'TRK-1',
      plate: 'KCX 123A',
      tonnes: 20,
      status: 'SCHEDULED',
      driver: 'Achieng Driver',
    });
    const second = (
      await call('POST', `/api/admin/orders/${placed.id}/assignments`, admin, {
        truckId: 'TRK-2',
        driverId: 'DRV-B',
        tonnes: '',
      })
    ).json();
    expect(
      (await call('GET', '/api/admin/orders?assigned=true', admin)).json().map((o: { id: number }) => o.id),
    ).toContain(placed.id);
    expect((await call('GET', `/api/admin/orders/${placed.id}/assignments`, admin)).json()).toHaveLength(2);

    const driverA = await t.signIn('DRIVER', { driverId: 'DRV-A' });
    const driverB = await t.signIn('DRIVER', { driverId: 'DRV-B' });
    const notMine = await call('PATCH', `/api/admin/assignments/${first.json().id}`, driverB, {
      status: 'IN_TRANSIT',
    });
    expect(notMine.statusCode).toBe(403);
    expect(
      (await call('PATCH', `/api/admin/assignments/${first.json().id}`, driverA, { status: 'CANCELLED' }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await call('PATCH', `/api/admin/assignments/${first.json().id}`, driverA, { status: 'IN_TRANSIT' })
      ).json().status,
    ).toBe('IN_TRANSIT');
    const mineNow = (await call('GET', '/api/orders/my', customer))
      .json()
      .find((o: { id: number }) => o.id === placed.id);
    expect(mineNow.status).toBe('IN_TRANSIT');
    expect(
      (
        await call('PATCH', `/api/admin/assignments/${first.json().id}`, driverA, { status: 'DELIVERED' })
      ).json().status,
    ).toBe('DELIVERED');
    // Delivering twice takes stock out once.
    expect(
      (await call('PATCH', `/api/admin/assignments/${first.json().id}`, ops, { status: 'DELIVERED' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call('PATCH', `/api/admin/assignments/${first.json().id}`, ops, { status: 'SCHEDULED' }))
        .statusCode,
    ).toBe(409);
    expect((await call('GET', '/api/admin/stock', admin)).json().tonnes).toBe(30);
    await t.jobs.drain();
    const lowStock = await t.database.db
      .select()
      .from(alertDeliveries)
      .where(eq(alertDeliveries.eventKey, 'stock.low:yard@2026-11-26'));
    expect(lowStock.length).toBeGreaterThan(0);

    const overview = (await call('GET', '/api/admin/dashboard', admin)).json();
    expect(overview).toMatchObject({
      stock: 30,
      yardName: 'Juja Yard',
      pendingOrders: expect.any(Number),
      activeAssignments: 1,
      daily: { revenue: placed.perTruck, profit: placed.perTruck - 20000 },
      weekly: { revenue: placed.perTruck, profit: placed.perTruck - 20000 },
      expensesPerTruck: [{ truckId: 'TRK-1', plate: 'KCX 123A', amount: 20000 }],
      topDrivers: [{ driverId: 'DRV-A', name: 'Achieng Driver', tonnes: 20, revenue: placed.perTruck }],
    });

    await call('PATCH', `/api/admin/assignments/${second.id}`, ops, { status: 'DELIVERED' });
    const done = (await call('GET', '/api/orders/my', customer))
      .json()
      .find((o: { id: number }) => o.id === placed.id);
    expect(done.status).toBe('DELIVERED');
    const closed = await call('POST', `/api/admin/orders/${placed.id}/assignments`, admin, {
      truckId: 'TRK-1',
      driverId: 'DRV-A',
    });
    expect(closed.statusCode).toBe(409);

    // A day later the delivery is in the week, not today.
    now = new Date('2026-11-27T09:00:00Z');
    const tomorrow = (await call('GET', '/api/admin/dashboard', admin)).json();
    expect(tomorrow.daily).toEqual({ revenue: 0, profit: 0 });
    expect(tomorrow.weekly.revenue).toBe(placed.perTruck * 2);
    now = new Date('2026-11-26T09:00:00Z');
  });

  it('creates admin orders with a per-truck override, trucks defaulting to 1', async () => {
    const res = await call('POST', '/api/admin/orders', admin, {
      name: 'Phone Customer',
      phone: '0700123456',
      site: 'Kitengela',
      sandType: 'smooth',
      trucks: '',
      dateNeeded: '2026-12-02',
      perTruckOverride: 30000,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'AWAITING_PAYMENT',
      perTruck: 30000,
      total: 30000,
      truckCount: 1,
    });
    const bad = await call('POST', '/api/admin/orders', admin, {
      name: 'X',
      site: 'Y',
      sandType: 'coarse',
      perTruckOverride: -5,
    });
    expect(bad.json()).toEqual({ error: 'Per-truck price must be greater than zero.' });
    const byPhone = await call('POST', `/api/admin/orders/${res.json().id}/payment-review`, admin, {
      decision: 'confirm',
      method: 'M-Pesa',
      reference: 'MPESA123',
    });
    expect(byPhone.json()).toEqual({ status: 'RECEIVED', paymentStatus: 'CONFIRMED' });
    expect(
      (await call('POST', '/api/admin/orders', ops, { name: 'X', site: 'Y', sandType: 'coarse' })).statusCode,
    ).toBe(403);
  });

  it('edits stock notes (ADMIN only) with the spec message; OPS cannot edit', async () => {
    const [tx] = await t.database.db.select().from(stockTransactions).limit(1);
    const blank = await call('PATCH', `/api/admin/stock/tx/${tx!.id}`, admin, { reason: '  ' });
    expect(blank.json()).toEqual({ error: 'Add a short note for this transaction.' });
    expect(
      (await call('PATCH', `/api/admin/stock/tx/${tx!.id}`, admin, { reason: 'Lorry from Mwea' })).json()
        .reason,
    ).toBe('Lorry from Mwea');
    expect((await call('PATCH', `/api/admin/stock/tx/${tx!.id}`, ops, { reason: 'x' })).statusCode).toBe(403);
    for (const [payload, message] of [
      [{ truckId: '', trucks: 1, costPerTonne: 10 }, 'Select the truck receiving stock.'],
      [
        { truckId: 'TRK-1', trucks: 0, costPerTonne: 10 },
        'Enter trucks received (must be greater than zero).',
      ],
      [{ truckId: 'TRK-1', trucks: 1, costPerTonne: 0 }, 'Provide cost per tonne (KES).'],
    ] as const) {
      expect((await call('POST', '/api/admin/stock/receipt', admin, payload)).json()).toEqual({
        error: message,
      });
    }
    expect((await call('GET', '/api/admin/stock/tx', ops)).json().length).toBeGreaterThan(1);
    expect((await call('GET', '/api/admin/stock', fuel)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/dashboard', ops)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/orders', ops)).statusCode).toBe(403);
  });
});
