/**
 * Issue 14 item 4 for the staff workspace: its labels come from the `staff` catalog, so an ADMIN who
 * switches to Kiswahili on /ops at 360 px gets Kiswahili tab names, headings and buttons (no catalog key
 * shown instead of a label), the page still fits the phone, and English comes back with the spec's words.
 * Its own app: the language is remembered on the ADMIN's account, which the other browser tests share.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffEn } from '../client/i18n/staff-en';
import { staffSw } from '../client/i18n/staff-sw';
import { launchBrowser, newPage, signInThroughForm } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';
import { measureLayout } from './support/layout';

const PHONE_360 = { width: 360, height: 740 };
const SCREENSHOT = '/tmp/mchanga-i18n-staff-360.png';
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** The header's menu button and language picker, found by their place (their labels are translated too). */
async function chooseLanguage(page: Page, label: 'English' | 'Kiswahili') {
  const toggle = page.locator('button[aria-controls="site-nav"]');
  const menuOpen = async () => (await toggle.getAttribute('aria-expanded')) === 'true';
  if ((await toggle.isVisible()) && !(await menuOpen())) await toggle.click();
  await page.locator('.language-switch select').selectOption({ label });
  // Close the phone menu again so it does not cover the workspace.
  if ((await toggle.isVisible()) && (await menuOpen())) await toggle.click();
}

const tabNames = (page: Page) => page.getByRole('tab').allTextContents();

/** Text that looks like a staff catalog key (e.g. "tabs.orders") rendered instead of its label. */
async function keysShown(page: Page): Promise<string[]> {
  const sections = Object.keys(staffEn).join('|');
  const text = (await page.locator('main').innerText()) ?? '';
  return [...text.matchAll(new RegExp(`\\b(?:${sections})\\.[a-zA-Z]+`, 'g'))].map((m) => m[0]);
}

describe('Kiswahili staff workspace', () => {
  it('an ADMIN switches /ops to Kiswahili at 360 px: translated tabs and screens that fit, then English again', async () => {
    const { context, page } = await newPage(browser, app.baseURL, PHONE_360);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await signInThroughForm(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL('**/ops');
    await page.getByRole('heading', { level: 2, name: 'Overview', exact: true }).waitFor();
    const english = Object.values(staffEn.tabs);
    expect(await tabNames(page)).toEqual(english);

    await chooseLanguage(page, 'Kiswahili');
    const kiswahili = Object.values(staffSw.tabs);
    await expect.poll(() => tabNames(page)).toEqual(kiswahili);
    // Translated, not copied: only the abbreviation AI reads the same in both.
    expect(kiswahili.filter((name, i) => name === english[i])).toEqual(['AI']);
    await page.getByRole('heading', { level: 1, name: staffSw.workspace.admin }).waitFor();
    await page.getByRole('heading', { level: 2, name: staffSw.tabs.overview, exact: true }).waitFor();
    await page.getByText(staffSw.overview.pendingOrders).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('sw');

    // Another tab by its Kiswahili name: its heading, form and filters are Kiswahili too.
    await page.getByRole('tab', { name: staffSw.tabs.orders, exact: true }).click();
    await page.getByRole('heading', { level: 2, name: staffSw.tabs.orders, exact: true }).waitFor();
    await page.getByText(staffSw.newOrder.title, { exact: true }).waitFor();
    await page.getByRole('button', { name: staffSw.orders.filterPending, exact: true }).waitFor();
    await page.getByRole('tab', { name: staffSw.tabs.trucks, exact: true }).click();
    await page.getByRole('heading', { level: 3, name: staffSw.trucks.registerTitle }).waitFor();
    await page.getByLabel(staffSw.trucks.capacityT).waitFor();
    // A form check answers in Kiswahili (English keeps the schema's wording).
    await page.getByRole('button', { name: staffSw.trucks.add, exact: true }).click();
    await page.getByText(staffSw.trucks.validId).first().waitFor();
    expect(await keysShown(page)).toEqual([]);

    // Every tab fits the phone with its Kiswahili labels (the tab strip scrolls on its own).
    const overflowing: string[] = [];
    for (const [id, name] of Object.entries(staffSw.tabs)) {
      await page.getByRole('tab', { name, exact: true }).click();
      await page.waitForURL(`**/ops/${id}`);
      await page.getByRole('tabpanel').waitFor();
      await page.waitForLoadState('networkidle').catch(() => undefined);
      const { scrollWidth, widest } = await measureLayout(page);
      if (scrollWidth > PHONE_360.width) overflowing.push(`${id}: ${scrollWidth} px (${widest.what})`);
      expect(await keysShown(page), id).toEqual([]);
    }
    expect(overflowing).toEqual([]);

    await page.getByRole('tab', { name: staffSw.tabs.overview, exact: true }).click();
    await page.getByRole('heading', { level: 2, name: staffSw.tabs.overview, exact: true }).waitFor();
    await page.getByText(staffSw.overview.pendingOrders).waitFor();
    const layout = await measureLayout(page);
    expect(layout.scrollWidth, JSON.stringify(layout.widest)).toBeLessThanOrEqual(PHONE_360.width);
    expect(await keysShown(page)).toEqual([]);
    await page.screenshot({ path: SCREENSHOT });

    // Remembered on the device: a reload opens the workspace in Kiswahili again.
    await page.reload();
    await expect.poll(() => tabNames(page)).toEqual(kiswahili);

    await chooseLanguage(page, 'English');
    await expect.poll(() => tabNames(page)).toEqual(english);
    await page.getByRole('heading', { level: 1, name: 'Admin workspace' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Overview', exact: true }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
