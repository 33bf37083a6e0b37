/**
 * Issue 28, the staff screens' load path, in the build `npm start` made for these tests: /fuel's fleet
 * map (maplibre) is not part of the screen's first load; it loads once scrolled near or tapped, in a
 * place held at its height from the first paint. /ops/fleet on a phone opens on its truck cards, the map
 * under them loading at a tap; on a wider screen the map is above them and loads with the tab. A staff screen's first data request starts from the
 * HTML, beside the app code, and the app adopts its answer instead of asking again. Its top (header,
 * title, subtitle) comes with the HTML too, in the user's language, and the app renders the same over it;
 * with the screen cookie the whole screen does, with its data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  appClosure,
  appKey,
  DEFAULT_DIST,
  entryKey,
  readManifest,
  routeModules,
  staticClosure,
} from '../bench/size';
import { WORKSPACE_TABS } from '../client/features/ops/tab-list';
import { FIRST_DATA, type FirstCall } from '../shared/first-data';
import { browserAndAdmin } from './support/admin';
import { addScreenCookie, api, untilAppRendered } from './support/browser';
import { PHONE_360 } from './support/phone';
import { sharedAppURL } from './support/shared-app';

const baseURL = sharedAppURL();
const ROUTES_SOURCE = readFileSync(join(DEFAULT_DIST, '..', '..', 'client', 'routes.tsx'), 'utf8');
const FLEET_MAP = 'features/fleet/FleetMap.tsx';
let browser: Browser;
type Session = {
  token: string;
  user: { role: string; name: string; email: string; driverId?: string | null };
};
let fuel: Session;
let driver: Session;
let customer: Session;
let admin: Session;
let ops: Session;

/** The files only the map needs: FleetMap's chunk and what it imports (maplibre lazily) beyond the entry and /fuel. */
function mapFiles(): string[] {
  const manifest = readManifest(DEFAULT_DIST);
  const fuelModule = routeModules(ROUTES_SOURCE).get('/fuel');
  if (!fuelModule) throw new Error('client/routes.tsx has no /fuel route.');
  const first = appClosure(manifest, fuelModule);
  // maplibre is FleetMap's dynamic import (through react-map-gl).
  const map = staticClosure(manifest, [FLEET_MAP, ...(manifest[FLEET_MAP]?.dynamicImports ?? [])]);
  return [...map].filter((k) => !first.has(k)).map((k) => manifest[k]!.file);
}

beforeAll(async () => {
  let adminToken: string;
  ({ browser, adminToken } = await browserAndAdmin());
  const suffix = Date.now().toString(36).slice(-5).toUpperCase();
  await api(
    baseURL,
    'POST',
    '/api/admin/trucks',
    { id: `LP1-${suffix}`, plate: `KDL ${suffix.slice(0, 3)}P`, capacityT: 20 },
    adminToken,
  );
  const email = `fuel-lp-${suffix.toLowerCase()}@mchanga.co.ke`;
  await api(
    baseURL,
    'POST',
    '/api/admin/users',
    { name: 'Achieng Pump', email, password: 'fuel-pass-123', role: 'FUEL' },
    adminToken,
  );
  fuel = await api(baseURL, 'POST', '/api/auth/login', { email, password: 'fuel-pass-123' });
  const opsEmail = `ops-lp-${suffix.toLowerCase()}@mchanga.co.ke`;
  await api(
    baseURL,
    'POST',
    '/api/admin/users',
    { name: 'Wanjiru Ops', email: opsEmail, password: 'ops-pass-1234', role: 'OPS' },
    adminToken,
  );
  ops = await api(baseURL, 'POST', '/api/auth/login', { email: opsEmail, password: 'ops-pass-1234' });
  await api(
    baseURL,
    'POST',
    '/api/admin/drivers',
    {
      id: `LPD-${suffix}`,
      name: 'Otieno Lp',
      email: `lpd-${suffix.toLowerCase()}@mchanga.co.ke`,
      phone: '0722 333 444',
    },
    adminToken,
  );
  const driverEmail = `driver-lp-${suffix.toLowerCase()}@mchanga.co.ke`;
  await api(
    baseURL,
    'POST',
    '/api/admin/users',
    {
      name: 'Otieno Lp',
      email: driverEmail,
      password: 'driver-pass-123',
      role: 'DRIVER',
      driverId: `LPD-${suffix}`,
    },
    adminToken,
  );
  driver = await api(baseURL, 'POST', '/api/auth/login', { email: driverEmail, password: 'driver-pass-123' });
  admin = await api(baseURL, 'POST', '/api/auth/login', {
    email: inject('adminEmail'),
    password: inject('adminPassword'),
  });
  customer = await api(baseURL, 'POST', '/api/auth/register', {
    name: 'Lp Builders',
    email: `customer-lp-${suffix.toLowerCase()}@mchanga.co.ke`,
    password: 'customer-pass-123',
    phone: '0711 222 333',
  });
});
afterAll(async () => {
  await browser?.close();
});

