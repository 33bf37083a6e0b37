/**
 * Issue 14: the device outbox on the driver and workspace screens (load moves, costs and a queued
 * cost's duplicate answer), in a real browser with its own app. Helpers as in offline.e2e.ts.
 *
 * - Installability: the manifest is fetched and valid (icons 192/512 and maskable, real PNGs of those
 *   sizes), Chromium reports no installability error, the service worker is active and controls the page,
 *   and a FUEL user who opens /fuel without network gets the screen, the banner and the last data.
 * - Chaos: 50 fuel logs entered across offline/online cycles, reloads while offline, and a browser closed
 *   while a send it had made was in flight (the server recorded it, the phone never heard) → exactly 50
 *   rows on the server, 0 duplicates, 0 left in the outbox.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, CHROMIUM_PATH } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';
import { measureLayout } from './support/layout';
import { seedBusiness } from './support/seed';

const PHONE_360 = { width: 360, height: 740 };

let app: RunningApp;
let adminToken: string;
const profileDirs: string[] = [];

beforeAll(async () => {
  app = await startApp();
  const login = await api<{ token: string }>(app.baseURL, 'POST', '/api/auth/login', {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  });
  adminToken = login.token;
}, 180_000);

afterAll(async () => {
  await app?.stop();
  for (const dir of profileDirs) rmSync(dir, { recursive: true, force: true });
});

/** A browser with a profile on disk: what a phone keeps (IndexedDB, the service worker) survives a close. */
function launchPhone(dir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    headless: true,
    baseURL: app.baseURL,
    viewport: PHONE_360,
    isMobile: true,
    hasTouch: true,
  });
}

function newProfile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mchanga-phone-'));
  profileDirs.push(dir);
  return dir;
}

/** Entries in the device outbox (IndexedDB), read in the page. */
function outboxCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('mchanga-outbox');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('entries')) return resolve(0);
          const req = db.transaction('entries').objectStore('entries').count();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        };
      }),
  );
}

describe('outbox on the driver and workspace screens', () => {
  it("a driver's load move and an ops cost entered offline are sent on reconnect; the queued cost's duplicate answer brings up the spec's panel", async () => {
    const seeded = await seedBusiness(app.baseURL, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const phone = await launchPhone(newProfile());
    const page = phone.pages()[0] ?? (await phone.newPage());

    // DRIVER: 'In Transit' without signal says so and waits; the network returns and it is sent.
    await page.goto('/login');
    await page.getByLabel('Email').fill(seeded.accounts.DRIVER.email);
    await page.getByLabel('Password').fill(seeded.accounts.DRIVER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/driver');
    await expect.poll(() => page.getByRole('button', { name: 'In Transit' }).first().isVisible()).toBe(true);
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
    >(app.baseURL, 'GET', `/api/admin/orders/${seeded.orders.scheduled}/assignments`, undefined, adminToken);
    expect(loads.map((l) => l.status)).toContain('IN_TRANSIT');

    // OPS: a cost matching an existing one, entered offline, comes back as a duplicate on the costs tab.
    const truck = seeded.trucks[2] ?? seeded.trucks[0]!;
    const opsLogin = await api<{ token: string }>(
      app.baseURL,
      'POST',
      '/api/auth/login',
      seeded.accounts.OPS,
    );
    await api(
      app.baseURL,
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
          app.baseURL,
          'GET',
          '/api/admin/costs',
          undefined,
          adminToken,
        )
      ).filter((c) => c.description === 'Radiator hose again');
    await expect.poll(again, { timeout: 15_000 }).toEqual([expect.objectContaining({ is_duplicate: true })]);
    await phone.close();
  }, 240_000);
});
