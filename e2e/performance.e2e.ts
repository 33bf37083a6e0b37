/**
 * Issue 12 in the browser and in the build that `npm start` made for these tests: the landing budget,
 * the pre-rendered landing page (readable and typable before its script, hydrated without a mismatch),
 * and the service worker (precached shell and screens, no API answers, pages working without it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  appClosure,
  appKey,
  DEFAULT_DIST,
  entryKey,
  LANDING_BUDGET_BROTLI,
  readManifest,
  routeModules,
  sizeReport,
  staticClosure,
} from '../bench/size';
import { formatMoney } from '../shared/domain/format';
import type { TAuthResult } from '../shared/schemas/auth';
import type { TPricingInfo } from '../shared/schemas/pricing';
import { SCREEN_COOKIE } from '../shared/screen-cookie';
import {
  addScreenCookie,
  api,
  launchBrowser,
  newPage,
  openMenuIfCollapsed,
  PHONE,
  signInThroughForm,
} from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/global-app';
import { sharedAppURL } from './support/shared-app';

const baseURL = sharedAppURL();
const ROUTES_SOURCE = readFileSync(join(DEFAULT_DIST, '..', '..', 'client', 'routes.tsx'), 'utf8');
const PHONE_CONTEXT = { viewport: PHONE, isMobile: true, hasTouch: true };
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Collects what would tell of a failed hydration: console errors and uncaught exceptions. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/**
 * A phone with no cache and no service worker, signed in as the app keeps a session (localStorage, set
 * before the app's scripts run) and with the screen cookie beside it: its loads of the user's screens
 * come drawn by the server.
 */
async function coldSignedInPhone(user: { token: string; role: string; name: string; email: string }) {
  const context = await browser.newContext({ ...PHONE_CONTEXT, baseURL, serviceWorkers: 'block' });
  await addScreenCookie(context, baseURL, { token: user.token, user: { role: user.role } });
  await context.addInitScript((u) => {
    localStorage.setItem('token', u.token);
    localStorage.setItem('role', u.role);
    localStorage.setItem('userName', u.name);
    localStorage.setItem('userEmail', u.email);
  }, user);
  return context;
}

/** The shared app's ADMIN, signed in through the API, as coldSignedInPhone takes a user. */
async function signedInAdmin() {
  const { token } = await api<TAuthResult>(baseURL, 'POST', '/api/auth/login', {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  });
  return { token, role: 'ADMIN', name: 'Admin', email: ADMIN_EMAIL };
}

