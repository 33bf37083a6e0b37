import { execFileSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeKra } from '../test/fake-kra';
import { c2b } from '../test/fixtures/daraja';
import { api, launchBrowser, newPage, scrollIntoView, storeSession } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';

// Issue 23 in the browser: a paid order's KRA eTIMS tax invoice, downloaded on a 360 px phone from My
// Orders and from the tracking page, read back with poppler's pdftotext. The app talks to the fake KRA.

const PHONE_360 = { width: 360, height: 740 };
const CALLBACK_SECRET = 'e2e-callback-secret-0123456789';
const TIN = 'P051234567X';
const KRA = {
  consumerKey: 'e2e-kra-key',
  consumerSecret: 'e2e-kra-secret',
  tin: TIN,
  bhfId: '00',
  deviceSerial: 'E2E-DVC-1',
};

const kra = fakeKra(KRA);
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  const urls = await kra.start();
  app = await startApp(() => ({
    MPESA_CALLBACK_SECRET: CALLBACK_SECRET,
    ETIMS_BASE_URL: urls.baseUrl,
    ETIMS_TOKEN_URL: urls.tokenUrl,
    ETIMS_CONSUMER_KEY: KRA.consumerKey,
    ETIMS_CONSUMER_SECRET: KRA.consumerSecret,
    ETIMS_TIN: TIN,
    ETIMS_BHF_ID: '00',
    ETIMS_DEVICE_SERIAL: KRA.deviceSerial,
    ETIMS_VAT_REGISTERED: 'true',
  }));
  browser = await launchBrowser();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await kra.stop();
});

const pdfText = (path: string) => execFileSync('pdftotext', ['-layout', path, '-']).toString('utf8');

interface Listed {
  id: number;
  trackingUrl: string;
  receiptUrl: string | null;
  etimsStatus: string | null;
}

/** Clicks a download link and answers the saved file's text and its suggested name. */
async function download(page: Page, name: string) {
  const link = page.getByRole('link', { name }).first();
  await scrollIntoView(link);
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { name: file.suggestedFilename(), text: pdfText((await file.path())!) };
}

