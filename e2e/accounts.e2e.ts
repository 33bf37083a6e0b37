import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney } from '../shared/domain/format';
import { ACCOUNT_MESSAGES } from '../shared/schemas/accounts';
import { c2b } from '../test/fixtures/daraja';
import { api, launchBrowser, newPage, scrollIntoView, storeSession } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';

// Issue 24 in the browser, on 360 px phones: ADMIN gives a contractor credit terms, ops scheduling a load
// past the limit are refused with the limit and the balance in view, the contractor sees the balance and
// how to pay (paybill + MCA<id>) on My Orders and downloads the statement as a PDF and a CSV. The app has
// a paybill (MPESA_SHORTCODE) so My Orders quotes it, and M-Pesa's confirmation pays the account.
//
// ADMIN sets the terms in the Finance tab's Credit terms form (under the receivables list).
// Loads are scheduled by ADMIN in the Orders tab (the OPS role has no Orders tab nor assignment rights).

const PHONE_360 = { width: 360, height: 740 };
const PAYBILL = '600984';
const CALLBACK_SECRET = 'e2e-accounts-callback-0123456789';

let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  app = await startApp(() => ({ MPESA_SHORTCODE: PAYBILL, MPESA_CALLBACK_SECRET: CALLBACK_SECRET }));
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-']).toString('utf8');
const fits360 = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

interface Session {
  token: string;
  user: { id: number; role: string; name: string; email: string };
}

interface Account {
  creditLimit: number;
  termsDays: number;
  balance: number;
  overdue: number;
  available: number;
  accountRef: string;
}

