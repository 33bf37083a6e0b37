import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsDir } from '../../../core/uploads/uploads.service';
import { imageDataUrl, makeDriver, unique } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ settings: { dataDir: `/tmp/mchanga-drivers-test-${process.pid}` } });
});
afterAll(() => t.close());

describe('drivers', () => {
  it('validates drivers and refuses reused ids', async () => {
    const admin = await t.signIn('ADMIN');
    const ops = await t.signIn('OPS');
    const id = unique('DRV-');
    expect(
      (
        await t.call('POST', '/api/admin/drivers', admin, { id, name: 'Baraka', email: '', phone: '' })
      ).json(),
    ).toMatchObject({ id, email: null, phone: null });
    expect((await t.call('POST', '/api/admin/drivers', admin, { id, name: 'Again' })).statusCode).toBe(409);
    expect(
      (await t.call('POST', '/api/admin/drivers', admin, { id: unique('DRV-'), name: ' ' })).json(),
    ).toEqual({
      error: 'Driver name is required.',
    });
    expect((await t.call('POST', '/api/admin/drivers', admin, { id: '', name: 'C' })).json()).toEqual({
      error: 'Provide a unique driver ID.',
    });
    expect((await t.call('GET', '/api/admin/drivers', ops)).statusCode).toBe(200);
    expect(
      (await t.call('POST', '/api/admin/drivers', ops, { id: unique('DRV-'), name: 'X' })).statusCode,
    ).toBe(403);
  });

  it('stores photos checked by their bytes, re-encoded as JPEG without EXIF', async () => {
    const admin = await t.signIn('ADMIN');
    const driver = await makeDriver(t.database.db);
    const res = await t.call('PATCH', `/api/admin/drivers/${driver.id}`, admin, {
      name: 'Baraka Otieno',
      email: 'baraka@example.co.ke',
      phone: '0722000333',
      photoData: await imageDataUrl(true),
      nationalIdData: await imageDataUrl(),
    });
    expect(res.statusCode).toBe(200);
    const saved = res.json();
    expect(saved).toMatchObject({
      name: 'Baraka Otieno',
      email: 'baraka@example.co.ke',
      phone: '0722000333',
    });
    expect(saved.photoPath).toMatch(/^driver-photo-[a-f0-9]{32}\.jpg$/);
    expect(saved.nationalIdPath).toMatch(/^national-id-[a-f0-9]{32}\.jpg$/);
    const stored = readFileSync(join(uploadsDir(t.deps.settings), saved.photoPath));
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(stored.includes(Buffer.from('secret-gps-owner'))).toBe(false);
  });

  it('refuses what is not an image, whatever it claims, and images over 5 MB with 413', async () => {
    const admin = await t.signIn('ADMIN');
    const driver = await makeDriver(t.database.db);
    const url = `/api/admin/drivers/${driver.id}`;
    const text = `data:image/png;base64,${Buffer.from('<script>alert(1)</script>').toString('base64')}`;
    const notImage = await t.call('PATCH', url, admin, { name: 'Baraka', photoData: text });
    expect(notImage.statusCode).toBe(400);
    expect(notImage.json()).toEqual({ error: 'Only images can be uploaded.' });
    expect((await t.call('PATCH', url, admin, { name: 'Baraka', photoData: 'hello' })).statusCode).toBe(400);
    const huge = `data:image/jpeg;base64,${Buffer.alloc(5 * 1024 * 1024 + 10, 1).toString('base64')}`;
    const tooBig = await t.call('PATCH', url, admin, { name: 'Baraka', photoData: huge });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toEqual({ error: 'Images must be 5 MB or smaller.' });
  });

  it('answers an unknown driver with 404 and its message', async () => {
    const admin = await t.signIn('ADMIN');
    const res = await t.call('PATCH', '/api/admin/drivers/NOPE', admin, { name: 'Nobody' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No driver with that ID exists.' });
  });
});

describeRoleMatrix('drivers', () => t, [
  ['GET', '/api/admin/drivers', ['ADMIN', 'OPS']],
  ['POST', '/api/admin/drivers', ['ADMIN']],
  ['PATCH', '/api/admin/drivers/D1', ['ADMIN']],
]);