describe('the build (dist/client, made by npm start)', () => {
  it('keeps the JavaScript the landing page loads first within 90 KB brotli', () => {
    // Throws (fails) when the build or its manifest is missing: the budget is never skipped.
    const report = sizeReport(DEFAULT_DIST, ROUTES_SOURCE);
    expect(report.landing.brotli).toBeGreaterThan(50 * 1024);
    expect(report.landing.brotli).toBeLessThanOrEqual(LANDING_BUDGET_BROTLI);
  });

  it('builds the app as one chunk the entry does not import: it starts it after the first paint (client/boot.ts)', () => {
    const manifest = readManifest(DEFAULT_DIST);
    const entry = entryKey(manifest);
    const app = appKey(manifest);
    expect(app).toBeDefined();
    expect(manifest[entry]!.dynamicImports).toEqual([app]);
    // Nothing of the app runs with the entry: it imports only the preload helper (vite.config.ts groups).
    expect(staticClosure(manifest, [entry]).has(app!)).toBe(false);
    const withEntry = [...staticClosure(manifest, [entry])].filter((k) => k !== entry);
    expect(withEntry.map((k) => manifest[k]!.file)).toEqual([
      expect.stringMatching(/^assets\/preload-helper-[\w-]+\.js$/),
    ]);
    // React, the session, the language and the enums come in the app's chunk, not as chunks of their own.
    expect(
      Object.values(manifest)
        .map((c) => c.file)
        .filter((f) => /\/(react|session|language-key|enums)-[\w-]+\.js$/.test(f)),
    ).toEqual([]);
  });

  it('gives every route a lazy chunk of its own, and keeps zod, the map, the charts and CSV out of the landing', () => {
    const manifest = readManifest(DEFAULT_DIST);
    const routes = routeModules(ROUTES_SOURCE);
    expect(routes.size).toBeGreaterThanOrEqual(10);
    for (const [path, module] of routes) {
      expect(manifest[module]?.isDynamicEntry, path).toBe(true);
      expect(appClosure(manifest).has(module), path).toBe(false);
    }
    const landing = appClosure(manifest, routes.get('/')!);
    const code = [...landing]
      .map((k) => readFileSync(join(DEFAULT_DIST, manifest[k]!.file), 'utf8'))
      .join('\n');
    for (const marker of ['ZodError', 'maplibre', 'visx', 'Papa.parse'])
      expect(code, marker).not.toContain(marker);
  });

  it('leaves out the shared schemas the client does not use (scripts/pure-schemas.ts)', () => {
    const dir = join(DEFAULT_DIST, 'assets');
    const code = readdirSync(dir)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('\n');
    // The finance summary's answer schema (shared/schemas/money.ts ZFinanceSummary: only the server
    // parses with it; the client takes its type) was built by every screen that imports money.ts.
    expect(code).not.toMatch(/costTotal:\w+\(\)/);
    // The cost form's schema (ZCostInput), which the client validates with, is still there.
    expect(code).toContain("Choose one of this truck's loads.");
  });

  it('serves every other screen as index.html that preloads that screen’s own chunks and the API layer', async () => {
    const manifest = readManifest(DEFAULT_DIST);
    const inEntry = appClosure(manifest);
    const OPS = 'features/ops/OpsPage.tsx';
    for (const [url, modules] of [
      ['/fuel', ['features/fuel/FuelPage.tsx']],
      ['/driver', ['features/driver/DriverPage.tsx']],
      // Each workspace tab is a chunk of its own, preloaded by its own page; a bare /ops preloads the
      // first tab of ADMIN and of OPS.
      ['/ops/fleet', [OPS, 'features/ops-fleet/FleetTab.tsx']],
      ['/ops/orders', [OPS, 'features/ops-orders/OrdersTab.tsx']],
      ['/ops', [OPS, 'features/ops-overview/OverviewTab.tsx', 'features/ops-stock/StockTab.tsx']],
      ['/track/any-token', ['features/track/TrackPage.tsx']],
    ] as const) {
      const html = await (await fetch(`${baseURL}${url}`)).text();
      const preloaded = [...html.matchAll(/rel="modulepreload" crossorigin href="\/([^"]+)"/g)].map(
        (m) => m[1],
      );
      // The API layer: a chunk of its own, or (vite.config.ts sharedChunks) in the screens' shared chunk.
      const api = manifest['api.tsx']
        ? ['api.tsx']
        : Object.keys(manifest).filter((k) => k.startsWith('_shared-'));
      expect(api, 'the API layer’s chunk').toHaveLength(1);
      const wanted = [...staticClosure(manifest, [...modules, ...api])]
        .filter((k) => !inEntry.has(k))
        .map((k) => manifest[k]!.file);
      expect(preloaded, url).toEqual(expect.arrayContaining(wanted));
      // A few files, not dozens (vite.config.ts sharedChunks): over HTTP/1.1 each is a round trip, and the
      // browser starts each one before it goes on parsing the page. 28–42 before, 8–10 since.
      expect(preloaded.length, url).toBeLessThanOrEqual(10);
      // Not the map: it loads when the screen shows it. Nor a tab not opened. (The charts come with the
      // screens that draw them, in `wanted`: the server draws them with the screen.)
      expect(
        preloaded.filter((f) => /maplibre|FleetMap|AuditTab/.test(f!)),
        url,
      ).toEqual([]);
      // The code is not what the page first shows (client/boot.ts): every module tag asks for low priority
      // (server/route-html.ts MODULE_PRIORITY), the first data request (an inline fetch) keeps the default.
      const moduleTags = html.match(/<(?:script type="module"|link rel="modulepreload")[^>]*>/g) ?? [];
      expect(moduleTags.length, url).toBeGreaterThan(preloaded.length);
      expect(
        moduleTags.filter((tag) => !tag.endsWith(' fetchpriority="low">')),
        url,
      ).toEqual([]);
    }
  });

  it('has brotli and gzip files next to the built assets and index.html', async () => {
    const manifest = readManifest(DEFAULT_DIST);
    const files = ['index.html', ...Object.values(manifest).map((c) => c.file)];
    for (const file of files) {
      const raw = readFileSync(join(DEFAULT_DIST, file));
      if (raw.length < 1024) continue;
      expect(readFileSync(join(DEFAULT_DIST, `${file}.br`)).length, file).toBeLessThan(raw.length);
      expect(readFileSync(join(DEFAULT_DIST, `${file}.gz`)).length, file).toBeLessThan(raw.length);
    }
  });
});

