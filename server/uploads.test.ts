import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeImage, uploadStore, uploadsDir } from '../core/uploads/uploads.service';
import { deliveryProofs, drivers, fuelLogs, uploads } from '../drizzle/schema';
import {
  imageDataUrl,
  makeAssignment,
  makeDriver,
  makeFuelLog,
  makeOrder,
  makeTruck,
} from '../test/factories';
import { createTestApp, type TestApp } from '../test/helpers';

// Every upload test runs against both stores: DATA_DIR files (embedded) and the uploads table (services).
describe.each(['files', 'database'] as const)('GET /api/uploads/:name (%s store)', (uploadStorage) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      settings: { dataDir: `/tmp/mchanga-uploads-test-${process.pid}`, uploadStorage },
    });
  });
  afterAll(() => t.close());
  const store = () => uploadStore(t.database.db, t.deps.settings);

  it('serves driver documents only to ADMIN and the driver they belong to', async () => {
    const photo = await storeImage(store(), await imageDataUrl(), 'driver-photo');
    const driver = await makeDriver(t.database.db, { photoPath: photo });
    const other = await makeDriver(t.database.db);
    const admin = await t.signIn('ADMIN');
    const ops = await t.signIn('OPS');
    const self = await t.signIn('DRIVER', { driverId: driver.id });
    const stranger = await t.signIn('DRIVER', { driverId: other.id });

    const asAdmin = await t.call('GET', `/api/uploads/${photo}`, admin);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(asAdmin.rawPayload).metadata()).format).toBe('jpeg');
    expect((await t.call('GET', `/api/uploads/${photo}`, self)).statusCode).toBe(200);
    expect((await t.call('GET', `/api/uploads/${photo}`, stranger)).statusCode).toBe(404);
    expect((await t.call('GET', `/api/uploads/${photo}`, ops)).statusCode).toBe(404);
    expect((await t.call('GET', `/api/uploads/${photo}`)).statusCode).toBe(401);
    expect((await t.call('GET', '/api/uploads/..%2F..%2Fjwt-secret', admin)).statusCode).toBe(404);
  });

  it('serves fuel photos to FUEL, OPS and ADMIN only, and only when a fuel log references them', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#222' } })
      .png()
      .toBuffer();
    const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
    const name = await storeImage(store(), dataUrl, 'fuel-photo');
    const orphan = await storeImage(store(), dataUrl, 'fuel-photo');
    const truck = await makeTruck(t.database.db);
    await makeFuelLog(t.database.db, { truckId: truck.id, capturedAt: new Date(), photoPath: name });
    for (const role of ['ADMIN', 'OPS', 'FUEL'] as const) {
      const who = await t.signIn(role);
      expect((await t.call('GET', `/api/uploads/${name}`, who)).statusCode, role).toBe(200);
      expect((await t.call('GET', `/api/uploads/${orphan}`, who)).statusCode, role).toBe(404);
    }
    for (const role of ['DRIVER', 'CUSTOMER'] as const) {
      const who = await t.signIn(role);
      expect((await t.call('GET', `/api/uploads/${name}`, who)).statusCode, role).toBe(404);
    }
    expect((await t.call('GET', `/api/uploads/${name}`)).statusCode).toBe(401);
  });

  it("serves a proof of delivery to ADMIN, OPS and the load's driver only, and only while a proof references it", async () => {
    const photo = await storeImage(store(), await imageDataUrl(), 'delivery-photo');
    const orphan = await storeImage(store(), await imageDataUrl(), 'delivery-photo');
    const driver = await makeDriver(t.database.db);
    const other = await makeDriver(t.database.db);
    const order = await makeOrder(t.database.db);
    const load = await makeAssignment(t.database.db, {
      orderId: order.id,
      truckId: (await makeTruck(t.database.db)).id,
      driverId: driver.id,
      status: 'DELIVERED',
      deliveredAt: new Date(),
    });
    await t.database.db
      .insert(deliveryProofs)
      .values({ assignmentId: load.id, photoPath: photo, method: 'code', recordedAt: new Date() });
    const readers = [
      ['ADMIN', await t.signIn('ADMIN'), 200],
      ['OPS', await t.signIn('OPS'), 200],
      ["the load's driver", await t.signIn('DRIVER', { driverId: driver.id }), 200],
      ['another driver', await t.signIn('DRIVER', { driverId: other.id }), 404],
      ['a driver not linked', await t.signIn('DRIVER', { driverId: null }), 404],
      ['FUEL', await t.signIn('FUEL'), 404],
      ['CUSTOMER', await t.signIn('CUSTOMER'), 404],
    ] as const;
    for (const [name, who, status] of readers) {
      expect((await t.call('GET', `/api/uploads/${photo}`, who)).statusCode, name).toBe(status);
      expect((await t.call('GET', `/api/uploads/${orphan}`, who)).statusCode, name).toBe(404);
    }
  });
});

