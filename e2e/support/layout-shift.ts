/**
 * Cumulative layout shift as a phone sees it, for the "nothing jumps" browser test and
 * `npm run bench:lighthouse`: the page is opened cold (a fresh context: no HTTP cache, no service worker)
 * at 360 px with the CPU slowed (over Slow 4G or an unthrottled network), and every 'layout-shift' entry not caused by input is
 * summed until the network has been quiet for a while.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addScreenCookie } from './browser';

export const PHONE_360 = { width: 360, height: 740 };
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1_000_000) / 8,
  uploadThroughput: (750 * 1_000) / 8,
};

export interface Shift {
  value: number;
  at: number;
  /** What moved: tag#id.class of each source node. */
  sources: string[];
}

/** The session as the app keeps it after sign-in (localStorage). */
export interface StoredSession {
  token: string;
  user: { role: string; name: string; email: string; driverId?: string | null };
}

/** Runs before any of the page's scripts: records layout shifts not caused by input. */
const OBSERVE = () => {
  const w = window as unknown as { __shifts: Shift[] };
  w.__shifts = [];
  const describe = (node: Node | null | undefined) => {
    if (!node) return '?';
    const el = node instanceof Element ? node : node.parentElement;
    if (!el) return node.nodeName;
    const cls = typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : '';
    return `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls}`;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null }[];
    })[]) {
      if (entry.hadRecentInput) continue;
      w.__shifts.push({
        value: entry.value,
        at: Math.round(entry.startTime),
        sources: (entry.sources ?? []).map((s) => describe(s.node)),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
};

/** A fresh phone context (no cache, no service worker) recording shifts, signed in when a session is given. */
export async function phoneContext(
  browser: Browser,
  baseURL: string,
  session?: StoredSession,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: PHONE_360,
    isMobile: true,
    hasTouch: true,
  });
  await context.addInitScript(OBSERVE);
  if (session) {
    await context.addInitScript((s: StoredSession) => {
      localStorage.setItem('token', s.token);
      localStorage.setItem('role', s.user.role);
      localStorage.setItem('userName', s.user.name);
      localStorage.setItem('userEmail', s.user.email);
      if (s.user.driverId) localStorage.setItem('driverId', String(s.user.driverId));
    }, session);
    // The screen cookie the app keeps beside them: the screen comes drawn by the server, as for a phone
    // that has opened the app before.
    await addScreenCookie(context, baseURL, session);
  }
  return context;
}

/**
 * A slowed CPU for this page and, unless `network` is 'fast', Slow 4G (Chrome DevTools Protocol). The
 * fast network is what Lighthouse observes under its simulated throttling: answers come back in a
 * different order than on a slow one, so a panel that jumps on one may not on the other.
 */
export async function throttle(
  page: Page,
  cpuSlowdown: number,
  network: 'slow4g' | 'fast' = 'slow4g',
): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  if (network === 'slow4g') await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
}

/** Waits for the load event, then until no request of the page has been in flight for `quietMs`. */
export async function settle(page: Page, quietMs = 1500): Promise<void> {
  let inflight = 0;
  const up = () => {
    inflight += 1;
  };
  const down = () => {
    inflight = Math.max(0, inflight - 1);
  };
  page.on('request', up);
  page.on('requestfinished', down);
  page.on('requestfailed', down);
  try {
    await page.waitForLoadState('load', { timeout: 120_000 });
    const deadline = Date.now() + 60_000;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      if (inflight > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= quietMs) return;
    }
  } finally {
    page.off('request', up);
    page.off('requestfinished', down);
    page.off('requestfailed', down);
  }
}

/** The shifts the page has recorded so far. */
export function shiftsOf(page: Page): Promise<Shift[]> {
  return page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
}

export const total = (shifts: Shift[]) => shifts.reduce((sum, s) => sum + s.value, 0);

/** One cold load of `path` on a throttled phone: the shifts recorded until the page settled. */
export async function coldLoadShifts(
  browser: Browser,
  baseURL: string,
  path: string,
  options: { session?: StoredSession; cpuSlowdown?: number; network?: 'slow4g' | 'fast' } = {},
): Promise<Shift[]> {
  const context = await phoneContext(browser, baseURL, options.session);
  try {
    const page = await context.newPage();
    await throttle(page, options.cpuSlowdown ?? 4, options.network);
    await page.goto(path, { waitUntil: 'commit', timeout: 120_000 });
    await settle(page);
    return await shiftsOf(page);
  } finally {
    await context.close();
  }
}

/** A readable line per shift, for failure messages. */
export const describeShifts = (shifts: Shift[]) =>
  shifts.map((s) => `${s.value.toFixed(3)} at ${s.at} ms (${s.sources.join(', ')})`).join('; ');
