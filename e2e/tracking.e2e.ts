import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAndAdmin } from './support/admin';
import { api, newPage, signInThroughForm } from './support/browser';
import { reportPosition } from './support/seed';
import { sharedAppURL } from './support/shared-app';

const baseURL = sharedAppURL();
const PHONE_360 = { width: 360, height: 740 };
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  ({ browser, adminToken } = await browserAndAdmin());
});
afterAll(async () => {
  await browser?.close();
});

describe('the customer tracking page', () => {
  it('shows the truck on its way on a small map at 360 px, the delivery code, and moves to arrived by itself', async () => {
    const suffix = Date.now().toString().slice(-6);
    const truckId = `TRK-T${suffix}`;
    const plate = `KTR ${suffix.slice(-3)}T`;
    const deviceId = `trk-t-${suffix}`;
    await api(
      baseURL,
      'POST',
      '/api/admin/drivers',
      { id: `DRV-T${suffix}`, name: 'Wanjiku Kamau' },
      adminToken,
    );
    await api(
      baseURL,
      'POST',
      '/api/admin/trucks',
      { id: truckId, plate, capacityT: 20, deviceId },
      adminToken,
    );
    const customer = await api<{ token: string }>(baseURL, 'POST', '/api/auth/register', {
      name: 'Site Owner',
      email: `track-${suffix}@example.co.ke`,
      password: 'owner-pass-1',
    });
    const order = await api<{ id: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: `Juja, plot ${suffix}`, sandType: 'coarse', trucks: 1, distanceKm: 12 },
      customer.token,
    );
    const load = await api<{ id: number }>(
      baseURL,
      'POST',
      `/api/admin/orders/${order.id}/assignments`,
      { truckId, driverId: `DRV-T${suffix}`, confirmUnpaid: true },
      adminToken,
    );
    await api(baseURL, 'PATCH', `/api/admin/assignments/${load.id}`, { status: 'IN_TRANSIT' }, adminToken);
    await reportPosition(baseURL, { deviceId, lat: -1.08, lng: 36.99, kmh: 42, at: new Date() });
    const mine = await api<Array<{ id: number; trackingUrl: string; deliveryCode: string }>>(
      baseURL,
      'GET',
      '/api/orders/my',
      undefined,
      customer.token,
    );
    const { trackingUrl, deliveryCode } = mine.find((o) => o.id === order.id)!;
    await api(
      baseURL,
      'PUT',
      `/api/orders/${order.id}/site`,
      { shared: 'https://www.google.com/maps/@-1.1319,36.9784,17z' },
      customer.token,
    );
    expect(trackingUrl).toMatch(/^\/track\/[0-9a-f]{32}$/);

    // Anyone with the link, signed in or not.
    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await page.goto(trackingUrl);
    await expect
      .poll(() => page.getByRole('heading', { name: `Order #${order.id}` }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    const card = page.locator('.track-load', { hasText: plate });
    await expect.poll(() => card.getByText('On the way', { exact: true }).isVisible()).toBe(true);
    // The customer pinned the site (a pasted Google Maps link): the truck's pace gives the arrival time.
    await expect.poll(() => card.getByText(/^Arrives in about \d+ min$/).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(deliveryCode, { exact: true }).isVisible()).toBe(true);
    // The map is a tap away (its code is not fetched with the page).
    await page.getByRole('button', { name: 'Show map' }).click();
    await expect
      .poll(() => page.locator('.fleet-map-block[data-ready="true"]').isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await page.locator('.truck-marker', { hasText: plate }).count()).toBe(1);
    const mapBox = (await page.locator('.fleet-map').boundingBox())!;
    expect(mapBox.height).toBeLessThanOrEqual(260);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: '/tmp/i16-track-360.png', fullPage: true });

    // The page asks again by itself: the truck at the site shows without a reload.
    await api(baseURL, 'PATCH', `/api/admin/assignments/${load.id}`, { status: 'ARRIVED' }, adminToken);
    await expect
      .poll(() => card.getByText('At your site', { exact: true }).isVisible(), { timeout: 40_000 })
      .toBe(true);
    await expect.poll(() => card.getByText('The truck is at your site.').isVisible()).toBe(true);

    // An unknown link says so.
    await page.goto('/track/0000000000000000000000000000dead');
    await expect
      .poll(() => page.getByText('Tracking link not found.').isVisible(), { timeout: 15_000 })
      .toBe(true);
    await context.close();
  });

  it('My Orders shows the delivery code and the tracking link, and takes a pasted shared location for the site', async () => {
    const suffix = Date.now().toString().slice(-6);
    const email = `pin-${suffix}@example.co.ke`;
    const customer = await api<{ token: string }>(baseURL, 'POST', '/api/auth/register', {
      name: 'Pin Owner',
      email,
      password: 'owner-pass-1',
    });
    const order = await api<{ id: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: `Ruiru, plot ${suffix}`, sandType: 'smooth', trucks: 1, distanceKm: 9 },
      customer.token,
    );
    const listed = (
      await api<Array<{ id: number; trackingUrl: string; deliveryCode: string }>>(
        baseURL,
        'GET',
        '/api/orders/my',
        undefined,
        customer.token,
      )
    ).find((o) => o.id === order.id)!;
    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await signInThroughForm(page, email, 'owner-pass-1');
    await page.waitForURL('**/customer');
    const card = page.locator('article', { hasText: `Order #${order.id}` });
    await expect.poll(() => card.getByText(listed.deliveryCode, { exact: true }).isVisible()).toBe(true);
    expect(await card.getByRole('link', { name: 'Track this order' }).getAttribute('href')).toBe(
      listed.trackingUrl,
    );
    await card.getByText('Put your site on the map').click();
    await card.getByLabel('Shared location').fill('not a place');
    await card.getByRole('button', { name: 'Save site' }).click();
    await expect
      .poll(() => card.getByText('That is not a location we can read.', { exact: false }).isVisible())
      .toBe(true);
    await card.getByLabel('Shared location').fill('https://maps.apple.com/?ll=-1.1466,36.9609&q=Site');
    await card.getByRole('button', { name: 'Save site' }).click();
    await expect.poll(() => card.getByText('Site saved at -1.14660, 36.96090.').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: '/tmp/i16-myorders-360.png', fullPage: true });
    await card.getByRole('link', { name: 'Track this order' }).click();
    await page.waitForURL(`**${listed.trackingUrl}`);
    await expect
      .poll(() => page.getByRole('heading', { name: `Order #${order.id}` }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await context.close();
  });
});