describe('the server', () => {
  it('sends the build precompressed (brotli, else gzip) with Vary, immutable hashed assets and a revalidated shell', async () => {
    const manifest = readManifest(DEFAULT_DIST);
    const entry = `/${manifest[entryKey(manifest)]!.file}`;
    const get = (path: string, acceptEncoding: string) =>
      fetch(`${baseURL}${path}`, { headers: { 'accept-encoding': acceptEncoding } });

    for (const [accept, encoding] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
    ] as const) {
      const asset = await get(entry, accept);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-encoding'), accept).toBe(encoding);
      expect(asset.headers.get('vary'), accept).toMatch(/accept-encoding/i);
      expect(asset.headers.get('content-type')).toMatch(/javascript/);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // What arrives decodes to the built file.
      expect(await asset.text()).toBe(readFileSync(join(DEFAULT_DIST, entry), 'utf8'));

      // The shell a signed-in screen is answered with, and the service worker: never cached unchecked.
      for (const path of ['/index.html', '/ops', '/sw.js']) {
        const res = await get(path, accept);
        expect(res.headers.get('content-encoding'), `${path} ${accept}`).toBe(encoding);
        expect(res.headers.get('vary'), path).toMatch(/accept-encoding/i);
        expect(res.headers.get('cache-control'), path).toBe('no-cache');
      }
    }

    const plain = await get(entry, 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(Number(plain.headers.get('content-length'))).toBe(readFileSync(join(DEFAULT_DIST, entry)).length);
  });
});

