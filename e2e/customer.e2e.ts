import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, launchBrowser, newPage, openMenuIfCollapsed, PHONE, storeSession } from './support/browser';
import { sharedAppURL } from './support/shared-app';

const PHONE_360 = { width: 360, height: 740 };

const baseURL = sharedAppURL();
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
    await expect.poll(() => page.getByText('name heuristic').isVisible()).toBe(true);

    await page.getByLabel('Your name').fill('Njoroge Construction');
    await page.getByLabel('Phone').fill('0711000222');
    await page.getByLabel('Date needed').fill('2026-12-15');
    await page.getByLabel('Request an overnight pour (delivery outside 06:00–18:00)').check();
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
    await expect.poll(() => page.getByText('303030').isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/Your portal login is ready/).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('KES 64,000').isVisible()).toBe(true);
    // The overnight-pour request went with the order.
    const guestToken = await page.evaluate(() => localStorage.getItem('token'));
    const guestOrders = await api<{ overnight_pour: boolean }[]>(
      baseURL,
      'GET',
      '/api/orders/my',
      undefined,
      guestToken!,
    );
    expect(guestOrders.map((o) => o.overnight_pour)).toEqual([true]);
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
    await expect.poll(() => page.getByText('Awaiting Payment').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('Membley estate, Ruiru').isVisible()).toBe(true);

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
    await storeSession(page, reg.token, reg.user);
    await page.goto('/order');
    expect(await page.getByRole('button', { name: 'Send payment confirmation' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Site is required.');

    await page.getByLabel('Delivery site').fill('Kamakis, Ruiru');
    await page.getByLabel('Sand type').selectOption('smooth');
    await page.getByLabel('Trucks (20 t each)').selectOption('3');
    await page.getByLabel('Distance (km, optional)').fill('18');
    await expect.poll(() => page.getByText('KES 99,000').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('manual distance').isVisible()).toBe(true);
    await page.getByLabel('Request an overnight pour (delivery outside 06:00–18:00)').check();
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect.poll(() => page.getByText(/^#\d+$/).isVisible()).toBe(true);
    const mine = await api<{ overnight_pour: boolean }[]>(
      baseURL,
      'GET',
      '/api/orders/my',
      undefined,
      reg.token,
    );
    expect(mine.map((o) => o.overnight_pour)).toEqual([true]);

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
    // The order's payment status badge, and the payment itself in the order's payments list.
    await expect
      .poll(() => page.getByRole('definition').getByText('Submitted', { exact: true }).isVisible())
      .toBe(true);
    const payments = page.getByRole('list', { name: /^Payments of order #\d+$/ });
    await expect.poll(() => payments.getByText('QJK4XYZ123').isVisible()).toBe(true);
    await expect.poll(() => payments.getByText('Submitted', { exact: true }).isVisible()).toBe(true);
    await context.close();
  });

  it('My Orders closes the payment loop on a phone, and /order step 3 picks up the unpaid order after a reload', async () => {
    const email = `loop-${Date.now()}@example.co.ke`;
    const reg = await api<{ token: string; user: { role: string; name: string; email: string } }>(
      baseURL,
      'POST',
      '/api/auth/register',
      { name: 'Baraka Mwangi', email, phone: '0700333444', password: 'loop-pass-12' },
    );
    const order = await api<{ id: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: 'Witeithie, Juja', sandType: 'coarse', trucks: 2, distanceKm: 12 },
      reg.token,
    );
    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await page.goto('/');
    await storeSession(page, reg.token, reg.user);

    // A fresh load of /order (no order placed in this visit) takes up the order that waits for payment.
    await page.goto('/order');
    await expect
      .poll(() => page.getByText(`Your order #${order.id} is waiting for its payment.`).isVisible())
      .toBe(true);
    expect(await page.getByRole('button', { name: 'Send payment confirmation' }).isEnabled()).toBe(true);

    await page.goto('/customer');
    const card = page.getByRole('article', { name: new RegExp(`^Order #${order.id} `) });
    await expect
      .poll(() => card.getByRole('heading', { name: `Pay for order #${order.id}` }).isVisible())
      .toBe(true);
    // The payment options: M-Pesa Pay Bill to a bank paybill, with the account to quote.
    await expect.poll(() => card.getByText(/Lipa na M-Pesa/).isVisible()).toBe(true);
    for (const bank of ['ABSA', 'Equity', 'KCB', 'NCBA', 'Cooperative']) {
      expect(await card.locator('.bank-list').getByText(bank, { exact: true }).isVisible(), bank).toBe(true);
    }
    await expect.poll(() => card.getByText('247247').isVisible()).toBe(true);
    expect(
      await card
        .locator('.bank')
        .first()
        .getByText(/^Account /)
        .isVisible(),
    ).toBe(true);

    // The rules of order step 3: the reference is required.
    const send = card.getByRole('button', { name: 'Send payment confirmation' });
    await send.click();
    await expect.poll(() => card.getByRole('alert').textContent()).toBe('Payment reference is required.');
    await card.getByLabel('Paid through').selectOption('M-Pesa paybill');
    await card.getByLabel('Payment reference').fill('RKL8MNB2QZ');
    await card.getByLabel('Message (optional)').fill('Paid from the site account');
    await send.click();
    await expect
      .poll(() =>
        card.getByText('Payment confirmation received. Order status: Awaiting Payment Review.').isVisible(),
      )
      .toBe(true);
    // The row itself shows the new status, and the form is gone.
    await expect
      .poll(() => card.getByRole('heading', { name: /Order #\d+ Awaiting Payment Review/ }).isVisible())
      .toBe(true);
    // The payment status badge in the order's facts, and the payment in its payments list.
    await expect
      .poll(() => card.getByRole('definition').getByText('Submitted', { exact: true }).isVisible())
      .toBe(true);
    const cardPayments = card.getByRole('list', { name: /^Payments of order #\d+$/ });
    await expect.poll(() => cardPayments.getByText('RKL8MNB2QZ').isVisible()).toBe(true);
    await expect.poll(() => cardPayments.getByText('Submitted', { exact: true }).isVisible()).toBe(true);
    expect(await card.getByRole('button', { name: 'Send payment confirmation' }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // Nothing waits for a payment any more: /order starts a new order.
    await page.goto('/order');
    await page.waitForLoadState('networkidle');
    expect(await page.getByText(/is waiting for its payment/).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Send payment confirmation' }).isDisabled()).toBe(true);
    await context.close();
  });
});
