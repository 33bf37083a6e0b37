import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_TABS } from '../client/features/ops/tab-list';
import { OPS_WORKSPACE_TABS } from '../shared/roles';
import { seriousAxeViolations } from './support/axe';
import { api, launchBrowser, storeSession, untilAppRendered } from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';
import { measureLayout } from './support/layout';
import { type Account, type SeededBusiness, seedBusiness } from './support/seed';

const admin = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };
const PHONE_360 = { width: 360, height: 740 };
const LAPTOP = { width: 1366, height: 900 };

const PUBLIC = ['/', '/articles', '/login', '/register', '/no-such-page'];
type Role = 'guest' | 'CUSTOMER' | 'ADMIN' | 'OPS' | 'DRIVER' | 'FUEL';
const SCREENS: Record<Role, string[]> = {
  guest: PUBLIC,
  CUSTOMER: [...PUBLIC, '/order', '/customer'],
  ADMIN: [...PUBLIC, ...WORKSPACE_TABS.map((t) => `/ops/${t}`), '/driver', '/fuel'],
  OPS: [...PUBLIC, ...OPS_WORKSPACE_TABS.map((t) => `/ops/${t}`), '/fuel'],
  DRIVER: [...PUBLIC, '/driver'],
  FUEL: [...PUBLIC, '/fuel'],
};

let browser: Browser;
let seed: SeededBusiness;
// The walk gets an app of its own: its week of data stays out of the other tests' lists (an empty fuel
// log, the first costs), and theirs out of what it measures.
let app: RunningApp;
let baseURL: string;

