import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, launchBrowser, newPage, openMenuIfCollapsed, PHONE } from './support/browser';

const baseURL = inject('baseURL');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('customer journey', () => {
  it('a guest on a phone orders 2 trucks with a portal login, sees the summary with banks, opens My Orders', async () => {
    const { context, page } = await newPage(browser, baseURL, PHONE);
    await page.goto('/');
    await expect.poll(() => page.getByText('KES 32,000').first().isVisible()).toBe(true);
    await page.getByLabel('Delivery site').fill('Membley estate, Ruiru');
    await page.getByLabel('Trucks (20 t each)').selectOption('2');
    await expect.poll(() => page.getByText('KES 64,000').isVisible()).toBe(true);
    expect(await page.getByText('name heuristic').isVisible()).toBe(true);

    await page.getByLabel('Your name').fill('Njoroge Construction');
    await page.getByLabel('Phone').fill('0711000222');
    await page.getByLabel('Date needed').fill('2026-12-15');
    await page.getByLabel('Create a portal login to track this order').check();
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Email is required to create your portal login.');

    const email = `njoroge-${Date.now()}@example.co.ke`;
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Portal password', { exact: true }).fill('jenga-pass-1');
    await page.getByLabel('Confirm portal password').fill('jenga-pass-2');
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Passwords do not match.');
    await page.getByLabel('Confirm portal password').fill('jenga-pass-1');
    await page.getByRole('button', { name: 'Place order' }).click();

    await expect
      .poll(() => page.getByRole('heading', { name: /Order #\d+ received/ }).isVisible())
      .toBe(true);
    for (const bank of ['ABSA', 'Equity', 'KCB', 'NCBA', 'Cooperative']) {
      expect(await page.getByText(bank, { exact: true }).isVisible(), bank).toBe(true);
    }
    expect(await page.getByText('303030').isVisible()).toBe(true);
    expect(await page.getByText(/Your portal login is ready/).isVisible()).toBe(true);
    expect(await page.getByText('KES 64,000').isVisible()).toBe(true);
    await page.screenshot({ path: '/tmp/mchanga-guest-summary.png', fullPage: true });
    await page.getByRole('button', { name: 'Place another order' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Get a quote and order' }).isVisible())
      .toBe(true);
    expect(await page.getByLabel('Delivery site').inputValue()).toBe('');

    await openMenuIfCollapsed(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Orders' }).click();
    await page.waitForURL('**/customer');
    await expect.poll(() => page.getByRole('heading', { name: /Order #\d+/ }).count()).toBe(1);
    expect(await page.getByText('Awaiting Payment').isVisible()).toBe(true);
    expect(await page.getByText('Membley estate, Ruiru').isVisible()).toBe(true);

    await page.goto('/');
    await context.close();
  });

  it('a signed-in customer orders through /order and submits a payment reference', async () => {
    const email = `portal-${Date.now()}@example.co.ke`;
    const reg = await api<{ token: string; user: { role: string; name: string; email: string } }>(
      baseURL,
      'POST',
      '/api/auth/register',
      { name: 'Faith Wambui', email, phone: '0700111222', password: 'portal-pass-1' },
    );
    const { context, page } = await newPage(browser, baseURL, PHONE);
    await page.goto('/');
    await page.evaluate(
      ([token, user]) => {
        localStorage.setItem('token', token as string);
        const u = user as { role: string; name: string; email: string };
        localStorage.setItem('role', u.role);
        localStorage.setItem('userName', u.name);
        localStorage.setItem('userEmail', u.email);
      },
      [reg.token, reg.user] as const,
    );
    await page.goto('/order');
    expect(await page.getByRole('button', { name: 'Send payment confirmation' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Site is required.');

    await page.getByLabel('Delivery site').fill('Kamakis, Ruiru');
    await page.getByLabel('Sand type').selectOption('smooth');
    await page.getByLabel('Trucks (20 t each)').selectOption('3');
    await page.getByLabel('Distance (km, optional)').fill('18');
    await expect.poll(() => page.getByText('KES 99,000').isVisible()).toBe(true);
    expect(await page.getByText('manual distance').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => page.getByText(/^#\d+$/).isVisible()).toBe(true);

    const send = page.getByRole('button', { name: 'Send payment confirmation' });
    expect(await send.isEnabled()).toBe(true);
    await send.click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Payment reference is required.');
    await page.getByLabel('Paid through').selectOption('Equity');
    await page.getByLabel('Payment reference').fill('QJK4XYZ123');
    await send.click();
    await expect.poll(() => page.getByText(/Order status: Awaiting Payment Review/).isVisible()).toBe(true);

    await page.goto('/customer');
    await expect.poll(() => page.getByText('Awaiting Payment Review').isVisible()).toBe(true);
    expect(await page.getByText('SUBMITTED').isVisible()).toBe(true);
    await context.close();
  });
});
