import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, launchBrowser, newPage, storeSession, untilAppLive } from './support/browser';
import { outboxCount, PHONE_360 } from './support/phone';
import { sharedAppURL } from './support/shared-app';

// Issue 27, item 10: work done without signal shows as queued, with the state it is meant to reach, once;
// an assignment made offline is kept on the phone and sent once the signal is back, even after a reload.
const baseURL = sharedAppURL();
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

describe('queued work without signal', () => {
  it('a driver’s move shows queued with its intended state, once; ops’ assignment offline is kept and sent once', async () => {
    const suffix = Date.now().toString().slice(-6);
    const driverId = `DRV-Q${suffix}`;
    const truckId = `TRK-Q${suffix}`;
    await api(baseURL, 'POST', '/api/admin/drivers', { id: driverId, name: 'Wafula Queue' }, adminToken);
    await api(
      baseURL,
      'POST',
      '/api/admin/trucks',
      { id: truckId, plate: `KDQ ${suffix}`, capacityT: 20, primaryDriverId: driverId },
      adminToken,
    );
    const email = `driver-q${suffix}@mchanga.co.ke`;
    await api(
      baseURL,
      'POST',
      '/api/admin/users',
      { name: 'Wafula Queue', email, password: 'driver-pass-1', role: 'DRIVER', driverId },
      adminToken,
    );
    // A paid order (the customer's confirmation, reviewed), so ops schedules without the unpaid override.
    const customer = await api<{ token: string; user: { id: number } }>(
      baseURL,
      'POST',
      '/api/auth/register',
      {
        name: 'Queue Site Owner',
        email: `queue-${suffix}@example.co.ke`,
        password: 'queue-pass-123',
      },
    );
    const order = await api<{ id: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: `Juja farm ${suffix}`, sandType: 'coarse', trucks: 2 },
      customer.token,
    );
    await api(
      baseURL,
      'POST',
      `/api/orders/${order.id}/payment`,
      { method: 'KCB', reference: `KCBQ${suffix}` },
      customer.token,
    );
    await api(
      baseURL,
      'POST',
      `/api/admin/orders/${order.id}/payment-review`,
      { decision: 'confirm' },
      adminToken,
    );
    const load = await api<{ id: number }>(
      baseURL,
      'POST',
      `/api/admin/orders/${order.id}/assignments`,
      { truckId, driverId, tonnes: 20 },
      adminToken,
    );

    // The driver, offline: one tap queues the move, the job says so, and there is no second tap.
    const driver = await signedIn(email, 'driver-pass-1');
    await driver.page.goto('/driver');
    const inTransit = driver.page.getByRole('button', { name: 'In Transit' });
    await expect.poll(() => inTransit.count()).toBe(1);
    await untilAppLive(driver.page);
    await driver.context.setOffline(true);
    await inTransit.click();
    await expect
      .poll(() => driver.page.getByText('Saved on this phone: In Transit').first().isVisible())
      .toBe(true);
    expect(await inTransit.count()).toBe(0);
    expect(await outboxCount(driver.page)).toBe(1);
    await driver.page.screenshot({ path: '/tmp/ux-ops-driver-queued.png' });
    await driver.context.setOffline(false);
    await driver.page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect.poll(() => outboxCount(driver.page), { timeout: 20_000 }).toBe(0);
    const loads = await api<Array<{ id: number; status: string; history: unknown[] }>>(
      baseURL,
      'GET',
      `/api/admin/orders/${order.id}/assignments`,
      undefined,
      adminToken,
    );
    expect(loads.find((l) => l.id === load.id)?.status).toBe('IN_TRANSIT');
    await driver.context.close();

    // Ops assigns the second truck offline: no endless "Scheduling…", the entry is kept and survives a
    // reload, and is sent once the signal is back.
    const truck2 = `TRK-R${suffix}`;
    await api(
      baseURL,
      'POST',
      '/api/admin/trucks',
      { id: truck2, plate: `KDR ${suffix}`, capacityT: 20 },
      adminToken,
    );
    const admin = await signedIn(inject('adminEmail'), inject('adminPassword'));
    await admin.page.goto('/ops/orders');
    const card = admin.page
      .getByRole('listitem')
      .filter({ hasText: `Juja farm ${suffix}` })
      .first();
    await card.getByRole('button', { name: 'Assign truck' }).click();
    const sheet = admin.page.getByRole('dialog', { name: `Assign truck · order #${order.id}` });
    await sheet.getByLabel('Truck').selectOption(truck2);
    await sheet.getByLabel('Driver').selectOption(driverId);
    await admin.context.setOffline(true);
    await sheet.getByRole('button', { name: 'Schedule load' }).click();
    await expect.poll(() => sheet.getByText(/saved on this phone/i).isVisible()).toBe(true);
    expect(await sheet.getByRole('button', { name: 'Schedule load' }).isEnabled()).toBe(true);
    expect(await sheet.getByText('Scheduling…').count()).toBe(0);
    expect(await outboxCount(admin.page)).toBe(1);
    await admin.page.screenshot({ path: '/tmp/ux-ops-assign-queued.png' });
    await admin.context.setOffline(false);
    await admin.page.reload();
    await expect.poll(() => outboxCount(admin.page), { timeout: 20_000 }).toBe(0);
    const after = await api<Array<{ truckId: string; status: string }>>(
      baseURL,
      'GET',
      `/api/admin/orders/${order.id}/assignments`,
      undefined,
      adminToken,
    );
    expect(after.filter((l) => l.truckId === truck2 && l.status !== 'CANCELLED')).toHaveLength(1);
    await admin.context.close();
  });
});