beforeAll(async () => {
  app = await startApp();
  baseURL = app.baseURL;
  browser = await launchBrowser();
  seed = await seedBusiness(baseURL, admin);
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

/** A context signed in as `role` (the token stored as the login form stores it). */
async function contextFor(role: Role, viewport: { width: number; height: number }) {
  const context = await browser.newContext({
    baseURL,
    viewport,
    isMobile: viewport.width < 500,
    hasTouch: viewport.width < 500,
  });
  const page = await context.newPage();
  if (role !== 'guest') {
    const who: Account = role === 'ADMIN' ? admin : seed.accounts[role];
    const { token, user } = await api<{ token: string; user: Record<string, string | null> }>(
      baseURL,
      'POST',
      '/api/auth/login',
      who,
    );
    await page.goto('/login');
    await storeSession(page, token, user);
  }
  return { context, page };
}

/** Opens a screen with a full load and waits until its data and lazy parts have arrived. */
async function open(page: Page, path: string): Promise<number> {
  let calls = 0;
  const count = (r: { url: () => string }) => {
    if (new URL(r.url()).pathname.startsWith('/trpc/')) calls++;
  };
  page.on('request', count);
  await page.goto('about:blank');
  await page.goto(path);
  // A screen the server drew is on show before the app runs: wait for the app's first render too.
  await untilAppRendered(page).catch(() => undefined);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(400);
  page.off('request', count);
  return calls;
}

/** axe-core's serious and critical violations on the page as it stands, one line each. */
async function axeProblems(page: Page, where: string): Promise<string[]> {
  return (await seriousAxeViolations(page)).map(
    (v) => `${where}: ${v.impact} ${v.id} (${v.help}): ${v.targets.join('; ')}`,
  );
}

async function walk(
  viewport: { width: number; height: number },
  visit: (page: Page, role: Role, path: string) => Promise<void>,
) {
  for (const role of Object.keys(SCREENS) as Role[]) {
    const { context, page }: { context: BrowserContext; page: Page } = await contextFor(role, viewport);
    for (const path of SCREENS[role]) await visit(page, role, path);
    await context.close();
  }
}

describe('every screen on a phone', () => {
  it('fits 360 × 740 for every role: no sideways scroll, every action in reach, controls of 44 px, chart text of 11 px, one request, and axe-core finds no serious violation', async () => {
    const problems: string[] = [];
    await walk(PHONE_360, async (page, role, path) => {
      const calls = await open(page, path);
      const m = await measureLayout(page);
      const where = `${role} ${path}`;
      // The phone's accessibility check reads the same load (the laptop's is below): one walk, not two.
      problems.push(...(await axeProblems(page, `360px ${where}`)));
      if (m.scrollWidth > 360) problems.push(`${where}: page is ${m.scrollWidth} px wide (${m.widest.what})`);
      for (const u of m.unreachable) problems.push(`${where}: out of reach: ${u}`);
      for (const s of m.small) problems.push(`${where}: smaller than 44 px: ${s}`);
      for (const t of m.tinyText) problems.push(`${where}: chart text ${t}`);
      // ADMIN's first visit to /driver asks for the first driver's week in the same batch as the list;
      // once a driver is remembered, it is still one request.
      const firstDriverVisit = role === 'ADMIN' && path === '/driver';
      if (calls > 1) problems.push(`${where}: ${calls} tRPC requests on load`);
      if (firstDriverVisit) {
        const again = await open(page, path);
        if (again !== 1) problems.push(`${where} (driver remembered): ${again} tRPC requests on load`);
      }
      // Money one way: "−KES 201,280" for a loss, cents only as two digits.
      const text = await page.evaluate(() => document.body.innerText);
      for (const bad of text.match(/KES -\d[\d,.]*|KES [\d,]+\.\d(?!\d)[\d,.]*/g) ?? [])
        problems.push(`${where}: money written as "${bad}"`);
    });
    expect(problems).toEqual([]);
  }, 450_000);

  it('keeps the open tab in sight on the workspace strip, which scrolls sideways on a phone', async () => {
    const { context, page } = await contextFor('ADMIN', PHONE_360);
    const strip = page.getByRole('tablist', { name: 'Workspace sections' });
    // How much of the tab the strip shows, in px of the tab's width, and how far the strip is scrolled.
    const inSight = (id: string) =>
      strip.evaluate((el, tab) => {
        const s = el.getBoundingClientRect();
        const t = el.querySelector(`#tab-${tab}`)!.getBoundingClientRect();
        return {
          shown: Math.min(t.right, s.right) - Math.max(t.left, s.left),
          width: t.width,
          scrolled: el.scrollLeft,
        };
      }, id);
    // The last tab, right of the screen's edge when the strip is at its start (the server's page draws it so).
    await open(page, '/ops/activity');
    await expect.poll(async () => (await inSight('activity')).shown).toBeGreaterThan(0);
    const last = await inSight('activity');
    expect(last.shown).toBeCloseTo(last.width, 0);
    expect(last.scrolled).toBeGreaterThan(0);
    // Back to the first: the strip follows.
    await strip.getByRole('tab', { name: 'Overview' }).click();
    await expect.poll(async () => (await inSight('overview')).scrolled).toBe(0);
    await context.close();
  });

  it('shows orders as cards with the next step as the main button, and assigns a truck in a bottom sheet', async () => {
    const { context, page } = await contextFor('ADMIN', PHONE_360);
    await open(page, '/ops/orders');
    const cards = page.getByRole('list', { name: 'Orders' }).getByRole('listitem');
    const card = (site: string) => cards.filter({ hasText: site }).first();
    expect(await page.getByRole('table', { name: 'Orders' }).count()).toBe(0);
    await expect.poll(() => card(seed.sites.submitted).isVisible()).toBe(true);
    const main = (site: string) => card(site).locator('.main-action .button').first();
    expect(await main(seed.sites.submitted).textContent()).toBe('Review payment');
    expect(await main(seed.sites.unpaid).textContent()).toBe('Record payment');
    expect(await main(seed.sites.scheduled).textContent()).toBe('Assign truck');
    await expect
      .poll(() => card(seed.sites.scheduled).getByText('20 t still to schedule').isVisible())
      .toBe(true);

    await main(seed.sites.scheduled).click();
    const sheet = page.getByRole('dialog', { name: /Assign truck/ });
    await expect.poll(() => sheet.isVisible()).toBe(true);
    await expect.poll(() => sheet.getByText('still to schedule').isVisible()).toBe(true);
    const box = (await sheet.boundingBox())!;
    // A bottom sheet: full width, resting on the bottom edge of the screen.
    expect(box.width).toBeGreaterThanOrEqual(359);
    expect(Math.round(box.y + box.height)).toBe(740);
    await sheet.getByRole('button', { name: 'Schedule load' }).click();
    await expect.poll(() => sheet.getByRole('alert').textContent()).toBe('Select a truck.');
    await sheet.getByLabel('Truck').selectOption(seed.trucks[2]!.id);
    await sheet.getByLabel('Driver').selectOption(seed.drivers[1]!.id);
    await sheet.getByRole('button', { name: 'Schedule load' }).click();
    await expect.poll(() => sheet.isVisible()).toBe(false);
    await expect.poll(() => card(seed.sites.scheduled).getByText('still to schedule').count()).toBe(0);
    expect(await main(seed.sites.scheduled).textContent()).toMatch(/^Mark delivered/);
    await context.close();
  });

  it('schedules an unpaid order only after saying what that means, and marks it scheduled before payment', async () => {
    const { context, page } = await contextFor('ADMIN', PHONE_360);
    await open(page, '/ops/orders');
    const card = page
      .getByRole('list', { name: 'Orders' })
      .getByRole('listitem')
      .filter({ hasText: seed.sites.unpaid })
      .first();
    await card.getByRole('button', { name: 'Assign truck' }).click();
    const sheet = page.getByRole('dialog', { name: /Assign truck/ });
    await expect.poll(() => sheet.getByText('60 t', { exact: true }).isVisible()).toBe(true);
    await sheet.getByLabel('Truck').selectOption(seed.trucks[1]!.id);
    // The primary driver comes with the truck.
    expect(await sheet.getByLabel('Driver').inputValue()).toBe(seed.drivers[1]!.id);
    // More than a truck carries: the server says what is allowed.
    await sheet.getByLabel('Tonnes').fill('25');
    await sheet.getByRole('button', { name: 'Schedule load' }).click();
    await expect.poll(() => sheet.getByRole('alert').textContent()).toMatch(/20 t/);
    await sheet.getByLabel('Tonnes').fill('20');
    await sheet.getByRole('button', { name: 'Schedule load' }).click();
    const question = page.getByRole('alertdialog', {
      name: 'This order is not paid yet. Schedule it anyway?',
    });
    await expect.poll(() => question.isVisible()).toBe(true);
    await expect.poll(() => question.getByText(/marked “scheduled before payment”/).isVisible()).toBe(true);
    await question.getByRole('button', { name: 'Not yet' }).click();
    await expect.poll(() => card.getByText('No loads yet.').isVisible()).toBe(true);
    await sheet.getByRole('button', { name: 'Schedule load' }).click();
    await question.getByRole('button', { name: 'Schedule before payment' }).click();
    await expect.poll(() => sheet.isVisible()).toBe(false);
    await expect.poll(() => card.getByText('Scheduled before payment').isVisible()).toBe(true);
    await expect.poll(() => card.getByText('40 t still to schedule').isVisible()).toBe(true);
    await context.close();
  });

  it('asks before cancelling a load, rejecting a payment or disabling a user, saying what will happen', async () => {
    const { context, page } = await contextFor('ADMIN', PHONE_360);
    await open(page, '/ops/orders');
    const cards = page.getByRole('list', { name: 'Orders' }).getByRole('listitem');
    const scheduled = cards.filter({ hasText: seed.sites.scheduled }).first();
    await scheduled.getByRole('button', { name: `Cancel load: ${seed.trucks[0]!.plate}` }).click();
    const cancel = page.getByRole('alertdialog', { name: 'Cancel this load?' });
    await expect.poll(() => cancel.getByText(/will be cancelled/).isVisible()).toBe(true);
    await expect.poll(() => cancel.getByText(/cannot be reopened/).isVisible()).toBe(true);
    await cancel.getByRole('button', { name: 'Keep load' }).click();
    expect(await cancel.count()).toBe(0);
    await expect.poll(() => scheduled.getByText('Scheduled', { exact: true }).first().isVisible()).toBe(true);

    const submitted = cards.filter({ hasText: seed.sites.submitted }).first();
    await submitted.getByRole('button', { name: 'Review payment' }).click();
    const review = page.getByRole('dialog', { name: /Review payment/ });
    await review.getByRole('button', { name: 'Reject payment' }).click();
    await expect
      .poll(() => review.getByRole('alert').textContent())
      .toBe('Give a reason for rejecting the payment.');
    await review.getByLabel('Reason for rejecting').fill('No such reference on the Equity statement');
    await review.getByRole('button', { name: 'Reject payment' }).click();
    const reject = page.getByRole('alertdialog', { name: 'Reject this payment?' });
    await expect.poll(() => reject.getByText(/goes back to Awaiting Payment/).isVisible()).toBe(true);
    await reject.getByRole('button', { name: 'Go back' }).click();
    await review.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => submitted.getByText('Payment Submitted').isVisible()).toBe(true);

    await open(page, '/ops/drivers');
    const staff = page.getByRole('list', { name: 'Staff accounts' }).getByRole('listitem');
    await staff
      .filter({ hasText: seed.accounts.OPS.email })
      .getByRole('button', { name: /^Disable / })
      .click();
    const disable = page.getByRole('alertdialog', { name: /^Disable / });
    expect(
      await disable.getByText(/cannot sign in as OPS until you enable the account again/).isVisible(),
    ).toBe(true);
    await disable.getByRole('button', { name: 'Keep active' }).click();
    expect(await staff.filter({ hasText: seed.accounts.OPS.email }).getByText('Active').isVisible()).toBe(
      true,
    );
    await context.close();
  });

  it('opens a tab from its address (/ops/orders or /ops#orders); links between tabs work and Back returns', async () => {
    const { context, page } = await contextFor('ADMIN', PHONE_360);
    const selected = () => page.getByRole('tab', { selected: true }).textContent();
    await open(page, '/ops#orders');
    await expect.poll(selected).toBe('Orders');
    await open(page, '/ops/overview');
    await page.getByRole('link', { name: 'See orders' }).click();
    await page.waitForURL('**/ops/orders');
    await expect.poll(selected).toBe('Orders');
    await page.getByRole('tab', { name: 'Trucks' }).click();
    await page.waitForURL('**/ops/trucks');
    await expect.poll(selected).toBe('Trucks');
    await page.goBack();
    await page.waitForURL('**/ops/orders');
    await expect.poll(selected).toBe('Orders');
    await page.goBack();
    await page.waitForURL('**/ops/overview');
    await expect.poll(selected).toBe('Overview');
    await context.close();
  });

  it('the chat button never covers a form field, and forms tell their first field first', async () => {
    for (const viewport of [PHONE_360, LAPTOP, { width: 1600, height: 900 }]) {
      const { context, page } = await contextFor('guest', viewport);
      await open(page, '/');
      const covered = await page.evaluate(async () => {
        const chat = document.querySelector('.chat')!;
        const fields = [...document.querySelectorAll('input, select, textarea, button')].filter(
          (f) => !chat.contains(f),
        );
        const hits: string[] = [];
        for (let y = 0; y <= document.documentElement.scrollHeight; y += 200) {
          window.scrollTo(0, y);
          await new Promise((r) => requestAnimationFrame(r));
          const c = chat.getBoundingClientRect();
          for (const f of fields) {
            const r = f.getBoundingClientRect();
            if (r.width && c.left < r.right && r.left < c.right && c.top < r.bottom && r.top < c.bottom)
              hits.push(`${f.getAttribute('aria-label') ?? f.id ?? f.tagName} at scroll ${y}`);
          }
        }
        return hits;
      });
      expect(covered, `${viewport.width} px`).toEqual([]);
      await context.close();
    }
    const { context, page } = await contextFor('guest', PHONE_360);
    await open(page, '/register');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Name is required.');
    await context.close();
  });
});

describe('every screen on a laptop', () => {
  it('the orders table shows every column at 1366 px', async () => {
    const { context, page } = await contextFor('ADMIN', LAPTOP);
    await open(page, '/ops/orders');
    const table = page.getByRole('table', { name: 'Orders' });
    await expect.poll(() => table.isVisible()).toBe(true);
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toEqual([
      'When',
      'Customer',
      'Site',
      'Sand',
      'Trucks',
      'Total',
      'Payment',
      'Status',
      'Assignments',
      'Add assignment',
    ]);
    const fits = await page.evaluate(() => {
      const wrap = document.querySelector('.order-table')!.parentElement!;
      const right = wrap.getBoundingClientRect().right;
      return {
        scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
        cut: [...document.querySelectorAll('.order-table th')].filter(
          (th) => th.getBoundingClientRect().right > right + 1,
        ).length,
      };
    });
    expect(fits).toEqual({ scrolls: false, cut: 0 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    await context.close();
  });
});

describe('accessibility', () => {
  // On a phone it runs in the 360 px walk above.
  it('axe-core finds no serious or critical violation on any screen on a laptop', async () => {
    const problems: string[] = [];
    await walk(LAPTOP, async (page, role, path) => {
      await open(page, path);
      problems.push(...(await axeProblems(page, `1366px ${role} ${path}`)));
    });
    expect(problems).toEqual([]);
  }, 300_000);
});