describe('contractor accounts in the browser', () => {
  it('terms set, a load over the limit refused in Orders, the contractor pays by MCA<id> and downloads the statement at 360 px', async () => {
    const baseURL = app.baseURL;
    const suffix = Date.now().toString(36).slice(-5).toUpperCase();
    const admin = await api<Session>(baseURL, 'POST', '/api/auth/login', {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    const asAdmin = <T>(method: string, path: string, body?: unknown) =>
      api<T>(baseURL, method, path, body, admin.token);
    const truck = { id: `AC-T-${suffix}`, plate: `KDK ${suffix.slice(0, 3)}A` };
    const driver = { id: `AC-D-${suffix}`, name: 'Mwangi Kiplagat' };
    await asAdmin('POST', '/api/admin/drivers', { ...driver, phone: '0722 100 200' });
    await asAdmin('POST', '/api/admin/trucks', { ...truck, capacityT: 20, primaryDriverId: driver.id });

    const contractor = await api<Session>(baseURL, 'POST', '/api/auth/register', {
      name: 'Karibu Heights Developers',
      email: `accounts-${suffix.toLowerCase()}@karibu-heights.co.ke`,
      phone: '0733 444 555',
      password: 'contractor-pass-1',
    });
    const site = `Karibu Heights block C, Kitengela (${suffix})`;
    const order = await api<{ id: number; perTruck: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site, sandType: 'coarse', trucks: 3, distanceKm: 14 },
      contractor.token,
    );
    const load = order.perTruck;

    // ADMIN: room for one load and a half, 30 days to pay.
    const limit = Math.round(load * 1.5);
    const accountRef = `MCA${contractor.user.id}`;
    const billingEmail = `finance-${suffix.toLowerCase()}@karibu-heights.co.ke`;
    // ADMIN sets the terms on a phone, in the Finance tab's Credit terms form under the receivables.
    {
      const { context, page } = await newPage(browser, baseURL, PHONE_360);
      await page.goto('/');
      await storeSession(page, admin.token, admin.user);
      await page.goto('/ops');
      await page.getByRole('tab', { name: 'Finance', exact: true }).click();
      const form = page.getByRole('form', { name: 'Credit terms' });
      await expect.poll(() => form.isVisible(), { timeout: 30_000 }).toBe(true);
      const status = form.locator('.form-status');
      // A staff account is no customer: the server's refusal is shown, in view and focused.
      await form.getByLabel('Customer id').fill(String(admin.user.id));
      await form.getByLabel('Credit limit (KES)').fill(String(limit));
      await form.getByLabel('Terms (days)').fill('30');
      await form.getByRole('button', { name: 'Save terms' }).click();
      await expect
        .poll(() => status.getByText(ACCOUNT_MESSAGES.notACustomer).isVisible(), { timeout: 15_000 })
        .toBe(true);
      expect(await status.evaluate((el) => el === document.activeElement)).toBe(true);
      // ADMIN finds the contractor by part of its name; picking it fills the id and loads the account.
      await form.getByLabel('Find a customer').fill('karibu heights');
      await form.getByRole('button', { name: 'Find', exact: true }).click();
      const match = form.getByRole('button', {
        name: new RegExp(`Karibu Heights Developers .* ${accountRef}$`),
      });
      await expect.poll(() => match.isVisible(), { timeout: 15_000 }).toBe(true);
      await page.screenshot({ path: '/tmp/accounts-find-customer-360.png' });
      await match.click();
      expect(await form.getByLabel('Customer id').inputValue()).toBe(String(contractor.user.id));
      // The contractor has no account yet: loading it says so and leaves the fields empty.
      await expect
        .poll(
          () => status.getByText('This customer has no account on terms yet', { exact: false }).isVisible(),
          {
            timeout: 15_000,
          },
        )
        .toBe(true);
      expect(await form.getByLabel('Credit limit (KES)').inputValue()).toBe('');
      await form.getByLabel('Credit limit (KES)').fill(String(limit));
      await form.getByLabel('Terms (days)').fill('30');
      await form.getByLabel('KRA PIN').fill('P051987654Z');
      await form.getByLabel('Billing e-mail').fill(billingEmail);
      await form.getByLabel('Billing phone').fill('0733 444 556');
      await form.getByRole('button', { name: 'Save terms' }).click();
      const saved = `Terms saved. Karibu Heights Developers · account ${accountRef}: balance ${formatMoney(0)}, available ${formatMoney(limit)}.`;
      await expect.poll(() => status.getByText(saved).isVisible(), { timeout: 15_000 }).toBe(true);
      expect(await status.evaluate((el) => el === document.activeElement)).toBe(true);
      await fits360(page);
      await page.screenshot({ path: '/tmp/acct-form-saved.png' });
      // The receivables list above refreshes with the new account.
      const row = page.getByRole('listitem').filter({ hasText: `Karibu Heights Developers · ${accountRef}` });
      await expect.poll(() => row.first().isVisible(), { timeout: 15_000 }).toBe(true);
      // Loading it again brings back what was saved.
      await page.reload();
      await page.getByRole('tab', { name: 'Finance', exact: true }).click();
      await expect.poll(() => form.isVisible(), { timeout: 30_000 }).toBe(true);
      await form.getByLabel('Customer id').fill(String(contractor.user.id));
      await form.getByRole('button', { name: 'Load account' }).click();
      await expect
        .poll(() => form.getByLabel('Credit limit (KES)').inputValue(), { timeout: 15_000 })
        .toBe(String(limit));
      expect(await form.getByLabel('KRA PIN').inputValue()).toBe('P051987654Z');
      expect(await form.getByLabel('Billing e-mail').inputValue()).toBe(billingEmail);
      await context.close();
    }
    expect(await asAdmin<Account>('GET', `/api/admin/customers/${contractor.user.id}/account`)).toMatchObject(
      {
        creditLimit: limit,
        termsDays: 30,
        balance: 0,
        available: limit,
        accountRef,
      },
    );

    // The first load goes on the account without payment (no confirmUnpaid) and is delivered: an invoice.
    const first = await asAdmin<{ id: number }>('POST', `/api/admin/orders/${order.id}/assignments`, {
      truckId: truck.id,
      driverId: driver.id,
      tonnes: 20,
    });
    await asAdmin('PATCH', `/api/admin/assignments/${first.id}`, {
      status: 'DELIVERED',
      reason: 'Delivery note signed on paper at the gate',
    });
    const account = () => asAdmin<Account>('GET', `/api/admin/customers/${contractor.user.id}/account`);
    await expect.poll(async () => (await account()).balance, { timeout: 30_000 }).toBe(load);

    // Dispatch, on a phone, tries the second load: past the limit, refused with the limit and the balance
    // named. Scheduling is ADMIN's (the OPS role has only stock, costs and fleet: spec section 2).
    {
      const { context, page } = await newPage(browser, baseURL, PHONE_360);
      await page.goto('/');
      await storeSession(page, admin.token, admin.user);
      await page.goto('/ops');
      await page.getByRole('tab', { name: 'Orders', exact: true }).click();
      const card = page.getByRole('listitem').filter({ hasText: site }).first();
      await expect.poll(() => card.isVisible(), { timeout: 30_000 }).toBe(true);
      await card.getByRole('button', { name: 'Assign truck' }).click();
      const sheet = page.getByRole('dialog', { name: `Assign truck · order #${order.id}` });
      await sheet.getByLabel('Truck').selectOption(truck.id);
      await sheet.getByLabel('Driver').selectOption(driver.id);
      await sheet.getByRole('button', { name: 'Schedule load' }).click();
      const refusal = ACCOUNT_MESSAGES.overLimit(limit, load, 0, load);
      expect(refusal).toContain(`the limit is ${formatMoney(limit)}, the balance ${formatMoney(load)}`);
      await expect.poll(() => sheet.getByText(refusal).isVisible(), { timeout: 15_000 }).toBe(true);
      await scrollIntoView(sheet.getByText(refusal));
      await fits360(page);
      await page.screenshot({ path: '/tmp/acct-e2e-ops-refused.png' });
      await context.close();
    }
    // Nothing was scheduled: the order still has one load.
    const loads = await asAdmin<unknown[]>('GET', `/api/admin/orders/${order.id}/assignments`);
    expect(loads).toHaveLength(1);

    // The contractor pays part at the paybill with the account's own number.
    const paid = 5_000.5;
    await api(
      baseURL,
      'POST',
      `/api/payments/mpesa/c2b/confirmation/${CALLBACK_SECRET}`,
      c2b({ account: accountRef, amountKes: paid }),
    );
    const closing = Math.round((load - paid) * 100) / 100;
    await expect.poll(async () => (await account()).balance, { timeout: 30_000 }).toBe(closing);

    // My Orders: the balance, what is left on credit, how to pay, and the statement.
    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await page.goto('/');
    await storeSession(page, contractor.token, contractor.user);
    await page.goto('/customer');
    const box = page.getByRole('region', { name: 'Your account' });
    await expect.poll(() => box.isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => box.getByText(formatMoney(closing), { exact: true }).isVisible()).toBe(true);
    await expect
      .poll(() => box.getByText(formatMoney(Math.round((limit - closing) * 100) / 100)).isVisible())
      .toBe(true);
    await expect
      .poll(() =>
        box
          .getByText(
            `M-Pesa paybill ${PAYBILL}, account number ${accountRef} (or any bank paybill with the same account number)`,
          )
          .isVisible(),
      )
      .toBe(true);
    // Nothing is past due yet (the one invoice is due in 30 days): no overdue warning.
    expect(await box.getByText('Overdue now:').count()).toBe(0);
    await fits360(page);
    await scrollIntoView(box);
    await page.screenshot({ path: '/tmp/acct-e2e-my-orders.png' });

    const save = async (name: string) => {
      const button = box.getByRole('button', { name });
      await scrollIntoView(button);
      const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
      return { name: file.suggestedFilename(), path: (await file.path())! };
    };
    const pdf = await save('Statement (PDF, last 90 days)');
    expect(pdf.name).toMatch(/^statement-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.pdf$/);
    const text = pdfText(pdf.path);
    expect(text).toContain(accountRef);
    expect(text).toContain(`Closing balance: ${formatMoney(closing)}`);
    expect(text).toContain(formatMoney(paid));

    const csv = await save('Statement (CSV)');
    expect(csv.name).toMatch(/\.csv$/);
    const rows = readFileSync(csv.path, 'utf8')
      .replace(/^\ufeff/, '')
      .trim()
      .split(/\r?\n/);
    const last = rows.at(-1)!.split(',');
    expect(last[1]).toBe('Closing balance');
    expect(Number(last.at(-1))).toBe(closing);
    await context.close();

    // ADMIN's receivables view (Finance tab) lists the account with the same balance.
    {
      const { context: c, page: p } = await newPage(browser, baseURL, PHONE_360);
      await p.goto('/');
      await storeSession(p, admin.token, admin.user);
      await p.goto('/ops');
      await p.getByRole('tab', { name: 'Finance', exact: true }).click();
      const row = p.getByRole('listitem').filter({ hasText: `Karibu Heights Developers · ${accountRef}` });
      await expect.poll(() => row.first().isVisible(), { timeout: 30_000 }).toBe(true);
      await expect.poll(() => row.first().getByText(formatMoney(closing)).first().isVisible()).toBe(true);
      await scrollIntoView(row.first());
      await fits360(p);
      await p.screenshot({ path: '/tmp/acct-e2e-receivables.png' });
      await c.close();
    }
  }, 180_000);
});