/** A fresh context (no HTTP cache, no service worker) at 360 px unless told, signed in as `session`. */
async function signedIn(session: Session, viewport = PHONE_360): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport, isMobile: true, hasTouch: true });
  await context.addInitScript((s: Session) => {
    localStorage.setItem('token', s.token);
    localStorage.setItem('role', s.user.role);
    localStorage.setItem('userName', s.user.name);
    localStorage.setItem('userEmail', s.user.email);
    if (s.user.driverId) localStorage.setItem('driverId', s.user.driverId);
  }, session);
  return context;
}

/** A cold visit of /fuel signed in as FUEL, at 360 px. */
async function coldFuel(): Promise<{ context: BrowserContext; page: Page; requested: string[] }> {
  const context = await signedIn(fuel);
  const page = await context.newPage();
  const requested: string[] = [];
  // The page's own requests (the service worker's precaching is not the page's main thread).
  page.on('request', (r) => requested.push(new URL(r.url()).pathname));
  await page.goto('/fuel');
  await page.locator('.truck-card').first().waitFor();
  return { context, page, requested };
}

/** The built entry script's file (assets/index-….js, client/boot.ts): it imports the app. */
function entryFile(): string {
  const manifest = readManifest(DEFAULT_DIST);
  return manifest[entryKey(manifest)]!.file;
}

/** The built app's own file (assets/main-….js, client/main.tsx). */
function appFile(): string {
  const manifest = readManifest(DEFAULT_DIST);
  return manifest[appKey(manifest)!]!.file;
}

