import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { browserAndAdmin } from './support/admin';
import { api, newPage, PHONE, signInThroughForm, storeSession } from './support/browser';
import { reportPosition } from './support/seed';
import { sharedAppURL } from './support/shared-app';

const run = promisify(execFile);
const baseURL = sharedAppURL();
let browser: Browser;
let adminToken: string;

async function simulate(ticks: number) {
  await run(process.execPath, ['--import', 'tsx', 'scripts/simulate.ts', '--ticks', String(ticks)], {
    env: {
      ...process.env,
      BASE_URL: baseURL,
      ADMIN_EMAIL: inject('adminEmail'),
      ADMIN_PASSWORD: inject('adminPassword'),
      SIM_INTERVAL_MS: '1100',
      SIM_SPEEDUP: '600',
    },
  });
}

beforeAll(async () => {
  ({ browser, adminToken } = await browserAndAdmin());
});
afterAll(async () => {
  await browser?.close();
});

describe('fleet and drivers', () => {
  it("the admin's Fleet tab shows simulated trucks moving between refreshes and reassigns a driver", async () => {
    await simulate(1);
    const { context, page } = await newPage(browser, baseURL);
    await signInThroughForm(page, inject('adminEmail'), inject('adminPassword'));
    await page.waitForURL('**/ops');
    await page.getByRole('tab', { name: 'Fleet' }).click();
    const card = page.locator('.truck-card').filter({ hasText: 'KDA 101S' });
    await expect.poll(() => card.getByText('48 km/h').isVisible()).toBe(true);
    await expect
      .poll(() =>
        page
          .getByRole('region', { name: 'Fleet map' })
          .or(page.locator('section[aria-label="Fleet map"]'))
          .first()
          .isVisible(),
      )
      .toBe(true);
    const marker = page.locator('.maplibregl-marker', { hasText: 'KDA 101S' });
    const where = () => marker.evaluate((el) => (el as HTMLElement).style.transform);
    await expect.poll(where, { timeout: 5000 }).toMatch(/translate\(\d/);
    await page.waitForTimeout(1000);
    const before = await where();

    await simulate(3);
    // Positions are acknowledged once queued and written a moment later: refresh until the map shows them.
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).first().click();
          await page.waitForTimeout(300);
          return where();
        },
        { timeout: 8000 },
      )
      .not.toBe(before);
    const positions = await api<Array<{ truckId: string; lat: number }>>(
      baseURL,
      'GET',
      '/api/telemetry/trucks',
      undefined,
      adminToken,
    );
    expect(positions.filter((p) => p.truckId.startsWith('SIM-') && p.lat !== null)).toHaveLength(3);

    await card.getByLabel('Driver for KDA 101S').selectOption('SIM-D2');
    await expect
      .poll(
        async () =>
          (
            await api<Array<{ id: string; primaryDriverId: string }>>(
              baseURL,
              'GET',
              '/api/admin/trucks',
              undefined,
              adminToken,
            )
          ).find((t) => t.id === 'SIM-1')?.primaryDriverId,
      )
      .toBe('SIM-D2');
    await card.getByLabel('Driver for KDA 101S').selectOption('SIM-D1');
    await context.close();
  });

  it('a driver on a phone sees their stats, updates their profile photo and marks a load delivered', async () => {
    const suffix = Date.now().toString().slice(-6);
    const driverId = `DRV-E${suffix}`;
    await api(baseURL, 'POST', '/api/admin/drivers', { id: driverId, name: 'Otieno Driver' }, adminToken);
    await api(
      baseURL,
      'POST',
      '/api/admin/trucks',
      { id: `TRK-E${suffix}`, plate: `KDR ${suffix}`, capacityT: 20, primaryDriverId: driverId },
      adminToken,
    );
    const email = `driver-${suffix}@mchanga.co.ke`;
    await api(
      baseURL,
      'POST',
      '/api/admin/users',
      { name: 'Otieno Driver', email, password: 'driver-pass-1', role: 'DRIVER', driverId },
      adminToken,
    );
    const customer = await api<{ token: string }>(baseURL, 'POST', '/api/auth/register', {
      name: 'Site Owner',
      email: `owner-${suffix}@example.co.ke`,
      password: 'owner-pass-1',
    });
    const delivered = await api<{ id: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: `Delivered site ${suffix}`, sandType: 'coarse', trucks: 1, distanceKm: 10 },
      customer.token,
    );
    const open = await api<{ id: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: `Open site ${suffix}`, sandType: 'smooth', trucks: 1, distanceKm: 10 },
      customer.token,
    );
    const done = await api<{ id: number }>(
      baseURL,
      'POST',
      `/api/admin/orders/${delivered.id}/assignments`,
      // The orders are not paid: ADMIN schedules them before payment, knowingly.
      { truckId: `TRK-E${suffix}`, driverId, confirmUnpaid: true },
      adminToken,
    );
    await api(
      baseURL,
      'PATCH',
      `/api/admin/assignments/${done.id}`,
      { status: 'DELIVERED', reason: 'Paper delivery note' },
      adminToken,
    );
    await api(
      baseURL,
      'POST',
      `/api/admin/orders/${open.id}/assignments`,
      { truckId: `TRK-E${suffix}`, driverId, confirmUnpaid: true },
      adminToken,
    );

    const { context, page } = await newPage(browser, baseURL, PHONE);
    await signInThroughForm(page, email, 'driver-pass-1');
    await page.waitForURL('**/driver');
    await expect
      .poll(() => page.getByText('Hi Otieno Driver, here is how you are tracking this week.').isVisible())
      .toBe(true);
    const loads = page.locator('.stat').filter({ hasText: 'Loads delivered' }).locator('.stat__value');
    await expect.poll(() => loads.textContent()).toBe('1');
    expect(
      await page.locator('.stat').filter({ hasText: 'Weekly revenue' }).getByText('KES 32,000').isVisible(),
    ).toBe(true);
    await expect.poll(() => page.getByText(/^Leaderboard #\d+$/).isVisible()).toBe(true);

    const png = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#884400' } })
      .png()
      .toBuffer();
    // On a phone the recent assignments are cards. Delivered asks for the proof: a photo and the
    // customer's delivery code (from their My Orders); a wrong code is refused with the tries left.
    const mine = await api<Array<{ id: number; deliveryCode: string }>>(
      baseURL,
      'GET',
      '/api/orders/my',
      undefined,
      customer.token,
    );
    const code = mine.find((o) => o.id === open.id)!.deliveryCode;
    const row = page.getByRole('listitem').filter({ hasText: `Open site ${suffix}` });
    await row.getByRole('button', { name: 'Delivered' }).click();
    const sheet = page.getByRole('dialog');
    await sheet
      .getByLabel('Photo of the delivered load')
      .setInputFiles({ name: 'load.png', mimeType: 'image/png', buffer: png });
    await sheet.getByLabel('Delivery code').fill(code === '0000' ? '1111' : '0000');
    await sheet.getByRole('button', { name: 'Confirm delivery' }).click();
    await expect
      .poll(() => sheet.getByText('That delivery code is wrong. 4 tries left.').isVisible())
      .toBe(true);
    await sheet.getByLabel('Delivery code').fill(code);
    await sheet.getByRole('button', { name: 'Confirm delivery' }).click();
    await expect.poll(() => loads.textContent()).toBe('2');
    expect(await page.getByRole('dialog').count()).toBe(0);

    await page
      .getByLabel('Profile photo')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect.poll(() => page.getByText('Profile updated successfully.').isVisible()).toBe(true);
    await expect.poll(() => page.getByRole('img', { name: 'Profile photo preview' }).isVisible()).toBe(true);
    const me = await api<{ driver: { photoPath: string | null } }>(
      baseURL,
      'GET',
      `/api/driver/dashboard?driverId=${driverId}`,
      undefined,
      adminToken,
    );
    expect(me.driver.photoPath).toMatch(/^driver-photo-/);
    await context.close();
  });

  it('the fleet map fits every truck on open and on Fit all trucks, keeps overlapping trucks apart and tells a stale truck from a moving one', async () => {
    const suffix = Date.now().toString().slice(-6);
    const trucks = [
      { id: `MAP-A${suffix}`, plate: `KMA ${suffix.slice(-3)}A`, deviceId: `map-a-${suffix}` },
      { id: `MAP-B${suffix}`, plate: `KMB ${suffix.slice(-3)}B`, deviceId: `map-b-${suffix}` },
      { id: `MAP-C${suffix}`, plate: `KMC ${suffix.slice(-3)}C`, deviceId: `map-c-${suffix}` },
    ];
    for (const t of trucks)
      await api(baseURL, 'POST', '/api/admin/trucks', { ...t, capacityT: 20 }, adminToken);
    const now = Date.now();
    // A and C report from the same corner of Limuru; B last reported from Kikuyu 31 minutes ago at speed.
    await reportPosition(baseURL, {
      deviceId: trucks[0]!.deviceId,
      lat: -1.1136,
      lng: 36.6425,
      kmh: 42,
      at: new Date(now),
    });
    await reportPosition(baseURL, {
      deviceId: trucks[2]!.deviceId,
      lat: -1.1137,
      lng: 36.6426,
      kmh: 0,
      at: new Date(now),
    });
    await reportPosition(baseURL, {
      deviceId: trucks[1]!.deviceId,
      lat: -1.2462,
      lng: 36.6629,
      kmh: 46.3,
      at: new Date(now - 31 * 60_000),
    });
    await expect
      .poll(async () => {
        const live = await api<Array<{ truckId: string; lat: number | null }>>(
          baseURL,
          'GET',
          '/api/telemetry/trucks',
          undefined,
          adminToken,
        );
        return live.filter(
          (t) => t.truckId.startsWith('MAP-') && t.truckId.endsWith(suffix) && t.lat !== null,
        ).length;
      })
      .toBe(3);

    const { context, page } = await newPage(browser, baseURL, { width: 360, height: 740 });
    const { token, user } = await api<{ token: string; user: { role: string; name: string; email: string } }>(
      baseURL,
      'POST',
      '/api/auth/login',
      { email: inject('adminEmail'), password: inject('adminPassword') },
    );
    await page.goto('/login');
    await storeSession(page, token, user);
    await page.goto('/ops/fleet');
    // On a phone the map is under the truck cards, a tap away.
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.locator('.fleet-map');
    // The map has loaded and laid its markers out for the screen.
    await page.locator('[aria-label="Fleet map"][data-ready="true"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('.maplibregl-marker').count()).toBeGreaterThan(0);

    /** Every marker (a plate, a stack of plates or an "N trucks" crowd) lies wholly inside the map. */
    const markersInside = () =>
      page.evaluate(() => {
        const box = document.querySelector('.fleet-map')!.getBoundingClientRect();
        return [...document.querySelectorAll('.maplibregl-marker')].every((m) => {
          const r = m.getBoundingClientRect();
          return (
            r.left >= box.left - 1 &&
            r.right <= box.right + 1 &&
            r.top >= box.top - 1 &&
            r.bottom <= box.bottom + 1
          );
        });
      });
    const labelBox = (plate: string) => page.locator('.truck-marker', { hasText: plate }).boundingBox();
    expect(await markersInside()).toBe(true);

    // The two trucks on one spot do not hide each other.
    const [a, c] = [await labelBox(trucks[0]!.plate), await labelBox(trucks[2]!.plate)];
    const crowd = await page.locator('.marker-cluster').count();
    if (a && c) {
      const overlap =
        a.x < c.x + c.width && c.x < a.x + a.width && a.y < c.y + c.height && c.y < a.y + a.height;
      expect(overlap).toBe(false);
    } else expect(crowd).toBeGreaterThan(0);

    // The zoom buttons sit above the map, never on a marker.
    const zoom = (await page.getByRole('button', { name: 'Zoom in' }).boundingBox())!;
    const mapBox = (await map.boundingBox())!;
    expect(zoom.y + zoom.height).toBeLessThanOrEqual(mapBox.y);

    // Zoomed in far, trucks leave the view; Fit all trucks brings every one back.
    for (let i = 0; i < 4; i++) {
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await page.waitForTimeout(350);
    }
    await page.waitForTimeout(800);
    expect(await markersInside()).toBe(false);
    await page.getByRole('button', { name: 'Fit all trucks' }).click();
    await expect.poll(markersInside, { timeout: 5000 }).toBe(true);

    // 31 minutes of silence: last seen, with no speed and no "moving".
    const stale = page.locator('.truck-card').filter({ hasText: trucks[1]!.plate });
    await expect.poll(() => stale.getByText('last seen 31 min ago').isVisible()).toBe(true);
    expect(await stale.textContent()).not.toMatch(/km\/h|moving/i);
    const fresh = page.locator('.truck-card').filter({ hasText: trucks[0]!.plate });
    await expect.poll(() => fresh.getByText('42 km/h').isVisible()).toBe(true);
    expect(await page.locator('.truck-marker--stale', { hasText: trucks[1]!.plate }).count()).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await context.close();
  });
});
