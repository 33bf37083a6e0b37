/**
 * Issue 14 item 4 in the browser: Kiswahili chosen on the landing page at 360 px stays after a reload
 * (and the page still fits the phone), and a driver whose account is set to Kiswahili gets it on /driver
 * after signing in on a fresh device. In Kiswahili at 360 px, My Orders (with payments and the M-Pesa
 * prompt), /driver and /fuel show no English from the parts they share with other screens.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../client/i18n/en';
import { staffEn } from '../client/i18n/staff-en';
import { staffSw } from '../client/i18n/staff-sw';
import { sw } from '../client/i18n/sw';
import { fakeDaraja } from '../test/fake-daraja';
import { api, launchBrowser, newPage, openMenuIfCollapsed, signInThroughForm } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';
import { measureLayout } from './support/layout';
import { type SeededBusiness, seedBusiness } from './support/seed';

const PHONE_360 = { width: 360, height: 740 };
const KEYS = {
  consumerKey: 'i18n-consumer-key',
  consumerSecret: 'i18n-consumer-secret',
  shortcode: '174379',
  passkey: 'i18n-passkey-bfb279f9aa9bdbcf158e97dd71a467cd',
};
// The M-Pesa prompt shows only with Daraja set up: this file's app talks to a fake one.
const daraja = fakeDaraja(KEYS);
let app: RunningApp;
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  const darajaURL = await daraja.start();
  app = await startApp((baseURL) => ({
    PUBLIC_URL: baseURL,
    MPESA_BASE_URL: darajaURL,
    MPESA_CONSUMER_KEY: KEYS.consumerKey,
    MPESA_CONSUMER_SECRET: KEYS.consumerSecret,
    MPESA_SHORTCODE: KEYS.shortcode,
    MPESA_PASSKEY: KEYS.passkey,
    MPESA_CALLBACK_SECRET: 'i18n-callback-secret-0123456789',
  }));
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
  await daraja.stop();
});

type Catalog = { [key: string]: string | Catalog };
const flat = (c: Catalog, prefix = ''): Array<[string, string]> =>
  Object.entries(c).flatMap(([k, v]) =>
    typeof v === 'string' ? [[`${prefix}${k}`, v]] : flat(v, `${prefix}${k}.`),
  );

/**
 * The English of these catalog groups that Kiswahili words differently, as fragments (placeholders cut
 * out) of at least 10 characters: none of them may be on a Kiswahili screen.
 */
/**
 * The English texts of these sections of the app catalog (the shell's always) and of the staff catalog,
 * except those the two languages share: what a Kiswahili screen must not show.
 */
function englishOf(
  sections: Array<keyof typeof en>,
  staffSections: Array<keyof typeof staffEn> = [],
): string[] {
  const pairs: Array<[unknown, unknown]> = [
    ...[...new Set([...sections, 'shell' as const])].map((k): [unknown, unknown] => [en[k], sw[k]]),
    ...staffSections.map((k): [unknown, unknown] => [staffEn[k], staffSw[k]]),
  ];
  const fragments = new Set<string>();
  for (const [english, kiswahili] of pairs) {
    const swOf = new Map(flat(kiswahili as Catalog));
    for (const [key, text] of flat(english as Catalog)) {
      if (swOf.get(key) === text) continue;
      for (const part of text.split(/\{\{\w+\}\}/)) if (part.trim().length >= 10) fragments.add(part.trim());
    }
  }
  return [...fragments];
}

/** The states as codes, which the English screens show as they are. */
const STATE_CODES =
  /\b(PENDING|SUBMITTED|CONFIRMED|REJECTED|SCHEDULED|IN_TRANSIT|ARRIVED|DELIVERED|CANCELLED)\b/;

