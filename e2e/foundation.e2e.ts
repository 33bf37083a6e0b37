import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  launchBrowser,
  newPage,
  openMenuIfCollapsed,
  PHONE,
  signInThroughForm,
} from './support/browser';
import { sharedAppURL } from './support/shared-app';

const baseURL = sharedAppURL();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('foundation', () => {
  it('the bootstrap ADMIN signs in through the form and lands on /ops', async () => {
    const { context, page } = await newPage(browser, baseURL);
    await signInThroughForm(page, inject('adminEmail'), inject('adminPassword'));
    await page.waitForURL('**/ops');
    await expect.poll(() => page.getByRole('heading', { name: 'Admin workspace' }).isVisible()).toBe(true);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const link of ['Home', 'Articles', 'Order', 'Admin', 'Driver', 'Fuel']) {
      expect(await nav.getByRole('link', { name: link, exact: true }).count(), link).toBe(1);
    }
    expect(await nav.getByRole('link', { name: 'My Orders' }).count()).toBe(0);
    await expect.poll(() => nav.getByText('Hi, Admin').isVisible()).toBe(true);
    await expect.poll(() => nav.getByRole('button', { name: 'Logout' }).isVisible()).toBe(true);
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual([
      'Overview',
      'Orders',
      'Trucks',
      'Drivers',
      'Stock',
      'Costs',
      'Finance',
      'Audit',
      'Trips',
      'Fleet',
      'AI',
      'Activity log',
    ]);
    await context.close();
  });

  it('a new customer registers, lands on /order, and logout clears the session', async () => {
    const { context, page } = await newPage(browser, baseURL);
    await page.goto('/register');
    await page.getByLabel('Name').fill('Achieng Otieno');
    await page.getByLabel('Email').fill(`achieng-${Date.now()}@example.co.ke`);
    await page.getByLabel('Phone').fill('0711222333');
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect
      .poll(() => page.getByText('Password must be at least 8 characters long.').isVisible())
      .toBe(true);
    await page.getByLabel('Password', { exact: true }).fill('mchanga-pass');
    await page.getByLabel('Confirm password').fill('mchanga-pass-typo');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByText('Passwords do not match.').isVisible()).toBe(true);
    await page.getByLabel('Confirm password').fill('mchanga-pass');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/order');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => nav.getByRole('link', { name: 'My Orders' }).isVisible()).toBe(true);
    await expect.poll(() => nav.getByText('Hi, Achieng').isVisible()).toBe(true);
    expect(await nav.getByRole('link', { name: 'Admin' }).count()).toBe(0);
    const stored = await page.evaluate(() => ({
      token: localStorage.getItem('token'),
      role: localStorage.getItem('role'),
      userName: localStorage.getItem('userName'),
      userEmail: localStorage.getItem('userEmail'),
    }));
    expect(stored).toMatchObject({ role: 'CUSTOMER', userName: 'Achieng Otieno', token: expect.any(String) });
    expect(stored.userEmail).toMatch(/^achieng-/);

    await nav.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${baseURL}/`);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expect.poll(() => nav.getByRole('link', { name: 'Login' }).isVisible()).toBe(true);
    await context.close();
  });

  it('guards routes: no token → /login; a customer on /ops → /', async () => {
    const { context, page } = await newPage(browser, baseURL);
    await page.goto('/ops');
    await page.waitForURL('**/login');
    await page.goto('/fuel');
    await page.waitForURL('**/login');

    await page.goto('/register');
    await page.getByLabel('Name').fill('Guard Test');
    await page.getByLabel('Email').fill(`guard-${Date.now()}@example.co.ke`);
    await page.getByLabel('Password', { exact: true }).fill('guard-pass-1');
    await page.getByLabel('Confirm password').fill('guard-pass-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/order');
    await page.goto('/ops');
    await page.waitForURL(`${baseURL}/`);
    await page.goto('/driver');
    await page.waitForURL(`${baseURL}/`);
    await context.close();
  });

  it('a revoked token ends the session on the next call and sends the user to /login', async () => {
    const { context, page } = await newPage(browser, baseURL);
    const email = `revoked-${Date.now()}@example.co.ke`;
    await page.goto('/register');
    await page.getByLabel('Name').fill('Wanjiru Kamau');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('revoke-pass-1');
    await page.getByLabel('Confirm password').fill('revoke-pass-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/order');

    // A wrong password typed while signed in is about those credentials: the stored session stays.
    await signInThroughForm(page, email, 'not-my-password');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid email or password.');
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toEqual(expect.any(String));

    // Signing out everywhere (e.g. from another device) revokes this browser's token.
    await api(baseURL, 'POST', '/api/auth/logout-all', {}, token!);
    await page.goto('/customer');
    await page.waitForURL('**/login');
    await expect
      .poll(() => page.getByText('Your session has expired. Please sign in again.').isVisible())
      .toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect.poll(() => nav.getByRole('link', { name: 'Login' }).isVisible()).toBe(true);
    await context.close();
  });

  it('wrong credentials show the spec message; the header works on a 390 px phone', async () => {
    const { context, page } = await newPage(browser, baseURL, PHONE);
    await signInThroughForm(page, 'nobody@example.co.ke', 'wrong-password');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Invalid email or password.');
    await openMenuIfCollapsed(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Articles' }).click();
    await page.waitForURL('**/articles');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Daily logistics briefings' }).isVisible())
      .toBe(true);
    // The empty feed's message, unless a briefing was published on this app already (the shared app of
    // this worker may have run e2e/intelligence.e2e.ts first): then the feed shows it.
    const published = await api<unknown[]>(baseURL, 'GET', '/api/articles?limit=1');
    await expect
      .poll(() =>
        published.length === 0
          ? page
              .getByText(
                'No articles generated yet. Trigger a manual run from the admin dashboard to populate this feed.',
              )
              .isVisible()
          : page.locator('.article-card').first().isVisible(),
      )
      .toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await context.close();
  });
});
