import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, launchBrowser, newPage, scrollIntoView, storeSession } from './support/browser';
import { sharedAppURL } from './support/shared-app';

// Issue 27, item 8: the phone where it is needed — on ops' order card and payment review, on the driver's
// job (with directions to the site) and on the tracking page — as tap-to-call and WhatsApp links.
const baseURL = sharedAppURL();
const PHONE_360 = { width: 360, height: 740 };
let browser: Browser;
let adminToken: string;

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

async function signedIn(email: string, password: string) {
  const { context, page } = await newPage(browser, baseURL, PHONE_360);
  const { token, user } = await api<{ token: string; user: Record<string, string | null> }>(
    baseURL,
    'POST',
    '/api/auth/login',
    { email, password },
  );
  await page.goto('/login');
  await storeSession(page, token, user);
  return { context, page };
}

async function noWiderThanTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

describe('phones where they are needed', () => {
  it('ops calls the customer from the card and the review sheet (which shows the reference), the driver from the job, the customer the office', async () => {
    const suffix = Date.now().toString().slice(-6);
    const customer = await api<{ token: string; user: { id: number } }>(
      baseURL,
      'POST',
      '/api/auth/register',
      {
        name: 'Zuri Builders',
        email: `zuri-${suffix}@example.co.ke`,
        password: 'zuri-pass-123',
      },
    );
    const order = await api<{ id: number; trackingUrl?: string }>(
      baseURL,
      'POST',
      '/api/admin/orders',
      {
        name: 'Zuri Builders',
        phone: '0712 345 678',
        site: `Kamakis plot ${suffix}`,
        sandType: 'coarse',
        trucks: 1,
        customerId: customer.user.id,
      },
      adminToken,
    );
    await api(
      baseURL,
      'POST',
      `/api/orders/${order.id}/payment`,
      { method: 'KCB', reference: `KCB${suffix}` },
      customer.token,
    );

    const admin = await signedIn(inject('adminEmail'), inject('adminPassword'));
    await admin.page.goto('/ops/orders');
    const card = admin.page
      .getByRole('listitem')
      .filter({ hasText: `Kamakis plot ${suffix}` })
      .first();
    const call = card.getByRole('link', { name: 'Call Zuri Builders' });
    await expect.poll(() => call.getAttribute('href')).toBe('tel:+254712345678');
    expect(await call.textContent()).toMatch(/^\+254 712 345 678/);
    expect(await card.getByRole('link', { name: 'WhatsApp Zuri Builders' }).getAttribute('href')).toBe(
      'https://wa.me/254712345678',
    );
    // The site point was set when the order was placed: Kamakis is in the gazetteer (item 9).
    const pin = card.getByRole('link', { name: 'Site on the map: town or estate named, within 1500 m' });
    expect(await pin.getAttribute('href')).toBe(
      'https://www.openstreetmap.org/?mlat=-1.153&mlon=36.943#map=16/-1.153/36.943',
    );
    const box = await call.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    await scrollIntoView(call);
    await noWiderThanTheScreen(admin.page);
    await admin.page.screenshot({ path: '/tmp/ux-ops-card-phone.png' });

    await card.getByRole('button', { name: 'Review payment' }).click();
    const sheet = admin.page.getByRole('dialog', { name: `Review payment · order #${order.id}` });
    await expect.poll(() => sheet.getByText('Reference to check').isVisible()).toBe(true);
    expect(await sheet.getByText(`KCB${suffix}`).isVisible()).toBe(true);
    expect(await sheet.getByRole('link', { name: 'Call Zuri Builders' }).getAttribute('href')).toBe(
      'tel:+254712345678',
    );
    await admin.page.screenshot({ path: '/tmp/ux-ops-review-phone.png' });
    await sheet.getByRole('button', { name: 'Confirm payment' }).click();
    // The confirmation has landed (the sheet closes on the answer) before the page goes: closing it at once
    // could cut the request, and the assignment below would then meet an unconfirmed payment.
    await expect.poll(() => sheet.isVisible(), { timeout: 15_000 }).toBe(false);
    await admin.context.close();

    // The driver's job: the customer to call while the load is open.
    const driverId = `DRV-C${suffix}`;
    const truckId = `TRK-C${suffix}`;
    await api(baseURL, 'POST', '/api/admin/drivers', { id: driverId, name: 'Chege Contacts' }, adminToken);
    await api(
      baseURL,
      'POST',
      '/api/admin/trucks',
      { id: truckId, plate: `KDC ${suffix}`, capacityT: 20, primaryDriverId: driverId },
      adminToken,
    );
    const email = `driver-c${suffix}@mchanga.co.ke`;
    await api(
      baseURL,
      'POST',
      '/api/admin/users',
      { name: 'Chege Contacts', email, password: 'driver-pass-1', role: 'DRIVER', driverId },
      adminToken,
    );
    await api(
      baseURL,
      'POST',
      `/api/admin/orders/${order.id}/assignments`,
      { truckId, driverId },
      adminToken,
    );
    const driver = await signedIn(email, 'driver-pass-1');
    await driver.page.goto('/driver');
    const job = driver.page.getByRole('link', { name: 'Call Zuri Builders' }).first();
    await expect.poll(() => job.getAttribute('href')).toBe('tel:+254712345678');
    expect(
      await driver.page.getByRole('link', { name: 'Directions to the site' }).first().getAttribute('href'),
    ).toBe('https://www.google.com/maps/dir/?api=1&destination=-1.153,36.943');
    await scrollIntoView(job);
    await noWiderThanTheScreen(driver.page);
    await driver.page.screenshot({ path: '/tmp/ux-ops-driver-phone.png' });
    await driver.context.close();

    // The tracking page: the office's number to call.
    const listed = await api<Array<{ id: number; trackingUrl: string }>>(
      baseURL,
      'GET',
      '/api/admin/orders',
      undefined,
      adminToken,
    );
    const trackingUrl = listed.find((o) => o.id === order.id)!.trackingUrl;
    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await page.goto(trackingUrl);
    const office = page.getByRole('link', { name: 'Call dispatch: +254 700 000 000' });
    await expect.poll(() => office.getAttribute('href')).toBe('tel:+254700000000');
    expect(await page.getByRole('link', { name: 'WhatsApp' }).getAttribute('href')).toBe(
      'https://wa.me/254700000000',
    );
    await scrollIntoView(office);
    await noWiderThanTheScreen(page);
    await page.screenshot({ path: '/tmp/ux-ops-track-phone.png' });
    await context.close();
  });
});
