import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeDaraja } from '../test/fake-daraja';
import { c2b } from '../test/fixtures/daraja';
import {
  api,
  launchBrowser,
  newPage,
  scrollIntoView,
  signInThroughForm,
  storeSession,
} from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';

const PHONE_360 = { width: 360, height: 740 };
const KEYS = {
  consumerKey: 'e2e-consumer-key',
  consumerSecret: 'e2e-consumer-secret',
  shortcode: '174379',
  passkey: 'e2e-passkey-bfb279f9aa9bdbcf158e97dd71a467cd',
};
const CALLBACK_SECRET = 'e2e-callback-secret-0123456789';

// This file's app talks to a fake Daraja, so it runs its own app (the shared one has no M-Pesa keys).
const daraja = fakeDaraja(KEYS);
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  const darajaURL = await daraja.start();
  app = await startApp((baseURL) => ({
    PUBLIC_URL: baseURL,
    MPESA_BASE_URL: darajaURL,
    MPESA_CONSUMER_KEY: KEYS.consumerKey,
    MPESA_CONSUMER_SECRET: KEYS.consumerSecret,
    MPESA_SHORTCODE: KEYS.shortcode,
    MPESA_PASSKEY: KEYS.passkey,
    MPESA_CALLBACK_SECRET: CALLBACK_SECRET,
  }));
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await daraja.stop();
});