describe('the receipt in the browser', () => {
  it('a paid order’s tax invoice downloads from My Orders and the tracking page at 360 px, signed by KRA', async () => {
    const baseURL = app.baseURL;
    const reg = await api<{ token: string; user: { role: string; name: string; email: string } }>(
      baseURL,
      'POST',
      '/api/auth/register',
      {
        name: 'Njeri Wambui',
        email: `receipt-${Date.now()}@example.co.ke`,
        phone: '0722333444',
        password: 'receipt-pass-1',
      },
    );
    const order = await api<{ id: number; total: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: 'Kamakis, Ruiru', sandType: 'coarse', trucks: 2, distanceKm: 12, kraPin: 'A123456789B' },
      reg.token,
    );
    // Paid in full at the paybill: M-Pesa's confirmation settles it, and the sale goes to KRA.
    await api(
      baseURL,
      'POST',
      `/api/payments/mpesa/c2b/confirmation/${CALLBACK_SECRET}`,
      c2b({ account: `MCH${order.id}`, amountKes: order.total }),
    );
    const mine = () => api<Listed[]>(baseURL, 'GET', '/api/orders/my', undefined, reg.token);
    await expect
      .poll(async () => (await mine()).find((o) => o.id === order.id)?.etimsStatus, { timeout: 30_000 })
      .toBe('signed');
    const listed = (await mine()).find((o) => o.id === order.id)!;
    const held = [...kra.sales.values()].find(
      (s) => s.body.itemList[0]!.qty === 40 && s.body.totAmt === order.total,
    )!;
    expect(held.body).toMatchObject({ rcptTyCd: 'S', pmtTyCd: '06', custTin: 'A123456789B' });
    const qrUrl = `https://etims-sbx.kra.go.ke/common/link/etims/receipt/indexEtimsReceiptData?Data=${TIN}00${held.rcptSign}`;
    const amount = `KES ${order.total.toLocaleString('en-KE')}`;
    const expectReceipt = (text: string) => {
      expect(text).toContain('TAX INVOICE');
      expect(text).toContain(amount);
      expect(text).toContain(
        `KES ${(Math.round(((order.total * 16) / 116) * 100) / 100).toLocaleString('en-KE')}`,
      );
      expect(text).toContain(held.rcptSign.match(/.{1,4}/g)!.join('-'));
      expect(text).toContain(qrUrl);
    };

    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await page.goto('/');
    await storeSession(page, reg.token, reg.user);
    await page.goto('/customer');
    const card = page.getByRole('article', { name: new RegExp(`^Order #${order.id} `) });
    await expect
      .poll(() => card.getByRole('link', { name: 'Download receipt (PDF)' }).isVisible())
      .toBe(true);
    await expect.poll(() => card.getByText('KRA eTIMS tax invoice').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await scrollIntoView(card.getByRole('link', { name: 'Download receipt (PDF)' }));
    await page.screenshot({ path: '/tmp/mchanga-receipt-my-orders.png' });
    const fromMyOrders = await download(page, 'Download receipt (PDF)');
    expect(fromMyOrders.name).toMatch(new RegExp(`^receipt-INV-\\d+-order-${order.id}\\.pdf$`));
    expectReceipt(fromMyOrders.text);

    // The tracking page (public: its link is the permission) offers the same document.
    await page.goto(listed.trackingUrl);
    await expect
      .poll(() => page.getByRole('link', { name: 'Download your receipt (PDF)' }).isVisible())
      .toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: '/tmp/mchanga-receipt-tracking.png' });
    const fromTracking = await download(page, 'Download your receipt (PDF)');
    expectReceipt(fromTracking.text);
    await context.close();
  }, 120_000);

  it('the finance view lists the invoice with KRA’s link state at 360 px', async () => {
    const baseURL = app.baseURL;
    const login = await api<{ token: string; user: { role: string; name: string; email: string } }>(
      baseURL,
      'POST',
      '/api/auth/login',
      { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    );
    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await page.goto('/');
    await storeSession(page, login.token, login.user);
    await page.goto('/ops');
    // The ops order card links the receipt and says where the sale stands with KRA.
    await page.getByRole('tab', { name: 'Orders', exact: true }).click();
    const receipt = page.getByRole('link', { name: 'Receipt (PDF)' }).first();
    await expect.poll(() => receipt.isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => page.getByText('eTIMS: Signed').first().isVisible()).toBe(true);
    await scrollIntoView(receipt);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: '/tmp/mchanga-ops-order-card.png' });
    const [file] = await Promise.all([page.waitForEvent('download'), receipt.click()]);
    expect(pdfText((await file.path())!)).toContain('TAX INVOICE');
    await page.getByRole('tab', { name: 'Finance', exact: true }).click();
    const section = page.getByRole('region', { name: 'eTIMS invoices' });
    await expect.poll(() => section.getByText('Connected').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect
      .poll(() => section.getByRole('button', { name: 'Credit note' }).first().isVisible())
      .toBe(true);
    await scrollIntoView(section);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.screenshot({ path: '/tmp/mchanga-finance-invoices.png', fullPage: false });
    // A credit note from the sheet: part of the sale, reason refund.
    await section.getByRole('button', { name: 'Credit note' }).first().click();
    const sheet = page.getByRole('dialog');
    await sheet.getByLabel('Amount (KES; blank credits all that is left)').fill('1000');
    await sheet.getByRole('button', { name: 'Issue credit note' }).click();
    await expect
      .poll(() => sheet.getByText(/^Credit note CN-\d+ issued for KES 1,000\.$/).isVisible())
      .toBe(true);
    await page.screenshot({ path: '/tmp/mchanga-credit-note-sheet.png' });
    await context.close();
  }, 120_000);
});