describe('the pre-rendered landing page', () => {
  it('holds the hero, the live prices, the quote form and the dispatch card before any script', async () => {
    const pricing = await api<TPricingInfo>(baseURL, 'GET', '/api/pricing');
    const res = await fetch(`${baseURL}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = await res.text();
    for (const text of [
      'Sand delivered by the truck load',
      formatMoney(pricing.basePrice),
      formatMoney(pricing.incrementAmount),
      'Get a quote and order',
      'Delivery site',
      'Place order',
      'Dispatch',
      pricing.dispatch.phone,
    ])
      expect(html, text).toContain(text);
    // The data it was rendered from, for the browser to hydrate with.
    expect(html).toContain('<script type="application/json" id="mchanga-prerendered">');

    // With scripts off, a phone shows the prices and takes typing.
    const context = await browser.newContext({ ...PHONE_CONTEXT, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseURL}/`);
    expect(await page.getByRole('heading', { name: 'Sand delivered by the truck load' }).isVisible()).toBe(
      true,
    );
    expect(await page.getByText(formatMoney(pricing.basePrice), { exact: true }).isVisible()).toBe(true);
    expect(
      await page.getByText(`+${formatMoney(pricing.incrementAmount)}`, { exact: true }).isVisible(),
    ).toBe(true);
    await page.getByLabel('Delivery site').fill('Kamakis, Ruiru');
    expect(await page.getByLabel('Delivery site').inputValue()).toBe('Kamakis, Ruiru');
    await context.close();
  });

  it('hydrates without a mismatch and keeps what was typed before the script arrived', async () => {
    const { context, page } = await newPage(browser, baseURL, PHONE);
    const errors = watchErrors(page);
    let release!: () => void;
    const scripts = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/*.js', async (route) => {
      await scripts;
      await route.continue();
    });
    await page.goto('/', { waitUntil: 'commit' });
    await page.getByLabel('Delivery site').fill('Membley estate, Ruiru');
    await page.getByLabel('Your name').fill('Wanjiru Kamau');
    await page.getByLabel('Trucks (20 t each)').selectOption('3');
    await page.getByLabel('Create a portal login to track this order').check();
    release();

    // Hydrated: the quote for what was typed (3 trucks to that site) appears, and the login fields open.
    await expect
      .poll(() => page.getByText(/^3 × KES [\d,]+ per truck/).isVisible(), { timeout: 20_000 })
      .toBe(true);
    expect(await page.getByLabel('Delivery site').inputValue()).toBe('Membley estate, Ruiru');
    expect(await page.getByLabel('Your name').inputValue()).toBe('Wanjiru Kamau');
    expect(await page.getByLabel('Portal password', { exact: true }).isVisible()).toBe(true);
    await page.getByLabel('Delivery site').fill('Juja');
    await expect.poll(() => page.getByText(/^3 × KES [\d,]+ per truck · [\d.]+ km/).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** A newly registered customer with one order for `site`: how to sign in, and the order's number. */
async function customerWithOrder(site: string) {
  const email = `customer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@e2e.test`;
  const password = 'customer-pass-123';
  const { token } = await api<{ token: string }>(baseURL, 'POST', '/api/auth/register', {
    name: 'Wanjiru Kamau',
    email,
    password,
    phone: '0711 222 333',
  });
  const order = await api<{ id: number }>(
    baseURL,
    'POST',
    '/api/orders',
    { site, sandType: 'coarse', trucks: 1, distanceKm: 18.5 },
    token,
  );
  return { email, password, token, orderId: order.id };
}

describe("a tracking link's page (issue 28)", () => {
  /** A customer's new order, as its tracking link's path and the delivery code the page shows. */
  async function trackedOrder(): Promise<{ id: number; path: string; code: string }> {
    const { token, orderId } = await customerWithOrder('Membley Estate, Ruiru');
    const mine = await api<{ id: number; trackingUrl: string }[]>(
      baseURL,
      'GET',
      '/api/orders/my',
      undefined,
      token,
    );
    const path = new URL(mine.find((o) => o.id === orderId)!.trackingUrl, baseURL).pathname;
    const tracking = await api<{ deliveryCode: string }>(baseURL, 'GET', `/api${path}`);
    return { id: orderId, path, code: tracking.deliveryCode };
  }

  it('holds the order, its delivery code and its loads before any script, and is kept by no cache', async () => {
    const { id, path, code } = await trackedOrder();
    const res = await fetch(`${baseURL}${path}`, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const html = await res.text();
    for (const text of [`Order #${id}`, 'Awaiting Payment', 'Delivery code:', code, 'Membley Estate, Ruiru'])
      expect(html, text).toContain(text);
    expect(html).toContain('<script type="application/json" id="mchanga-prerendered">');
    // The stylesheet is in the page: it paints without waiting for another request (its link is left
    // disabled, never fetched).
    expect(html).toContain('<style>');
    expect(html.match(/<link rel="stylesheet"[^>]*>/g)).toEqual([
      expect.stringMatching(/^<link rel="stylesheet" href="\/assets\/index-[\w-]+\.css" disabled>$/),
    ]);

    const context = await browser.newContext({ ...PHONE_CONTEXT, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseURL}${path}`);
    expect(await page.getByRole('heading', { name: `Order #${id}` }).isVisible()).toBe(true);
    expect(await page.getByText(code, { exact: true }).isVisible()).toBe(true);
    await context.close();

    // An unknown link: the page as built, which asks for itself and says so.
    const unknown = await fetch(`${baseURL}/track/0123456789abcdef0123456789abcdef`);
    expect(unknown.status).toBe(200);
    expect(unknown.headers.get('cache-control')).toBe('no-cache');
    expect(await unknown.text()).not.toContain('id="mchanga-prerendered"');
  });

  it("hydrates without a mismatch, shows the site's map at a tap, renders over it in Kiswahili, and the service worker does not keep it", async () => {
    const { id, path, code } = await trackedOrder();
    const { context, page } = await newPage(browser, baseURL, PHONE);
    const errors = watchErrors(page);
    const requested: string[] = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(path);
    await page.getByText(code, { exact: true }).waitFor();
    // Hydrated: the menu opens.
    await expect
      .poll(async () => {
        await page.getByRole('button', { name: 'Menu' }).click();
        return page.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded');
      })
      .toBe('true');
    expect(errors.filter((e) => !/ERR_NAME_NOT_RESOLVED|Failed to load resource/.test(e))).toEqual([]);

    // The map (here only the site) is a tap away, its code not fetched. The server drew the same
    // placeholder (a lazy map there left React a boundary to redo, a hydration error).
    await page.waitForLoadState('networkidle');
    const maplibre = () => requested.filter((p) => /maplibre/.test(p)).length;
    expect(maplibre()).toBe(0);
    const held = (await page.locator('[data-map="placeholder"]').boundingBox())!;
    await page.getByRole('button', { name: 'Show map' }).click();
    const map = page.locator('section.fleet-map-block[data-ready="true"]');
    await map.waitFor({ timeout: 30_000 });
    expect(maplibre()).toBeGreaterThan(0);
    // In the placeholder's place, at its height: nothing under it moved.
    expect(Math.round((await map.boundingBox())!.height)).toBe(Math.round(held.height));

    // Opened again under the service worker: from the network, not a kept copy.
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null).catch(() => false))
      .toBe(true);
    await page.goto(path);
    await page.getByText(code, { exact: true }).waitFor();
    const kept = await page.evaluate(async () =>
      (await (await caches.open('mchanga-pages')).keys()).map((r) => new URL(r.url).pathname),
    );
    expect(kept.filter((p) => p.startsWith('/track/'))).toEqual([]);

    // A phone set to Kiswahili: the English page is rendered over, in Kiswahili, without an error.
    await page.evaluate(() => localStorage.setItem('mchanga.language', 'sw'));
    await page.goto(path);
    await expect
      .poll(() => page.getByRole('heading', { name: `Agizo #${id}` }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    expect(await page.getByText(code, { exact: true }).isVisible()).toBe(true);
    expect(errors.filter((e) => !/ERR_NAME_NOT_RESOLVED|Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  });
});

describe('a signed-in screen drawn by the server with its data (issue 28)', () => {
  const screenCookies = async (context: BrowserContext) =>
    (await context.cookies(`${baseURL}/customer`))
      .concat(await context.cookies(`${baseURL}/order`))
      .filter((c) => c.name === SCREEN_COOKIE);

  it("keeps the screen cookie with the session, and My Orders comes with the customer's orders in it", async () => {
    const { email, password, orderId } = await customerWithOrder('Witeithie Stage, Juja');
    const { context, page } = await newPage(browser, baseURL, PHONE);
    const errors = watchErrors(page);
    await signInThroughForm(page, email, password);
    await page.waitForURL('**/customer');
    // Written with the session: on the customer's own screens only, same-site, the language and the
    // viewport's width in front.
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const cookies = await screenCookies(context);
    expect(cookies.map((c) => [c.path, c.value, c.sameSite, c.httpOnly])).toEqual([
      ['/customer', `en.${PHONE.width}.${token}`, 'Strict', false],
      ['/order', `en.${PHONE.width}.${token}`, 'Strict', false],
    ]);
    expect((await context.cookies(`${baseURL}/ops`)).filter((c) => c.name === SCREEN_COOKIE)).toEqual([]);

    // The page for that cookie has the order in its HTML, and no one else's or the token.
    const drawn = await page.request.get('/customer');
    expect(drawn.headers()['cache-control']).toBe('private, no-store');
    const html = await drawn.text();
    expect(html).toContain('Witeithie Stage, Juja');
    expect(html).toContain(`#${orderId}`);
    expect(html).toContain('<div id="root" data-shell="" inert="" aria-busy="true">');
    expect(html).not.toContain(token!);

    // A phone that has not run a line of the app yet shows it.
    const session = { token: token!, user: { role: 'CUSTOMER' } };
    const still = await browser.newContext({ ...PHONE_CONTEXT, baseURL, javaScriptEnabled: false });
    await addScreenCookie(still, baseURL, session);
    const stillPage = await still.newPage();
    await stillPage.goto('/customer');
    expect(await stillPage.getByText('Witeithie Stage, Juja').first().isVisible()).toBe(true);
    await still.close();

    // Opened cold, the app draws over it (no hydration to mismatch) and the screen works.
    const cold = await coldSignedInPhone({ token: token!, role: 'CUSTOMER', name: 'Wanjiru Kamau', email });
    const coldPage = await cold.newPage();
    const coldErrors = watchErrors(coldPage);
    const first = coldPage.waitForResponse((r) => new URL(r.url()).pathname === '/customer');
    await coldPage.goto('/customer');
    expect(await (await first).text()).toContain('Witeithie Stage, Juja');
    await expect.poll(() => coldPage.locator('#root').getAttribute('inert')).toBeNull();
    expect(await coldPage.locator('#root').getAttribute('data-shell')).toBeNull();
    expect(await coldPage.getByText('Witeithie Stage, Juja').first().isVisible()).toBe(true);
    await expect
      .poll(async () => {
        await coldPage.getByRole('button', { name: 'Menu' }).click();
        return coldPage.getByRole('button', { name: 'Menu' }).getAttribute('aria-expanded');
      })
      .toBe('true');
    expect(coldErrors).toEqual([]);
    await cold.close();

    // The language switch: the cookie says Kiswahili, and the server draws the screen in it.
    await openMenuIfCollapsed(page);
    await page.getByLabel('Language').selectOption('sw');
    await expect
      .poll(async () => (await screenCookies(context)).map((c) => c.value.slice(0, 3)))
      .toEqual(['sw.', 'sw.']);
    const swahili = await (await page.request.get('/customer')).text();
    expect(swahili).toContain('<html lang="sw">');
    expect(swahili).toContain('Maagizo Yangu');
    expect(swahili).toContain('Witeithie Stage, Juja');
    await page.evaluate(() => localStorage.setItem('mchanga.language', 'en'));
    await page.reload();
    await expect
      .poll(async () => (await screenCookies(context)).map((c) => c.value.slice(0, 3)))
      .toEqual(['en.', 'en.']);

    // The window made wider (a tablet turned): the cookie follows, so the next cold load is drawn wide.
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect
      .poll(async () => (await screenCookies(context)).map((c) => c.value.split('.').slice(0, 2).join('.')))
      .toEqual(['en.1024', 'en.1024']);

    // Logout drops it from every path: the page no longer has anyone's data.
    await openMenuIfCollapsed(page);
    await page.getByRole('button', { name: /^(Logout|Ondoka)$/ }).click();
    await page.waitForURL(`${baseURL}/`);
    await expect.poll(async () => (await screenCookies(context)).length).toBe(0);
    const after = await (await page.request.get('/customer')).text();
    expect(after).not.toContain('Witeithie Stage, Juja');
    expect(after).not.toContain('mchanga-prerendered');
    expect(errors.filter((e) => !/ERR_NAME_NOT_RESOLVED|Failed to load resource/.test(e))).toEqual([]);
    await context.close();
  });
});

describe('the stylesheet written into the page (issue 28)', () => {
  it("is not fetched and applied a second time by a workspace tab's lazy import", async () => {
    const admin = await signedInAdmin();
    for (const path of ['/ops/finance', '/ops/orders']) {
      const context = await coldSignedInPhone(admin);
      const page = await context.newPage();
      const errors = watchErrors(page);
      const stylesheets: string[] = [];
      page.on('request', (r) => {
        if (r.resourceType() === 'stylesheet') stylesheets.push(r.url());
      });
      await page.goto(path);
      // The server drew the screen; the app draws over it once the tab's chunk (a lazy import of the
      // workspace's, which lists the entry's stylesheet among its dependencies) has loaded.
      await expect.poll(() => page.locator('#root').getAttribute('inert')).toBeNull();
      await page.waitForLoadState('networkidle');
      expect(stylesheets, path).toEqual([]);
      const sheets = await page.evaluate(() =>
        [...document.styleSheets].map((sheet) => ({ inline: sheet.href === null, disabled: sheet.disabled })),
      );
      expect(
        sheets.filter((sheet) => !sheet.disabled),
        path,
      ).toEqual([{ inline: true, disabled: false }]);
      expect(errors, path).toEqual([]);
      await context.close();
    }
  });
});

/** When the page's first contentful paint and the app's start (client/boot.ts) were, or null. */
function paintAndStart(page: Page) {
  return page.evaluate(() => ({
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    start: performance.getEntriesByName('mchanga:app-start')[0]?.startTime ?? null,
  }));
}

describe('the app starts after the screen in the page has painted (client/boot.ts, issue 28)', () => {
  it('on a fast network and a slow phone, a drawn screen paints before the app runs; an empty page starts it at once', async () => {
    const context = await coldSignedInPhone(await signedInAdmin());
    const startedAfterPaint = async (page: Page, path: string) => {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      await page.goto(path);
      await expect
        .poll(() => page.evaluate(() => performance.getEntriesByName('mchanga:app-start').length), {
          timeout: 30_000,
        })
        .toBe(1);
      // The app has run: a staff screen drawn by the server is live.
      await expect.poll(() => page.locator('#root').getAttribute('inert'), { timeout: 30_000 }).toBeNull();
      return {
        ...(await paintAndStart(page)),
        // The app's code came before it ran: the page preloads it beside the entry.
        preloaded: await page.evaluate(() =>
          [...document.querySelectorAll('link[rel="modulepreload"]')].some((l) =>
            /\/assets\/main-[\w-]+\.js$/.test((l as HTMLLinkElement).href),
          ),
        ),
      };
    };
    for (const path of ['/ops/orders', '/', '/ops/finance']) {
      const page = await context.newPage();
      const errors = watchErrors(page);
      const timing = await startedAfterPaint(page, path);
      expect(timing.paint, path).not.toBeNull();
      expect(timing.start, path).not.toBeNull();
      expect(timing.start!, path).toBeGreaterThanOrEqual(timing.paint!);
      expect(timing.preloaded, path).toBe(true);
      expect(errors, path).toEqual([]);
      await page.close();
    }
    await context.close();

    // Nothing in the page to paint (the built shell, as the service worker's precache has it): at once.
    const { context: bare, page } = await newPage(browser, baseURL, PHONE);
    await page.goto('/index.html');
    await page.locator('#root > *').first().waitFor();
    // Its first paint is reported once presented, a moment after the app's render is in the page.
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length))
      .toBe(1);
    const bareTiming = await paintAndStart(page);
    expect(bareTiming.start).not.toBeNull();
    expect(bareTiming.paint).not.toBeNull();
    expect(bareTiming.start!).toBeLessThan(bareTiming.paint!);
    await bare.close();
  });
});

/** Forced recalculations or layouts of more than this many elements are the screen's, not a label's. */
const FORCED_WORK_LIMIT = 20;

/**
 * Style and layout the app's own code made the browser do at once over more than FORCED_WORK_LIMIT
 * elements (a read of a size or position right after the DOM changed), from a Chrome trace of the page:
 * each forced recalculation or layout carries the script's stack, the browser's own ones none. (The charts'
 * labels measure their words on one hidden element, visx's Text: a few elements each.)
 */
async function forcedLayoutsWhile(page: Page, load: () => Promise<void>): Promise<string[]> {
  const browser = page.context().browser()!;
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'disabled-by-default-devtools.timeline.stack',
    ],
  });
  await load();
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
    traceEvents: {
      name: string;
      dur?: number;
      args?: {
        elementCount?: number;
        beginData?: { stackTrace?: { url: string }[]; dirtyObjects?: number };
      };
    }[];
  };
  return trace.traceEvents.flatMap((e) => {
    const work =
      e.name === 'UpdateLayoutTree'
        ? (e.args?.elementCount ?? 0)
        : e.name === 'Layout'
          ? (e.args?.beginData?.dirtyObjects ?? 0)
          : 0;
    const script = e.args?.beginData?.stackTrace?.find((f) => /\/assets\//.test(f.url));
    return script && work > FORCED_WORK_LIMIT
      ? [`${e.name} of ${work} (${((e.dur ?? 0) / 1000).toFixed(1)} ms) from ${script.url}`]
      : [];
  });
}

describe('the first render over a drawn screen (issue 28: long tasks on /ops/finance and My Orders)', () => {
  it('makes the browser lay nothing out inside its script: the charts and the payment box measure by observing', async () => {
    const { email, token } = await customerWithOrder('Kenol Junction, Makuyu');
    const customer = await coldSignedInPhone({ token, role: 'CUSTOMER', name: 'Wanjiru Kamau', email });
    const staff = await coldSignedInPhone(await signedInAdmin());
    for (const [context, path, measured] of [
      [customer, '/customer', '.pay-box'],
      [staff, '/ops/finance', '.chart-frame svg'],
    ] as const) {
      const page = await context.newPage();
      const errors = watchErrors(page);
      const forced = await forcedLayoutsWhile(page, async () => {
        await page.goto(path);
        await expect.poll(() => page.locator('#root').getAttribute('inert'), { timeout: 30_000 }).toBeNull();
        // What measures itself is on the screen the app drew (the chart drawn at its measured width).
        await page.locator(measured).first().waitFor();
        await page.waitForTimeout(300);
      });
      expect(forced, path).toEqual([]);
      expect(errors, path).toEqual([]);
      await page.close();
    }
    await customer.close();
    await staff.close();
  });
});

/**
 * Records on the page every Intl object made (formatters, collators: each names its stack) and every
 * call that makes one behind the scenes (localeCompare, toLocaleString).
 */
function recordIntl(context: BrowserContext) {
  // As written, not transpiled: this runs in the page before its scripts.
  return context.addInitScript({
    content: `(() => {
      const made = (window.intlMade = []);
      const where = () => (new Error().stack || '').split('\\n').slice(3, 5).join(' < ');
      for (const kind of ['NumberFormat', 'DateTimeFormat', 'Collator', 'RelativeTimeFormat', 'ListFormat', 'DisplayNames']) {
        const Real = Intl[kind];
        function Recorded(...args) {
          made.push(kind + ' ' + JSON.stringify(args) + ' ' + where());
          return new Real(...args);
        }
        Recorded.prototype = Real.prototype;
        Recorded.supportedLocalesOf = Real.supportedLocalesOf;
        Intl[kind] = Recorded;
      }
      for (const [proto, name] of [
        [String.prototype, 'localeCompare'],
        [Number.prototype, 'toLocaleString'],
        [Date.prototype, 'toLocaleString'],
        [Date.prototype, 'toLocaleDateString'],
        [Date.prototype, 'toLocaleTimeString'],
      ]) {
        const real = proto[name];
        proto[name] = function (...args) {
          made.push(name + ' ' + where());
          return real.apply(this, args);
        };
      }
    })();`,
  });
}

describe('a screen as it opens (issue 28: the first Intl formatter cost ~40 ms of main thread)', () => {
  it('writes its figures and dates without Intl: the public pages, My Orders and the staff screens', async () => {
    const { email, token } = await customerWithOrder('Kenol Junction, Makuyu');
    const visitor = await browser.newContext({ ...PHONE_CONTEXT, baseURL, serviceWorkers: 'block' });
    const customer = await coldSignedInPhone({ token, role: 'CUSTOMER', name: 'Wanjiru Kamau', email });
    const staff = await coldSignedInPhone(await signedInAdmin());
    const visits = [
      [visitor, '/', 'KES'],
      [customer, '/customer', 'Kenol Junction, Makuyu'],
      [customer, '/order', 'KES'],
      [staff, '/ops/orders', 'Kenol Junction, Makuyu'],
      [staff, '/ops/finance', 'KES'],
      [staff, '/ops/audit', 'Entries confirmed as intentional duplicates'],
    ] as const;
    for (const context of [visitor, customer, staff]) await recordIntl(context);
    for (const [context, path, shown] of visits) {
      const page = await context.newPage();
      const errors = watchErrors(page);
      await page.goto(path);
      await expect
        .poll(() => page.evaluate(() => performance.getEntriesByName('mchanga:app-rendered').length), {
          timeout: 30_000,
        })
        .toBe(1);
      await page.locator('main').getByText(shown).first().waitFor({ timeout: 30_000 });
      await page.waitForTimeout(500);
      const made = await page.evaluate(() => (window as unknown as { intlMade: string[] }).intlMade);
      expect(made, path).toEqual([]);
      expect(errors, path).toEqual([]);
      await page.close();
    }
    for (const context of [visitor, customer, staff]) await context.close();
  });
});

describe('the service worker', () => {
  it('precaches the shell and the screens (not API answers), so signed-out screens open offline', async () => {
    const { context, page } = await newPage(browser, baseURL, PHONE);
    await page.goto('/');
    const precached = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      // `ready` resolves once a worker is active, which may still be 'activating' (cleaning old caches).
      const worker = registration.active!;
      if (worker.state === 'activating')
        await new Promise((resolve) => worker.addEventListener('statechange', resolve, { once: true }));
      const names = await caches.keys();
      const urls: string[] = [];
      for (const name of names)
        for (const request of await (await caches.open(name)).keys())
          urls.push(new URL(request.url).pathname);
      return { active: registration.active?.state, urls };
    });
    expect(precached.active).toBe('activated');
    const manifest = readManifest(DEFAULT_DIST);
    for (const module of routeModules(ROUTES_SOURCE).values())
      expect(precached.urls, module).toContain(`/${manifest[module]!.file}`);
    expect(precached.urls).toContain('/index.html');
    expect(precached.urls.filter((u) => u.startsWith('/api/') || u.startsWith('/trpc'))).toEqual([]);

    const sw = await fetch(`${baseURL}/sw.js`);
    expect(sw.headers.get('cache-control')).toBe('no-cache');

    await context.setOffline(true);
    await page.goto('/login');
    await expect.poll(() => page.getByLabel('Email').isVisible(), { timeout: 15_000 }).toBe(true);
    await context.setOffline(false);
    await context.close();
  });

  it("answers a screen's address with the server's page for it, kept as last received (issue 28: repeat visits)", async () => {
    const { context, page } = await newPage(browser, baseURL, PHONE);
    // The page that installs the worker is kept when it activates; another is kept when first opened.
    await page.goto('/login');
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null).catch(() => false))
      .toBe(true);
    await page.goto('/register');
    await page.getByLabel('Email').waitFor();
    const kept = () =>
      page.evaluate(async () =>
        (await (await caches.open('mchanga-pages')).keys()).map((r) => new URL(r.url).pathname).sort(),
      );
    await expect.poll(kept).toEqual(['/login', '/register']);

    // Offline, each comes back as the server sent it, with its top in the HTML (the guest variant), not
    // the bare shell; without its modulepreloads (the chunks come from the precache).
    await context.setOffline(true);
    for (const [path, label] of [
      ['/login', 'Email'],
      ['/register', 'Email'],
    ] as const) {
      const response = await page.goto(path);
      expect(response?.fromServiceWorker(), path).toBe(true);
      const html = (await response?.text()) ?? '';
      expect(html, path).toContain('id="mchanga-shell"');
      expect(html, path).not.toContain('modulepreload');
      await expect.poll(() => page.getByLabel(label).isVisible(), { timeout: 15_000 }).toBe(true);
    }
    // An address it has never kept: the precached shell, at once.
    const articles = await page.goto('/articles');
    expect(await articles?.text()).not.toContain('id="mchanga-shell"');
    await context.setOffline(false);
    await context.close();
  });

  it('is not needed: with service workers blocked the landing page and sign-in work', async () => {
    const context = await browser.newContext({ ...PHONE_CONTEXT, baseURL, serviceWorkers: 'block' });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto('/');
    await expect
      .poll(() =>
        page
          .getByText(/KES [\d,]+/)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await page.goto('/login');
    await page.getByLabel('Email').fill(inject('adminEmail'));
    await page.getByLabel('Password').fill(inject('adminPassword'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/ops');
    expect(await page.evaluate(() => navigator.serviceWorker?.controller ?? null)).toBeNull();
    expect(errors.filter((e) => !/Service worker/.test(e))).toEqual([]);
    await context.close();
  });
});