/** Holds the page's entry script until the returned function is called: no app code runs before. */
async function holdEntry(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(`**/${entryFile()}`, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

const placeholder = (page: Page) => page.locator('[data-map="placeholder"]');
const readyMap = (page: Page) => page.locator('section.fleet-map-block[data-ready="true"]');
const countOf = (requested: string[], files: string[]) =>
  requested.filter((path) => files.some((f) => path === `/${f}`)).length;

describe('/fuel loads its fleet map only when it is looked at', () => {
  it('a cold load does not fetch the map; scrolled to, it loads once, where its place was held', async () => {
    const files = mapFiles();
    // FleetMap's own chunk and maplibre's.
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(files.some((f) => f.includes('maplibre'))).toBe(true);
    const { context, page, requested } = await coldFuel();
    try {
      // Settled (data shown, a quiet moment): the map is under the form, off screen, and not fetched.
      await page.waitForLoadState('networkidle');
      const held = await placeholder(page).boundingBox();
      expect(held).not.toBeNull();
      expect(held!.y).toBeGreaterThan(PHONE_360.height);
      expect(countOf(requested, files)).toBe(0);
      const cardsBefore = await page.locator('.truck-cards').boundingBox();

      await placeholder(page).scrollIntoViewIfNeeded();
      await readyMap(page).waitFor({ timeout: 30_000 });
      expect(countOf(requested, files)).toBe(files.length);
      expect(new Set(requested.filter((p) => files.some((f) => p === `/${f}`))).size).toBe(files.length);
      // The map took the placeholder's place at the same height: nothing under it moved.
      const map = await readyMap(page).boundingBox();
      expect(Math.round(map!.height)).toBe(Math.round(held!.height));
      const cardsAfter = await page.locator('.truck-cards').boundingBox();
      expect(Math.round(cardsAfter!.y + (await page.evaluate(() => window.scrollY)))).toBe(
        Math.round(cardsBefore!.y),
      );
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a tap on Show map loads it without scrolling to it', async () => {
    const files = mapFiles();
    const { context, page, requested } = await coldFuel();
    try {
      await page.waitForLoadState('networkidle');
      expect(countOf(requested, files)).toBe(0);
      const show = page.getByRole('button', { name: 'Show map' });
      // A click event on the button itself: no scrolling that would bring the map near the screen.
      await show.dispatchEvent('click');
      await readyMap(page).waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(countOf(requested, files)).toBe(files.length);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('/ops/fleet opens on its truck cards on a phone, the map a tap away', () => {
  /** A cold visit of /ops/fleet signed in as OPS at `width` px, settled. */
  async function coldFleet(width: number) {
    const context = await signedIn(ops, { width, height: PHONE_360.height });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await page.goto('/ops/fleet');
    await page.locator('.truck-card').first().waitFor();
    await page.waitForLoadState('networkidle');
    return { context, page, requested };
  }
  /** Where the block of the map is against the truck cards: 'above' or 'below' them. */
  const mapPlace = (page: Page) =>
    page.evaluate(() => {
      const map = document.querySelector('.fleet-map-block')!.getBoundingClientRect();
      const cards = document.querySelector('.truck-cards')!.getBoundingClientRect();
      return map.top >= cards.bottom ? 'below' : map.bottom <= cards.top ? 'above' : 'overlapping';
    });

  it('at 360 px: the cards first, the map under them not fetched until Show map, then in its held place', async () => {
    const files = mapFiles();
    const { context, page, requested } = await coldFleet(PHONE_360.width);
    try {
      expect(await mapPlace(page)).toBe('below');
      expect(countOf(requested, files)).toBe(0);
      // Scrolled to, it still waits for the tap (no freeze while the user scrolls past it).
      await placeholder(page).scrollIntoViewIfNeeded();
      await page.waitForTimeout(1000);
      expect(countOf(requested, files)).toBe(0);
      const held = (await placeholder(page).boundingBox())!;
      await page.getByRole('button', { name: 'Show map' }).click();
      await readyMap(page).waitFor({ timeout: 30_000 });
      expect(countOf(requested, files)).toBe(files.length);
      expect(Math.round((await readyMap(page).boundingBox())!.height)).toBe(Math.round(held.height));
    } finally {
      await context.close();
    }
  }, 120_000);

  it('at 1024 px: the map above the cards, loaded with the tab', async () => {
    const { context, page, requested } = await coldFleet(1024);
    try {
      await readyMap(page).waitFor({ timeout: 30_000 });
      expect(await mapPlace(page)).toBe('above');
      expect(countOf(requested, mapFiles())).toBe(mapFiles().length);
      expect(await page.getByRole('button', { name: 'Show map' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe("a staff screen's first data request starts from the HTML", () => {
  it.each([
    ['/fuel', () => fuel, 'fuel.list', '.truck-card'],
    ['/driver', () => driver, 'driver.dashboard', 'main h1'],
    ['/customer', () => customer, 'customers.mine', 'main h1'],
    ['/order', () => customer, 'orders.my', 'main h1'],
  ] as const)(
    '%s: before the entry script has arrived, and adopted by the app',
    async (path, who, call, shown) => {
      const context = await signedIn(who());
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      const dataRequests: string[] = [];
      page.on('request', (r) => {
        if (new URL(r.url()).pathname.startsWith('/trpc/')) dataRequests.push(decodeURIComponent(r.url()));
      });
      try {
        // A slow phone's network (bench:lcp's Slow 4G), so the entry script takes its time to arrive.
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: 150,
          downloadThroughput: (1.6 * 1_000_000) / 8,
          uploadThroughput: (750 * 1_000) / 8,
        });
        await page.goto(path);
        await page.locator(shown).first().waitFor({ timeout: 60_000 });
        await page.waitForLoadState('networkidle');
        const timing = await page.evaluate((entry) => {
          const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
          const data = resources.filter((r) => new URL(r.name).pathname.startsWith('/trpc/'));
          const app = resources.find((r) => new URL(r.name).pathname === `/${entry}`);
          return { dataStart: data[0]?.startTime, appEnd: app?.responseEnd };
        }, appFile());
        expect(timing.dataStart).toBeDefined();
        expect(timing.appEnd).toBeDefined();
        expect(timing.dataStart!).toBeLessThan(timing.appEnd!);
        // The screen's first calls went out once: the app took the HTML's answer instead of asking again.
        expect(dataRequests.filter((u) => u.includes(call))).toHaveLength(1);
        expect(errors.filter((e) => /Content Security Policy|inline script/i.test(e))).toEqual([]);
      } finally {
        await context.close();
      }
    },
    120_000,
  );
});

describe("each workspace tab's first data request matches what the tab asks for", () => {
  /**
   * Loads the tab and answers the tRPC calls that went over the network (path and input), and the calls
   * the HTML's inline script started. `adopt: false` hides the script's request from the app, which then
   * asks for everything itself: what the tab asks for on its own.
   */
  async function load(tab: string, adopt: boolean) {
    const context = await signedIn(admin);
    await context.addInitScript((adopt: boolean) => {
      const w = window as unknown as Record<string, unknown>;
      let value: unknown;
      Object.defineProperty(w, '__mchangaFirstData', {
        configurable: true,
        get: () => value,
        set: (v: { calls: unknown[]; url: string } | undefined) => {
          if (v) {
            w.__firstDataCalls = v.calls;
            w.__firstDataUrl = v.url;
          }
          if (adopt) value = v;
        },
      });
    }, adopt);
    const page = await context.newPage();
    const requests: URL[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/trpc/') && r.method() === 'GET') requests.push(url);
    });
    /** The calls of the requests, the HTML's own request left out when `withoutHtml` is its URL. */
    const callsOf = (withoutHtml: string | undefined) => {
      const html = requests.findIndex((u) => u.pathname + u.search === withoutHtml);
      return requests
        .filter((_, i) => i !== html)
        .flatMap((url) => {
          const paths = decodeURIComponent(url.pathname.slice('/trpc/'.length)).split(',');
          const inputs = JSON.parse(url.searchParams.get('input') ?? '{}') as Record<string, unknown>;
          return paths.map((path, i) => JSON.stringify({ path, input: inputs[i] }));
        });
    };
    try {
      await page.goto(`/ops/${tab}`);
      await page.locator(`#panel-${tab}`).waitFor();
      // The server drew the panel: the app's own requests go out once it has rendered and the tab's chunk
      // has run, which can be after the network has been quiet a while (its code arrives in a few files).
      await untilAppRendered(page);
      const { started, url } = (await page.evaluate(() => {
        const w = window as unknown as Record<string, unknown>;
        return { started: w.__firstDataCalls, url: w.__firstDataUrl };
      })) as { started?: FirstCall[]; url?: string };
      // On its own the tab asks for its data: its first request, then whatever follows until the network is
      // quiet. (Adopting the HTML's answers, it may ask for nothing.)
      if (!adopt) await expect.poll(() => callsOf(url).length, { timeout: 20_000 }).toBeGreaterThan(0);
      await page.waitForLoadState('networkidle');
      return {
        // Not adopted, the HTML's request is no answer the tab asked for: left out.
        sent: callsOf(adopt ? undefined : url),
        started: (started ?? []).map((c) => JSON.stringify({ path: c.path, input: c.input })),
      };
    } finally {
      await context.close();
    }
  }

  // ADMIN's tabs (bare /ops is the overview): the HTML asks for calls the tab itself makes, with the same
  // inputs, and the tab adopts every one of them (each goes out once, in the HTML's request).
  it.each(
    FIRST_DATA.filter((f) => f.role === 'ADMIN' && f.route.startsWith('^/ops/')).map(
      (f) => [/\^\/ops\/(\w+)/.exec(f.route)![1]!, f] as const,
    ),
  )(
    '/ops/%s',
    async (tab, first) => {
      const table = first.calls.map((c) => JSON.stringify({ path: c.path, input: c.input }));
      const own = await load(tab, false);
      expect(own.sent, 'what the tab asks for on its own').toEqual(expect.arrayContaining(table));
      const adopted = await load(tab, true);
      expect(adopted.started, 'what the HTML asked for').toEqual(table);
      for (const call of table)
        expect(
          adopted.sent.filter((c) => c === call),
          call,
        ).toHaveLength(1);
    },
    60_000,
  );
});

describe("a staff screen's top comes with the HTML", () => {
  const top = (page: Page) =>
    page.evaluate(() => ({
      h1: document.querySelector('main h1')?.textContent ?? null,
      subtitle: document.querySelector('main .page__subtitle')?.textContent ?? null,
      header: document.querySelector('header .brand')?.textContent ?? null,
      // The workspace: its tab strip (the open tab marked) and the open tab's heading and line.
      tabs:
        [...document.querySelectorAll('main [role="tab"]')]
          .map((a) => `${a.textContent}${a.getAttribute('aria-selected') === 'true' ? ' (open)' : ''}`)
          .join(', ') || null,
      tabTop: document.querySelector('[role="tabpanel"] > section > h2')?.textContent ?? null,
      tabLine: document.querySelector('[role="tabpanel"] > section > h2 + p.muted')?.textContent ?? null,
    }));

  it.each([
    ['/fuel', 'en', (): Session | null => fuel],
    ['/fuel', 'sw', (): Session | null => fuel],
    ['/driver', 'en', (): Session | null => driver],
    ['/driver', 'sw', (): Session | null => driver],
    ['/customer', 'en', (): Session | null => customer],
    ['/order', 'sw', (): Session | null => customer],
    ['/ops', 'en', (): Session | null => admin],
    ['/ops/orders', 'sw', (): Session | null => admin],
    ['/ops/audit', 'en', (): Session | null => admin],
    ['/ops/activity', 'sw', (): Session | null => admin],
    ['/ops/costs', 'en', (): Session | null => ops],
    // A device without a session: the public screens' guest variant.
    ['/login', 'en', (): Session | null => null],
    ['/register', 'sw', (): Session | null => null],
    ['/articles', 'en', (): Session | null => null],
  ] as const)(
    '%s in %s: shown before any app code has run, then the app renders the same title over it',
    async (path, language, who) => {
      const session = who();
      const context = session
        ? await signedIn(session)
        : await browser.newContext({ baseURL, viewport: PHONE_360, isMobile: true, hasTouch: true });
      await context.addInitScript((l: string) => {
        if (l === 'sw') localStorage.setItem('mchanga.language', 'sw');
      }, language);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      // The entry script is held until the top has been read: nothing of the app has run by then.
      const release = await holdEntry(page);
      try {
        await page.goto(path, { waitUntil: 'commit' });
        await page.locator('#root[data-shell] main h1').waitFor({ timeout: 30_000 });
        const fromHtml = await top(page);
        expect(fromHtml.header).toBe('Mchanga');
        expect(fromHtml.h1).toBeTruthy();
        expect(await page.locator('#root').getAttribute('inert')).toBe('');
        release();
        if (path.startsWith('/ops/')) expect(fromHtml.tabs).toContain(' (open)');
        if (path === '/ops/audit' || path === '/ops/activity') expect(fromHtml.tabLine).toBeTruthy();
        // The app has rendered over it: the root is its own again, with what the HTML showed the same (a
        // tab without a line in the HTML has more of its own).
        await page.locator('#root:not([data-shell]):not([inert]) main h1').waitFor({ timeout: 60_000 });
        const shown = Object.keys(fromHtml).filter((k) => fromHtml[k as keyof typeof fromHtml] !== null);
        await expect
          .poll(
            async () =>
              Object.fromEntries(Object.entries(await top(page)).filter(([k]) => shown.includes(k))),
            {
              timeout: 15_000,
            },
          )
          .toEqual(Object.fromEntries(Object.entries(fromHtml).filter(([k]) => shown.includes(k))));
        expect(errors.filter((e) => /Content Security Policy|inline script/i.test(e))).toEqual([]);
      } finally {
        release();
        await context.close();
      }
    },
    120_000,
  );
});

describe('a signed-in screen drawn by the server with its data (the screen cookie)', () => {
  /**
   * What the screen shows: the text of its main part, lines trimmed, empty ones left out; not the fleet
   * map's, which loads after the screen by design, nor a chart's, which is drawn at the width the browser
   * measures (the place of both is held at their height, so the shift check still covers them).
   */
  const shown = (page: Page) =>
    page.evaluate(() => {
      const main = document.querySelector('main') as HTMLElement | null;
      if (!main) return null;
      // Hidden only while the text is read (innerText leaves out what is not visible): no layout changes.
      const parts = [...main.querySelectorAll<HTMLElement>('.fleet-map-block, .fleet-map, .chart-frame')];
      const before = parts.map((part) => part.style.visibility);
      for (const part of parts) part.style.visibility = 'hidden';
      try {
        return main.innerText
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
      } finally {
        parts.forEach((part, i) => {
          part.style.visibility = before[i]!;
        });
      }
    });

  /** The heights of the screen's charts: what the server's screen holds for each, then what it draws. */
  const chartHeights = (page: Page) =>
    page
      .locator('main .chart-frame')
      .evaluateAll((frames) => frames.map((f) => f.getBoundingClientRect().height));

  type Case = { path: string; language: 'en' | 'sw'; who: () => Session; width: number };
  const phone = (path: string, language: 'en' | 'sw', who: () => Session): Case => ({
    path,
    language,
    who,
    width: PHONE_360.width,
  });
  it.each<Case>([
    phone('/fuel', 'en', () => fuel),
    phone('/driver', 'sw', () => driver),
    phone('/customer', 'en', () => customer),
    phone('/order', 'sw', () => customer),
    phone('/ops', 'en', () => admin),
    ...WORKSPACE_TABS.map((tab) => phone(`/ops/${tab}`, 'en', () => admin)),
    phone('/ops/orders', 'sw', () => admin),
    phone('/ops/stock', 'en', () => ops),
    phone('/ops/fleet', 'sw', () => ops),
    // A tablet: the line chart is drawn 260 px high there (220 on a phone), and its place is held so.
    { path: '/ops/finance', language: 'en', who: () => admin, width: 1024 },
  ])(
    '$path in $language at $width px: drawn before any app code has run, then the app draws the same screen over it, nothing moving',
    async ({ path, language, who, width }) => {
      const session = who();
      const context = await signedIn(session, { width, height: PHONE_360.height });
      await context.addInitScript((l: string) => {
        if (l === 'sw') localStorage.setItem('mchanga.language', 'sw');
      }, language);
      await addScreenCookie(context, baseURL, session, { language, width });
      // Layout shifts from the first paint on (buffered), as the CLS of Lighthouse counts them.
      await context.addInitScript(() => {
        const w = window as unknown as { __shift: number };
        w.__shift = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries() as (PerformanceEntry & {
            value: number;
            hadRecentInput: boolean;
          })[])
            if (!e.hadRecentInput) w.__shift += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' && !/Failed to load resource|ERR_NAME_NOT_RESOLVED/.test(m.text()))
          errors.push(m.text());
      });
      page.on('pageerror', (e) => errors.push(e.message));
      const release = await holdEntry(page);
      // The Kiswahili catalogs arrive a second after the app code: the app's first render must wait for
      // them (client/i18n languageReady), not draw English over the server's Kiswahili and then switch.
      const manifest = readManifest(DEFAULT_DIST);
      for (const catalog of ['i18n/sw.ts', 'i18n/staff-sw.ts'])
        await page.route(`**/${manifest[catalog]!.file}`, async (route) => {
          await new Promise((r) => setTimeout(r, 1_000));
          await route.continue();
        });
      try {
        await page.goto(path, { waitUntil: 'commit' });
        await page.locator('#root[data-shell] main').waitFor({ timeout: 30_000 });
        expect(await page.locator('html').getAttribute('lang')).toBe(language);
        expect(await page.locator('#root').getAttribute('inert')).toBe('');
        const fromServer = await shown(page);
        // More than the top: the title and what the screen's data made.
        expect(fromServer!.length).toBeGreaterThan(2);
        const heldForCharts = await chartHeights(page);
        release();
        await page.locator('#root:not([data-shell]):not([inert]) main').waitFor({ timeout: 60_000 });
        await expect.poll(() => shown(page), { timeout: 15_000 }).toEqual(fromServer);
        // Each chart, drawn, is as tall as the place the server's screen held for it.
        await expect.poll(() => page.locator('main .chart-frame > svg').count()).toBe(heldForCharts.length);
        expect(await chartHeights(page)).toEqual(heldForCharts);
        if (path === '/ops/finance') expect(heldForCharts.length).toBeGreaterThan(0);
        expect(
          await page.evaluate(() => (window as unknown as { __shift: number }).__shift),
        ).toBeLessThanOrEqual(0.05);
        expect(errors).toEqual([]);
      } finally {
        release();
        await context.close();
      }
    },
    120_000,
  );
});
