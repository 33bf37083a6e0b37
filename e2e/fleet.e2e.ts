import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, launchBrowser, newPage, PHONE, signInThroughForm } from './support/browser';

const run = promisify(execFile);
const baseURL = inject('baseURL');
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
  browser = await launchBrowser();
  adminToken = (
    await api<{ token: string }>(baseURL, 'POST', '/api/auth/login', {
      email: inject('adminEmail'),
      password: inject('adminPassword'),
    })
  ).token;
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
      { truckId: `TRK-E${suffix}`, driverId },
      adminToken,
    );
    await api(baseURL, 'PATCH', `/api/admin/assignments/${done.id}`, { status: 'DELIVERED' }, adminToken);
    await api(
      baseURL,
      'POST',
      `/api/admin/orders/${open.id}/assignments`,
      { truckId: `TRK-E${suffix}`, driverId },
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
    expect(await page.getByText(/^Leaderboard #\d+$/).isVisible()).toBe(true);

    const row = page.getByRole('row').filter({ hasText: `Open site ${suffix}` });
    await row.getByRole('button', { name: 'Delivered' }).click();
    await expect.poll(() => loads.textContent()).toBe('2');

    const png = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#884400' } })
      .png()
      .toBuffer();
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
});