describe.each(['files', 'database'] as const)('replaced and refused uploads (%s store)', (uploadStorage) => {
  it('leaves no orphan: after edits, failed saves and a refused duplicate, every file is referenced', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mchanga-orphans-'));
    const app = await createTestApp({ settings: { dataDir, uploadStorage } });
    try {
      const admin = await app.signIn('ADMIN');
      const fuel = await app.signIn('FUEL');
      const driver = await makeDriver(app.database.db);
      const self = await app.signIn('DRIVER', { driverId: driver.id });
      const photos = async () => ({ photoData: await imageDataUrl(), nationalIdData: await imageDataUrl() });
      const edit = async () =>
        app.call('PATCH', `/api/admin/drivers/${driver.id}`, admin, { name: 'Baraka', ...(await photos()) });

      for (let i = 0; i < 3; i++) expect((await edit()).statusCode).toBe(200);
      for (let i = 0; i < 2; i++)
        expect(
          (
            await app.call('PUT', '/api/driver/profile', self, {
              name: 'Baraka',
              photoData: await imageDataUrl(),
            })
          ).statusCode,
        ).toBe(200);
      // Racing edits queue up on the driver's row: each removes the photos it replaced.
      expect((await Promise.all(Array.from({ length: 5 }, edit))).map((r) => r.statusCode)).toEqual(
        Array(5).fill(200),
      );
      // Saves that fail keep none of their new files.
      const unknown = await app.call('PATCH', '/api/admin/drivers/DRV-NOBODY', admin, {
        name: 'Nobody',
        ...(await photos()),
      });
      expect(unknown.statusCode).toBe(404);
      const halfImage = await app.call('PATCH', `/api/admin/drivers/${driver.id}`, admin, {
        name: 'Baraka',
        nationalIdData: await imageDataUrl(),
        photoData: 'data:image/png;base64,bm90IGFuIGltYWdl',
      });
      expect(halfImage.statusCode).toBe(400);
      // A suspected duplicate fuel stop is refused with its photo; the confirmed resend keeps one.
      const truck = await makeTruck(app.database.db);
      const stop = { truckId: truck.id, litres: 40, odometer: 12_000, cost: 7_000 };
      expect((await app.call('POST', '/api/fuel/logs', fuel, stop)).statusCode).toBe(201);
      const dup = await app.call('POST', '/api/fuel/logs', fuel, {
        ...stop,
        photoData: await imageDataUrl(),
      });
      expect(dup.statusCode).toBe(409);
      const confirmed = await app.call('POST', '/api/fuel/logs', fuel, {
        ...stop,
        photoData: await imageDataUrl(),
        overrideDuplicate: true,
        duplicateOf: dup.json().existing.id,
      });
      expect(confirmed.statusCode).toBe(201);

      const stored = (
        uploadStorage === 'files'
          ? readdirSync(uploadsDir(app.deps.settings))
          : (await app.database.db.select({ name: uploads.name }).from(uploads)).map((u) => u.name)
      ).sort();
      const [row] = await app.database.db.select().from(drivers).where(eq(drivers.id, driver.id));
      const fuelPhotos = await app.database.db.select({ path: fuelLogs.photoPath }).from(fuelLogs);
      const referenced = [row!.nationalIdPath, row!.photoPath, ...fuelPhotos.map((f) => f.path)]
        .filter((p): p is string => !!p)
        .sort();
      expect(referenced).toHaveLength(3);
      expect(stored).toEqual(referenced);
      // The database store writes nothing to this machine's disk.
      if (uploadStorage === 'database') expect(existsSync(uploadsDir(app.deps.settings))).toBe(false);
    } finally {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
