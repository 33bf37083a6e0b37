/**
 * Issue 27, item 11: the installed app opens without signal. A phone that signed in at /login and went
 * straight to its screen never loaded `/` while the service worker ran; offline, `/` and the Logout target
 * still open (from the precached shell). The offline banner vouches only for data the phone keeps.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, openMenuIfCollapsed } from './support/browser';
import { phonesForThisFile } from './support/phone';

const phones = phonesForThisFile();

async function signIn(page: Page, account: { email: string; password: string }, home: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**${home}`);
}

/** Waits until the service worker is active and controls the page (a reload makes sure of it). */
async function untilControlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

const LANDING = 'Sand delivered by the truck load';

describe('the installed app without signal', () => {
  it('opens / and the Logout target offline for a FUEL user who never loaded / (item 11)', async () => {
    const account = { email: `pump-start-${Date.now()}@mchanga.co.ke`, password: 'pump-pass-1234' };
    await api(
      phones.baseURL,
      'POST',
      '/api/admin/users',
      { name: 'Wambui Pump', ...account, role: 'FUEL' },
      phones.adminToken,
    );
    const phone = await phones.launch(phones.newProfile());
    const page = phone.pages()[0] ?? (await phone.newPage());
    await signIn(page, account, '/fuel');
    await untilControlled(page);
    await page.waitForTimeout(1_500);

    await phone.setOffline(true);
    // The start page: the app opens, with its menu (no "This site can't be reached").
    const response = await page.goto('/');
    expect(response?.ok()).toBe(true);
    await expect.poll(() => page.getByRole('heading', { name: LANDING }).isVisible()).toBe(true);

    // Back to the screen, then Logout: it goes to `/`, which opens too.
    await page.goto('/fuel');
    await expect
      .poll(() => page.getByText(/^You are offline · data as of \d\d:\d\d$/).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await openMenuIfCollapsed(page);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => page.getByRole('heading', { name: LANDING }).isVisible()).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await phone.close();
  }, 120_000);

  it("does not claim a customer's screen is kept on the phone (item 11)", async () => {
    const email = `offline-customer-${Date.now()}@example.co.ke`;
    const password = 'offline-pass-123';
    await api(phones.baseURL, 'POST', '/api/auth/register', { name: 'Kamau Site', email, password });
    const phone = await phones.launch(phones.newProfile());
    const page = phone.pages()[0] ?? (await phone.newPage());
    await signIn(page, { email, password }, '/customer');
    await page.getByRole('heading', { level: 1, name: 'My Orders' }).waitFor();
    await phone.setOffline(true);
    const banner = page.locator('.offline-banner');
    await expect
      .poll(() => banner.textContent())
      .toBe('You are offline · this screen is not kept on this phone');
    await phone.close();
  }, 60_000);

  it("paints a customer's My Orders from the kept screen on a repeat visit, then the app draws it without Loading… (issue 28)", async () => {
    const email = `kept-customer-${Date.now()}@example.co.ke`;
    const password = 'kept-pass-1234';
    await api(phones.baseURL, 'POST', '/api/auth/register', { name: 'Achieng Site', email, password });
    const phone = await phones.launch(phones.newProfile());
    const page = phone.pages()[0] ?? (await phone.newPage());
    await signIn(page, { email, password }, '/customer');
    await untilControlled(page);
    await page.getByText('You have no orders yet.').waitFor();
    // Kept a second after its data last changed: the markup, not the answers.
    await expect
      .poll(() =>
        page.evaluate(async () =>
          (await (await caches.open('mchanga-snapshots')).match('/customer'))?.text(),
        ),
      )
      .toContain('You have no orders yet.');
    expect(await page.evaluate(() => indexedDB.databases().then((d) => d.map((x) => x.name)))).not.toContain(
      'mchanga-cache',
    );

    // The repeat visit: the kept screen comes with the HTML, and what the app renders next is the same
    // screen from the HTML's first data request, never "Loading your orders…" in between.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const text = document.getElementById('root')?.textContent ?? '';
        if (text.includes('Loading your orders')) seen.push('loading');
      }).observe(document, { childList: true, subtree: true, characterData: true });
    });
    const response = await page.goto('/customer');
    const html = (await response?.text()) ?? '';
    expect(html).toMatch(/<div id="root" data-snapshot="[^"]+" inert aria-busy="true">/);
    // Painted whole: the browser holds the first paint until the kept screen's last element is parsed.
    expect(html).toContain('<link rel="expect" href="#mchanga-kept-end" blocking="render"></head>');
    expect(html).toMatch(/<i id="mchanga-kept-end" hidden><\/i><\/div>/);
    await expect.poll(() => page.locator('#root').getAttribute('data-snapshot')).toBeNull();
    await page.getByText('You have no orders yet.').waitFor();
    expect(await page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual([]);
    expect(await page.locator('#root').getAttribute('inert')).toBeNull();

    // Logout: no kept screen stays.
    await openMenuIfCollapsed(page);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.evaluate(async () => (await caches.keys()).includes('mchanga-snapshots'))).toBe(false);
    await phone.close();
  }, 90_000);

  it('keeps a long screen down to two screen heights only, and the app draws the rest (issue 28: repeat visits)', async () => {
    const email = `kept-long-${Date.now()}@example.co.ke`;
    const password = 'kept-pass-1234';
    const { token } = await api<{ token: string }>(phones.baseURL, 'POST', '/api/auth/register', {
      name: 'Otieno Builders',
      email,
      password,
    });
    const sites = ['Kenol', 'Makuyu', 'Gatanga', 'Kandara', 'Mang’u', 'Witeithie'].map((s) => `${s} site`);
    for (const site of sites)
      await api(phones.baseURL, 'POST', '/api/orders', { site, sandType: 'coarse', trucks: 1 }, token);
    const phone = await phones.launch(phones.newProfile());
    const page = phone.pages()[0] ?? (await phone.newPage());
    await signIn(page, { email, password }, '/customer');
    await untilControlled(page);
    for (const site of sites) await page.getByText(site).first().waitFor({ state: 'attached' });
    // Where each order's site line and card are on the page: a site line wholly within two screens from
    // the top is kept (its card may go on below them), a card wholly below them is not.
    const places = await page.evaluate(
      (sites) =>
        sites.map((site) => {
          const line = [...document.querySelectorAll('dd')].find((d) => d.textContent === site)!;
          const card = line.closest('article')!;
          return {
            site,
            line: line.getBoundingClientRect().bottom + scrollY,
            card: card.getBoundingClientRect().top + scrollY,
            cut: 2 * innerHeight,
          };
        }),
      sites,
    );
    const within = places.filter((p) => p.line <= p.cut).map((p) => p.site);
    const below = places.filter((p) => p.card >= p.cut).map((p) => p.site);
    expect(within.length).toBeGreaterThan(0);
    expect(below.length).toBeGreaterThan(0);
    const kept = () =>
      page.evaluate(async () => (await (await caches.open('mchanga-snapshots')).match('/customer'))?.text());
    await expect.poll(kept).toContain(within[0]);
    const screen = (await kept())!;
    for (const site of within) expect(screen).toContain(site);
    for (const site of below) expect(screen).not.toContain(site);

    // The repeat visit paints the kept top; the app then draws every order.
    const html = (await (await page.goto('/customer'))?.text()) ?? '';
    expect(html).toContain(within[0]);
    expect(html).not.toContain(below[0]);
    await expect.poll(() => page.locator('#root').getAttribute('data-snapshot')).toBeNull();
    for (const site of sites) await page.getByText(site).first().waitFor({ state: 'attached' });
    await phone.close();
  }, 90_000);
});
