/**
 * Issue 14 item 4 in the browser: Kiswahili chosen on the landing page at 360 px stays after a reload
 * (and the page still fits the phone), and a driver whose account is set to Kiswahili gets it on /driver
 * after signing in on a fresh device.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, launchBrowser, newPage, openMenuIfCollapsed, signInThroughForm } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';
import { measureLayout } from './support/layout';

const PHONE_360 = { width: 360, height: 740 };
let app: RunningApp;
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  adminToken = (
    await api<{ token: string }>(app.baseURL, 'POST', '/api/auth/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    })
  ).token;
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function chooseLanguage(page: Page, label: 'English' | 'Kiswahili') {
  await openMenuIfCollapsed(page);
  await page.getByLabel('Language').first().selectOption({ label });
}

describe('Kiswahili screens', () => {
  it('switches the landing page to Kiswahili at 360 px, keeps it after a reload, and fits the phone', async () => {
    const { context, page } = await newPage(browser, app.baseURL, PHONE_360);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'Sand delivered by the truck load',
    );
    await page.getByRole('heading', { name: 'Get a quote and order' }).waitFor();

    await chooseLanguage(page, 'Kiswahili');
    await page.getByRole('heading', { level: 1, name: 'Mchanga unaletwa kwa lori' }).waitFor();
    await page.getByRole('heading', { name: 'Pata bei na uagize' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');

    await page.reload();
    // The server sends English; the stored choice turns it to Kiswahili right after hydration.
    await page.getByRole('heading', { level: 1, name: 'Mchanga unaletwa kwa lori' }).waitFor();
    await page.getByRole('heading', { name: 'Pata bei na uagize' }).waitFor();
    await page.getByLabel('Mahali pa kuleta').waitFor();
    expect(await page.getByText('Saa za usambazaji:').count()).toBe(1);

    const layout = await measureLayout(page);
    expect(layout.scrollWidth, JSON.stringify(layout.widest)).toBeLessThanOrEqual(PHONE_360.width);
    await page.screenshot({ path: '/tmp/mchanga-i18n-landing-360.png', fullPage: true });
    // No hydration mismatch from the switch after hydration.
    expect(errors.filter((e) => /hydrat|did not match/i.test(e))).toEqual([]);

    await chooseLanguage(page, 'English');
    await page.getByRole('heading', { level: 1, name: 'Sand delivered by the truck load' }).waitFor();
    await context.close();
  });

  it("applies the driver's account language on /driver after signing in on a fresh device", async () => {
    const suffix = Date.now().toString(36).slice(-5).toUpperCase();
    const driver = { email: `dereva-${suffix.toLowerCase()}@mchanga.co.ke`, password: 'dereva-pass-123' };
    await api(
      app.baseURL,
      'POST',
      '/api/admin/drivers',
      { id: `SW-${suffix}`, name: 'Mwangi Kamau', email: driver.email, phone: '0722 111 222' },
      adminToken,
    );
    await api(
      app.baseURL,
      'POST',
      '/api/admin/users',
      { name: 'Mwangi Kamau', ...driver, role: 'DRIVER', driverId: `SW-${suffix}` },
      adminToken,
    );
    const { token } = await api<{ token: string }>(app.baseURL, 'POST', '/api/auth/login', driver);
    await api(app.baseURL, 'PUT', '/api/auth/language', { language: 'sw' }, token);

    const { context, page } = await newPage(browser, app.baseURL, PHONE_360);
    await signInThroughForm(page, driver.email, driver.password);
    await page.waitForURL('**/driver');
    await page.waitForFunction(() => document.documentElement.lang === 'sw');
    await page.getByRole('heading', { level: 1, name: 'Utendaji wa dereva' }).waitFor();
    await page.getByRole('heading', { name: 'Safari za karibuni' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('mchanga.language'))).toBe('sw');
    await openMenuIfCollapsed(page);
    expect(await page.getByLabel('Language').first().inputValue()).toBe('sw');
    const layout = await measureLayout(page);
    expect(layout.scrollWidth, JSON.stringify(layout.widest)).toBeLessThanOrEqual(PHONE_360.width);
    await page.screenshot({ path: '/tmp/mchanga-i18n-driver-360.png', fullPage: true });
    await context.close();
  });
});