async function expectNoEnglish(page: Page, fragments: string[]) {
  const text = await page.evaluate(() => document.body.innerText);
  // Each English fragment found, with the text around it.
  const found = fragments.flatMap((f) => {
    const at = text.indexOf(f);
    return at < 0 ? [] : [`${f} … in "${text.slice(Math.max(0, at - 40), at + f.length + 40)}"`];
  });
  expect(found).toEqual([]);
  expect(text.match(STATE_CODES)?.[0]).toBeUndefined();
  for (const word of ['Menu', 'Logout', 'waiting to send', 'Leaderboard', 'Truck TBD', 'litres', 'n/a'])
    expect(text.includes(word), word).toBe(false);
}

/** Signs in as one of the seeded accounts whose language is set to Kiswahili on the account. */
async function kiswahiliPage(account: { email: string; password: string }) {
  const { token } = await api<{ token: string }>(app.baseURL, 'POST', '/api/auth/login', account);
  await api(app.baseURL, 'PUT', '/api/auth/language', { language: 'sw' }, token);
  const { context, page } = await newPage(browser, app.baseURL, PHONE_360);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await signInThroughForm(page, account.email, account.password);
  await page.waitForFunction(() => document.documentElement.lang === 'sw');
  return { context, page, errors, token };
}

async function fitsAndShoot(page: Page, name: string) {
  await page.screenshot({ path: `/tmp/i18n-${name}.png`, fullPage: true });
  const layout = await measureLayout(page);
  expect(layout.scrollWidth, JSON.stringify(layout.widest)).toBeLessThanOrEqual(PHONE_360.width);
}

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

  describe('the shared parts in Kiswahili at 360 px', () => {
    let seed: SeededBusiness;
    beforeAll(async () => {
      seed = await seedBusiness(app.baseURL, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    }, 120_000);

    it('My Orders: payments, how to pay, the M-Pesa prompt and its result, states and dates, all in Kiswahili', async () => {
      const { context, page, errors } = await kiswahiliPage(seed.accounts.CUSTOMER);
      await page.goto('/customer');
      await page.getByRole('heading', { level: 1, name: 'Maagizo Yangu' }).waitFor();
      const card = (id: number) => page.getByRole('article', { name: new RegExp(`^Agizo #${id} `) });

      // The unpaid order: its state, how to pay (the paybill with its own account) and the M-Pesa prompt.
      const unpaid = card(seed.orders.unpaid);
      await unpaid.getByText('Inasubiri malipo', { exact: true }).waitFor();
      await expect.poll(() => unpaid.getByText('Bado', { exact: true }).isVisible()).toBe(true);
      expect(await unpaid.getByText('Kwenye M-Pesa chagua Lipa na M-Pesa, kisha Pay Bill.').isVisible()).toBe(
        true,
      );
      await expect.poll(() => unpaid.getByText('(akaunti ya agizo hili pekee)').isVisible()).toBe(true);
      const stk = unpaid.getByRole('region', { name: 'Lipa kwa M-Pesa kwenye simu yako' });
      await stk.waitFor();
      // The screen's own check of the phone number, then the customer cancels the prompt (result 1032).
      await stk.getByLabel('Nambari ya simu ya M-Pesa').fill('0812');
      await stk.getByRole('button', { name: /^Tuma ombi la malipo · KES [\d,]+$/ }).click();
      await stk.getByText('Andika nambari ya simu ya M-Pesa, kama 0712 345 678.').waitFor();
      daraja.next({ result: 1032, delayMs: 1_500 });
      await stk.getByLabel('Nambari ya simu ya M-Pesa').fill('0712 345 678');
      await stk.getByRole('button', { name: /^Tuma ombi la malipo/ }).click();
      await stk.getByRole('status').getByText('Angalia simu yako na uweke PIN yako ya M-Pesa').waitFor();
      expect(await stk.getByRole('status').textContent()).toMatch(/KES [\d,]+ kwa MCH\d+/);
      await stk
        .getByRole('alert')
        .filter({ hasText: 'Umeghairi ombi la M-Pesa. Tuma tena ukiwa tayari kulipa.' })
        .waitFor({ timeout: 30_000 });
      expect(await stk.getByRole('button', { name: 'Tuma ombi tena' }).isEnabled()).toBe(true);

      // The order with a payment confirmation: its state and the payment with its date, in Kiswahili.
      const submitted = card(seed.orders.submitted);
      await expect
        .poll(() => submitted.getByText('Malipo yanakaguliwa', { exact: true }).isVisible())
        .toBe(true);
      const payments = submitted.getByRole('list', { name: `Malipo ya agizo #${seed.orders.submitted}` });
      await expect.poll(() => payments.getByText('Imewasilishwa', { exact: true }).isVisible()).toBe(true);
      expect(await payments.textContent()).toMatch(/yalitumwa \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}/);
      // Loads on the road and waiting, and a delivered order.
      const scheduled = card(seed.orders.scheduled);
      await expect.poll(() => scheduled.getByText('Njiani', { exact: true }).isVisible()).toBe(true);
      await expect.poll(() => scheduled.getByText('Imepangwa', { exact: true }).isVisible()).toBe(true);
      expect(await card(seed.orders.delivered).getByText('Limefikishwa', { exact: true }).isVisible()).toBe(
        true,
      );
      await expect.poll(() => page.getByRole('button', { name: 'Menyu' }).isVisible()).toBe(true);

      await expectNoEnglish(
        page,
        englishOf(['customer', 'payment', 'site', 'mpesa', 'payments', 'payOptions', 'status']),
      );
      await fitsAndShoot(page, 'customer');

      // The order's tracking page, from its link on My Orders.
      await scheduled.getByRole('link', { name: 'Fuatilia agizo hili' }).click();
      await page.waitForURL('**/track/**');
      await page.getByRole('heading', { level: 1, name: `Agizo #${seed.orders.scheduled}` }).waitFor();
      await page.getByRole('heading', { name: 'Mizigo' }).waitFor();
      await expect.poll(() => page.getByText('Nambari ya kupokea:').isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Njiani', { exact: true }).first().isVisible()).toBe(true);
      await page.getByText(/^Imesasishwa \d{2}:\d{2}; hujisasisha kila sekunde \d+\.$/).waitFor();
      await expectNoEnglish(page, englishOf(['track', 'status']));
      await fitsAndShoot(page, 'track');
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);

    it('/driver: loads and their states, truck summary, trips, profile form and its checks, all in Kiswahili', async () => {
      const { context, page, errors } = await kiswahiliPage(seed.accounts.DRIVER);
      await page.waitForURL('**/driver');
      await page.getByRole('heading', { level: 1, name: 'Utendaji wa dereva' }).waitFor();
      await page.getByRole('heading', { name: 'Safari za karibuni' }).waitFor();
      await page.getByText(/^Nafasi #/).waitFor();
      await expect.poll(() => page.getByText('Imepangwa', { exact: true }).first().isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Imefikishwa', { exact: true }).first().isVisible()).toBe(true);
      await expect.poll(() => page.getByRole('button', { name: 'Njiani' }).first().isVisible()).toBe(true);
      // The profile form embedded from the driver directory, and its check in Kiswahili.
      const profile = page.getByRole('form', { name: 'Wasifu' });
      expect(await profile.getByLabel('Picha ya kitambulisho').count()).toBe(1);
      expect(await profile.getByLabel('Picha yako').count()).toBe(1);
      await profile.getByLabel('Jina').fill('');
      await profile.getByRole('button', { name: 'Hifadhi wasifu' }).click();
      await profile.getByText('Andika jina la dereva (hadi herufi 120).').first().waitFor();
      await page.getByRole('heading', { name: 'Safari zangu' }).waitFor();
      await page.getByRole('heading', { name: 'Malori uliyopewa' }).waitFor();
      await page.locator('.truck-card').first().waitFor();

      await expectNoEnglish(
        page,
        englishOf(['driver', 'driverForm', 'image', 'outbox', 'status'], ['fleet', 'trips']),
      );
      await fitsAndShoot(page, 'driver');
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);

    it('/fuel: the form and its checks, entries, duplicate panel and fleet panel, all in Kiswahili', async () => {
      const { context, page, errors } = await kiswahiliPage(seed.accounts.FUEL);
      await page.waitForURL('**/fuel');
      await page.getByRole('heading', { level: 1, name: 'Ufuatiliaji wa mafuta na kilomita' }).waitFor();
      expect(await page.getByLabel('Picha (pampu au dashibodi)').count()).toBe(1);
      await page.getByText('lita 80', { exact: true }).first().waitFor();
      // The form's checks answer in Kiswahili.
      await page.getByRole('button', { name: 'Hifadhi rekodi ya mafuta' }).click();
      await page.getByText('Andika lori.').first().waitFor();
      // The same truck and odometer as a seeded log: the duplicate panel, framed in Kiswahili.
      const truck = seed.trucks[0]!;
      await page.getByLabel('Namba ya lori / Nambari ya usajili').fill(truck.plate);
      await page.getByLabel('Lita zilizowekwa').fill('80');
      await page.getByLabel('Gharama yote (KES)').fill('14600');
      await page.getByLabel('Odomita (km)').fill('60050');
      await page.getByRole('button', { name: 'Hifadhi rekodi ya mafuta' }).click();
      const panel = page.getByRole('region', { name: 'Huenda rekodi hii ya mafuta imejirudia' });
      await panel.waitFor();
      await expect
        .poll(() => panel.getByText('Huenda rekodi hii ya mafuta tayari imeandikwa.').isVisible())
        .toBe(true);
      expect(
        await panel.getByRole('button', { name: 'Thibitisha na uweke alama ya kurudiwa' }).isVisible(),
      ).toBe(true);
      await expect.poll(() => panel.getByRole('button', { name: 'Ghairi' }).isVisible()).toBe(true);
      await page.getByRole('heading', { name: staffSw.tabs.fleet }).waitFor();
      await page.locator('.truck-card').first().waitFor();

      await expectNoEnglish(page, englishOf(['fuel', 'image', 'duplicate', 'outbox'], ['fleet']));
      await fitsAndShoot(page, 'fuel');
      await panel.getByRole('button', { name: 'Ghairi' }).click();
      await panel.waitFor({ state: 'detached' });

      // Without signal: the kept entry, the header's count, the screen's outbox and the banner speak Kiswahili.
      await context.setOffline(true);
      await page.getByLabel('Odomita (km)').fill('61200');
      await page.getByLabel('Lita zilizowekwa').fill('50');
      await page.getByLabel('Gharama yote (KES)').fill('9125');
      await page.getByRole('button', { name: 'Hifadhi rekodi ya mafuta' }).click();
      await page
        .getByText(
          'Simu yako haina mtandao. Rekodi ya mafuta imehifadhiwa kwenye simu hii na itatumwa mtandao ukirudi.',
        )
        .waitFor();
      await page.getByText('1 haijatumwa', { exact: true }).waitFor();
      const outbox = page.getByRole('region', { name: 'Rekodi 1 inasubiri kutumwa' });
      await outbox.waitFor();
      await expect.poll(() => outbox.getByText('Inasubiri kutumwa', { exact: true }).isVisible()).toBe(true);
      expect(await page.locator('.offline-banner').textContent()).toMatch(
        /^Huna mtandao · data ya saa \d{2}:\d{2}$/,
      );
      await expectNoEnglish(page, englishOf(['fuel', 'outbox']));
      await fitsAndShoot(page, 'fuel-offline');
      // Back online, it is sent: the count and the screen's outbox go.
      await context.setOffline(false);
      await outbox.waitFor({ state: 'detached', timeout: 30_000 });
      await page.getByText('1 haijatumwa', { exact: true }).waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
      await context.close();
    }, 120_000);
  });
});
