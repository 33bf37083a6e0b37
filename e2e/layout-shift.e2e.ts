/**
 * Nothing jumps (issue 28): the staff screens and My Orders, opened cold on a 360 px phone with the CPU
 * slowed 4×, move no painted panel — the layout shifts not caused by input add up to at most 0.05 (the
 * budget `npm run bench:lighthouse` holds as the worst of 6 loads). Each screen is loaded over an
 * unthrottled network (what Lighthouse observes; the order answers arrive in is not Slow 4G's) and over
 * Slow 4G. My Orders is also watched from its cold load until an M-Pesa prompt it sent is paid.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeDaraja } from '../test/fake-daraja';
import { api, launchBrowser } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';
import {
  coldLoadShifts,
  describeShifts,
  phoneContext,
  type StoredSession,
  settle,
  shiftsOf,
  throttle,
  total,
} from './support/layout-shift';
import { type SeededBusiness, seedBusiness } from './support/seed';

const BUDGET = 0.05;
const KEYS = {
  consumerKey: 'cls-consumer-key',
  consumerSecret: 'cls-consumer-secret',
  shortcode: '174379',
  passkey: 'cls-passkey-bfb279f9aa9bdbcf158e97dd71a467cd',
};
const CALLBACK_SECRET = 'cls-callback-secret-0123456789';

// My Orders shows the M-Pesa prompt only with Daraja keys: this file runs its own app against a fake.
const daraja = fakeDaraja(KEYS);
let app: RunningApp;
let browser: Browser;
let seeded: SeededBusiness;

const login = (email: string, password: string) =>
  api<StoredSession>(app.baseURL, 'POST', '/api/auth/login', { email, password });

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
  seeded = await seedBusiness(app.baseURL, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await daraja.stop();
});

describe('nothing jumps on a cold load at 360 px', () => {
  const screens = [
    { path: '/ops', who: () => login(ADMIN_EMAIL, ADMIN_PASSWORD) },
    // Tabs whose heading and line come with the HTML, under the strip that comes with it too.
    { path: '/ops/audit', who: () => login(ADMIN_EMAIL, ADMIN_PASSWORD) },
    { path: '/ops/activity', who: () => login(ADMIN_EMAIL, ADMIN_PASSWORD) },
    // Charts, drawn at the width the browser measures: the server's screen holds their height.
    { path: '/ops/finance', who: () => login(ADMIN_EMAIL, ADMIN_PASSWORD) },
    { path: '/driver', who: () => login(seeded.accounts.DRIVER.email, seeded.accounts.DRIVER.password) },
    {
      path: '/customer',
      who: () => login(seeded.accounts.CUSTOMER.email, seeded.accounts.CUSTOMER.password),
    },
    { path: '/order', who: () => login(seeded.accounts.CUSTOMER.email, seeded.accounts.CUSTOMER.password) },
  ];
  for (const { path, who } of screens) {
    it(`${path}: layout shifts ≤ ${BUDGET} over a fast network and over Slow 4G`, async () => {
      const session = await who();
      for (const [network, cpuSlowdown] of [
        ['fast', 4],
        ['slow4g', 4],
      ] as const) {
        const shifts = await coldLoadShifts(browser, app.baseURL, path, { session, network, cpuSlowdown });
        expect
          .soft(total(shifts), `${path} over ${network} cpu ${cpuSlowdown}: ${describeShifts(shifts)}`)
          .toBeLessThanOrEqual(BUDGET);
      }
    }, 120_000);
  }
});

describe('My Orders while an M-Pesa prompt is paid', () => {
  it(`the cold load and the payment arriving together shift ≤ ${BUDGET}`, async () => {
    const email = `cls-${Date.now()}@example.co.ke`;
    const reg = await api<StoredSession>(app.baseURL, 'POST', '/api/auth/register', {
      name: 'Otieno Contractors',
      email,
      phone: '0722333444',
      password: 'cls-pass-1234',
    });
    const ids: number[] = [];
    for (const site of ['Witeithie, Juja', 'Thika Landless', 'Kamakis, Ruiru']) {
      const order = await api<{ id: number }>(
        app.baseURL,
        'POST',
        '/api/orders',
        { site, sandType: 'coarse', trucks: 1, distanceKm: 12 },
        reg.token,
      );
      ids.push(order.id);
    }
    const context = await phoneContext(browser, app.baseURL, reg);
    try {
      const page = await context.newPage();
      await throttle(page, 4, 'fast');
      await page.goto('/customer', { waitUntil: 'commit' });
      await settle(page);
      // The newest order is first, its prompt in view: the customer pays it without scrolling.
      const paying = ids[2]!;
      const card = page.getByRole('article', { name: new RegExp(`^Order #${paying} `) });
      const prompt = card.getByRole('region', { name: 'Pay with M-Pesa on your phone' });
      await expect.poll(() => prompt.isVisible()).toBe(true);
      await prompt.getByLabel('M-Pesa phone number').fill('0722 333 444');
      daraja.next({ result: 0, delayMs: 1_500 });
      await prompt.getByRole('button', { name: /^Send payment prompt/ }).click();
      await expect
        .poll(
          () => card.getByRole('heading', { name: new RegExp(`^Order #${paying} Received`) }).isVisible(),
          {
            timeout: 30_000,
          },
        )
        .toBe(true);
      await expect
        .poll(() => card.getByRole('list', { name: `Payments of order #${paying}` }).count())
        .toBe(1);
      await settle(page);
      const shifts = await shiftsOf(page);
      expect(total(shifts), describeShifts(shifts)).toBeLessThanOrEqual(BUDGET);
    } finally {
      await context.close();
    }
  }, 120_000);
});
