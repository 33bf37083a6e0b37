/**
 * Issue 14: the device outbox on the driver and workspace screens (load moves, costs and a queued
 * cost's duplicate answer), in a real browser with its own app (support/phone.ts, as offline.e2e.ts):
 * the phone takes a driver's load move and an ops cost while offline and sends both on reconnect; the
 * queued cost the server finds a duplicate brings up the spec's duplicate panel on its screen.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, untilAppLive } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/global-app';
import { measureLayout } from './support/layout';
import { outboxCount, PHONE_360, phonesForThisFile } from './support/phone';
import { seedBusiness } from './support/seed';

const phones = phonesForThisFile();

describe('outbox on the driver and workspace screens', () => {
  it("a driver's load move and an ops cost entered offline are sent on reconnect; the queued cost's duplicate answer brings up the spec's panel", async () => {
    const seeded = await seedBusiness(phones.baseURL, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const phone = await phones.launch(phones.newProfile());
    const page = phone.pages()[0] ?? (await phone.newPage());

    // DRIVER: 'In Transit' without signal says so and waits; the network returns and it is sent.
    await page.goto('/login');
    await page.getByLabel('Email').fill(seeded.accounts.DRIVER.email);
    await page.getByLabel('Password').fill(seeded.accounts.DRIVER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/driver');
    await expect.poll(() => page.getByRole('button', { name: 'In Transit' }).first().isVisible()).toBe(true);
    await untilAppLive(page);
    await phone.setOffline(true);
    await page.getByRole('button', { name: 'In Transit' }).first().click();
    await expect
      .poll(() => page.getByText('Your phone is offline. The load status is saved on this phone').isVisible())
      .toBe(true);
    await expect
      .poll(() => page.getByRole('heading', { name: '1 entry waiting to be sent' }).isVisible())
      .toBe(true);
    await page.screenshot({ path: join(tmpdir(), 'mchanga-outbox-driver-360.png'), fullPage: true });
    expect((await measureLayout(page)).scrollWidth).toBeLessThanOrEqual(PHONE_360.width);
    await phone.setOffline(false);
    await expect.poll(() => outboxCount(page), { timeout: 30_000 }).toBe(0);
    const loads = await api<
      Array<{ driver: string | null; status: string; truck_id?: string; truckId?: string }>
    >(
      phones.baseURL,
      'GET',
      `/api/admin/orders/${seeded.orders.scheduled}/assignments`,
      undefined,
      phones.adminToken,
    );
    expect(loads.map((l) => l.status)).toContain('IN_TRANSIT');

    // OPS: a cost matching an existing one, entered offline, comes back as a duplicate on the costs tab.
    const truck = seeded.trucks[2] ?? seeded.trucks[0]!;
    const opsLogin = await api<{ token: string }>(
      phones.baseURL,
      'POST',
      '/api/auth/login',
      seeded.accounts.OPS,
    );
    await api(
      phones.baseURL,
      'POST',
      '/api/admin/costs',
      { truckId: truck.id, type: 'REPAIR', amount: 4321, description: 'Radiator hose' },
      opsLogin.token,
    );
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login');
    await page.getByLabel('Email').fill(seeded.accounts.OPS.email);
    await page.getByLabel('Password').fill(seeded.accounts.OPS.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/ops**');
    await page.goto('/ops/costs');
    await expect
      .poll(() => page.getByLabel('Truck', { exact: true }).locator('option').count(), { timeout: 15_000 })
      .toBeGreaterThan(1);
    // The server drew the form (inert) before the app runs: the signal drops once it is live.
    await untilAppLive(page);
    await phone.setOffline(true);
    await page.getByLabel('Type', { exact: true }).selectOption('REPAIR');
    await page.getByLabel('Truck', { exact: true }).selectOption(truck.id);
    await page.getByLabel('Amount (KES)').fill('4321');
    await page.getByLabel('Description').fill('Radiator hose again');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect
      .poll(() => page.getByText('Your phone is offline. The cost is saved on this phone').isVisible())
      .toBe(true);
    await phone.setOffline(false);
    await expect
      .poll(() => page.getByRole('heading', { name: 'Possible duplicate detected' }).isVisible(), {
        timeout: 30_000,
      })
      .toBe(true);
    await page.screenshot({ path: join(tmpdir(), 'mchanga-outbox-duplicate-360.png'), fullPage: true });
    expect((await measureLayout(page)).scrollWidth).toBeLessThanOrEqual(PHONE_360.width);
    await page.getByRole('button', { name: 'Confirm and flag duplicate' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Possible duplicate detected' }).count(), {
        timeout: 15_000,
      })
      .toBe(0);
    await expect.poll(() => outboxCount(page), { timeout: 30_000 }).toBe(0);
    const again = async () =>
      (
        await api<Array<{ description: string; is_duplicate: boolean }>>(
          phones.baseURL,
          'GET',
          '/api/admin/costs',
          undefined,
          phones.adminToken,
        )
      ).filter((c) => c.description === 'Radiator hose again');
    await expect.poll(again, { timeout: 15_000 }).toEqual([expect.objectContaining({ is_duplicate: true })]);
    await phone.close();
  }, 240_000);
});