describe('M-Pesa STK push in the browser', () => {
  it('a customer on a 360 px phone pays by the M-Pesa prompt and the order moves to RECEIVED by itself', async () => {
    const baseURL = app.baseURL;
    const email = `stk-${Date.now()}@example.co.ke`;
    const reg = await api<{ token: string; user: { role: string; name: string; email: string } }>(
      baseURL,
      'POST',
      '/api/auth/register',
      { name: 'Wanjiru Kamau', email, phone: '0722111333', password: 'stk-pass-123' },
    );
    const order = await api<{ id: number; accountRef: string; total: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: 'Witeithie, Juja', sandType: 'coarse', trucks: 1, distanceKm: 12 },
      reg.token,
    );
    expect(order.accountRef).toBe(`MCH${order.id}`);

    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await page.goto('/');
    await storeSession(page, reg.token, reg.user);
    await page.goto('/customer');
    const card = page.getByRole('article', { name: new RegExp(`^Order #${order.id} `) });
    const stk = card.getByRole('region', { name: 'Pay with M-Pesa on your phone' });
    await expect.poll(() => stk.isVisible()).toBe(true);
    await expect.poll(() => stk.getByText(`MCH${order.id}`).isVisible()).toBe(true);

    // A wrong phone number is caught on the screen (the shared schema), before any prompt goes out.
    await stk.getByLabel('M-Pesa phone number').fill('0812');
    await stk.getByRole('button', { name: /^Send payment prompt/ }).click();
    await expect
      .poll(() => stk.getByText('Enter the M-Pesa phone number, like 0712 345 678.').isVisible())
      .toBe(true);
    expect(daraja.counts.push).toBe(0);

    // The customer takes a moment to enter the PIN: the screen says what to do meanwhile.
    daraja.next({ result: 0, delayMs: 2_500 });
    await stk.getByLabel('M-Pesa phone number').fill('0712 345 678');
    await stk.getByRole('button', { name: /^Send payment prompt/ }).click();
    await expect
      .poll(() => stk.getByRole('status').getByText('Check your phone and enter your M-Pesa PIN').isVisible())
      .toBe(true);
    expect(daraja.pushes).toHaveLength(1);
    const push = daraja.pushes[0]!;
    expect(push.body.PhoneNumber).toBe('254712345678');
    expect(push.body.AccountReference).toBe(`MCH${order.id}`);
    expect(push.body.Amount).toBe(order.total);
    expect(push.body.CallBackURL).toBe(`${baseURL}/api/payments/mpesa/stk/${CALLBACK_SECRET}`);

    // The fake delivers the callback; the order confirms itself without anyone in operations.
    await expect
      .poll(
        () => card.getByRole('heading', { name: new RegExp(`^Order #${order.id} Received`) }).isVisible(),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);
    const payments = card.getByRole('list', { name: `Payments of order #${order.id}` });
    await expect.poll(() => payments.getByText(push.receipt!).isVisible()).toBe(true);
    await expect.poll(() => payments.getByText('M-Pesa', { exact: true }).isVisible()).toBe(true);
    const mine = await api<Array<{ id: number; status: string; paid: number; balance: number }>>(
      baseURL,
      'GET',
      '/api/orders/my',
      undefined,
      reg.token,
    );
    const row = mine.find((o) => o.id === order.id)!;
    expect(row.status).toBe('RECEIVED');
    expect(row.paid).toBe(order.total);
    expect(row.balance).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: '/tmp/mchanga-mpesa-stk-paid.png', fullPage: true });
    await context.close();
  }, 90_000);

  it('a cancelled prompt and a wrong PIN each say what happened on a 360 px phone, and the customer tries again', async () => {
    const baseURL = app.baseURL;
    const email = `stk-fail-${Date.now()}@example.co.ke`;
    const reg = await api<{ token: string; user: { role: string; name: string; email: string } }>(
      baseURL,
      'POST',
      '/api/auth/register',
      { name: 'Achieng Odhiambo', email, phone: '0711222444', password: 'stk-fail-123' },
    );
    const order = await api<{ id: number; total: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: 'Ruiru Bypass', sandType: 'smooth', trucks: 1, distanceKm: 15 },
      reg.token,
    );
    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await page.goto('/');
    await storeSession(page, reg.token, reg.user);
    await page.goto('/customer');
    const card = page.getByRole('article', { name: new RegExp(`^Order #${order.id} `) });
    const stk = card.getByRole('region', { name: 'Pay with M-Pesa on your phone' });
    await expect.poll(() => stk.isVisible()).toBe(true);
    const pushesBefore = daraja.pushes.length;
    // The customer's words for Daraja's result codes (shared/domain/mpesa.ts STK_RESULTS).
    const cancelled = 'You cancelled the M-Pesa prompt. Send it again when you are ready to pay.';
    const wrongPin = 'The M-Pesa PIN was wrong. Send the prompt again and enter your PIN carefully.';

    // The customer presses Cancel on the phone's prompt (Daraja's result 1032).
    daraja.next({ result: 1032, delayMs: 300 });
    await stk.getByLabel('M-Pesa phone number').fill('0712 345 678');
    await stk.getByRole('button', { name: /^Send payment prompt/ }).click();
    await expect
      .poll(() => stk.getByRole('alert').filter({ hasText: cancelled }).isVisible(), { timeout: 30_000 })
      .toBe(true);
    expect(await stk.getByRole('status').count()).toBe(0);
    const again = stk.getByRole('button', { name: 'Send the prompt again' });
    expect(await again.isEnabled()).toBe(true);
    expect(await stk.getByLabel('M-Pesa phone number').inputValue()).toBe('0712 345 678');

    // They try again and mistype the PIN (2001): the new result replaces the old message.
    daraja.next({ result: 2001, delayMs: 300 });
    await again.click();
    await expect
      .poll(() => stk.getByRole('alert').filter({ hasText: wrongPin }).isVisible(), { timeout: 30_000 })
      .toBe(true);
    expect(await stk.getByText(cancelled).count()).toBe(0);
    expect(await again.isEnabled()).toBe(true);
    expect(daraja.pushes.length - pushesBefore).toBe(2);
    // Neither failure moved money: the order still waits for its payment.
    const mine = () =>
      api<Array<{ id: number; status: string; paid: number; balance: number }>>(
        baseURL,
        'GET',
        '/api/orders/my',
        undefined,
        reg.token,
      );
    expect((await mine()).find((o) => o.id === order.id)).toMatchObject({
      status: 'AWAITING_PAYMENT',
      paid: 0,
      balance: order.total,
    });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await scrollIntoView(stk);
    await page.screenshot({ path: '/tmp/mpesa-fail.png' });

    // The third try goes through.
    daraja.next({ result: 0, delayMs: 300 });
    await again.click();
    await expect
      .poll(
        () => card.getByRole('heading', { name: new RegExp(`^Order #${order.id} Received`) }).isVisible(),
        { timeout: 30_000 },
      )
      .toBe(true);
    expect(daraja.pushes.length - pushesBefore).toBe(3);
    expect((await mine()).find((o) => o.id === order.id)).toMatchObject({
      status: 'RECEIVED',
      paid: order.total,
      balance: 0,
    });
    await context.close();
  }, 90_000);

  it('operations match an unmatched paybill payment by hand on a 360 px phone, with who and when', async () => {
    const baseURL = app.baseURL;
    const reg = await api<{ token: string }>(baseURL, 'POST', '/api/auth/register', {
      name: 'Otieno Builders',
      email: `c2b-${Date.now()}@example.co.ke`,
      phone: '0733444555',
      password: 'c2b-pass-123',
    });
    const order = await api<{ id: number; total: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: 'Kitengela', sandType: 'smooth', trucks: 1, distanceKm: 20 },
      reg.token,
    );
    // The payer typed an account number that is no order's.
    const payment = c2b({ account: 'MCH 9999x', amountKes: order.total });
    const answer = await api<{ ResultCode: number }>(
      baseURL,
      'POST',
      `/api/payments/mpesa/c2b/confirmation/${CALLBACK_SECRET}`,
      payment,
    );
    expect(answer.ResultCode).toBe(0);

    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await signInThroughForm(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL('**/ops');
    await page.getByRole('tab', { name: 'Orders', exact: true }).click();
    const unmatched = page.getByRole('list', { name: 'Unmatched M-Pesa payments' });
    await expect
      .poll(() => unmatched.getByText(payment.TransID, { exact: true }).isVisible(), { timeout: 30_000 })
      .toBe(true);
    await unmatched.getByLabel(`Order number for ${payment.TransID}`).fill(String(order.id));
    await unmatched.getByRole('button', { name: 'Match' }).click();
    await expect
      .poll(() => page.getByText(new RegExp(`Payment matched to MCH${order.id} .* by `)).isVisible())
      .toBe(true);
    await expect.poll(() => unmatched.getByText(payment.TransID, { exact: true }).count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: '/tmp/mchanga-mpesa-unmatched.png', fullPage: true });
    // The match settles the order as a callback does (after the answer, through the outbox).
    const mine = () =>
      api<Array<{ id: number; status: string; paid: number }>>(
        baseURL,
        'GET',
        '/api/orders/my',
        undefined,
        reg.token,
      );
    await expect
      .poll(async () => (await mine()).find((o) => o.id === order.id), { timeout: 30_000 })
      .toMatchObject({ status: 'RECEIVED', paid: order.total });
    await context.close();
  }, 90_000);
});
