import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import type { Role } from '../../shared/roles';
import {
  SCREEN_COOKIE,
  SCREEN_COOKIE_PATHS,
  type ScreenDevice,
  screenCookieValue,
} from '../../shared/screen-cookie';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Debian's Chromium as the browser tests and the benches run it: headless, quiet, no background traffic. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * Every host name but this machine's unresolvable (for the benches): the map's tile server is refused at
 * once instead of waiting on a network this machine has not. Not page.route, which turns off the HTTP cache.
 */
export const ONLY_THIS_MACHINE = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_FLAGS });
}

/**
 * Scrolls the element into view, trying again when a refetch re-renders it between finding and scrolling
 * ("Element is not attached to the DOM"): the locator finds the new element on the next try.
 */
export async function scrollIntoView(locator: Locator, tries = 5): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await locator.scrollIntoViewIfNeeded({ timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= tries || !/not attached|detached/i.test(String(error))) throw error;
    }
  }
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** A fresh context (its own localStorage) and page at the given viewport. */
export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport,
    isMobile: viewport.width < 500,
    hasTouch: viewport.width < 500,
  });
  const page = await context.newPage();
  waitForTheAppOnNavigation(page);
  return { context, page };
}

/**
 * After `goto` and `reload` the page's screen is the app's own: a screen the server drew (or the service
 * worker kept) is inert until the app renders over it, and an element a test found on it before then is
 * detached by that render ('Element is not attached to the DOM'; a null bounding box). A test that looks at
 * the screen before the app runs navigates with `waitUntil: 'commit'`, which is left as it is.
 */
function waitForTheAppOnNavigation(page: Page) {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    if (options?.waitUntil !== 'commit') await untilNotDrawnOver(page);
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    if (options?.waitUntil !== 'commit') await untilNotDrawnOver(page);
    return response;
  };
}

/** Until the root holds no screen that the app's first render will replace (client/main.tsx). */
async function untilNotDrawnOver(page: Page) {
  await page.waitForFunction(
    () => {
      const root = document.getElementById('root');
      return !root || !['inert', 'data-shell', 'data-snapshot'].some((name) => root.hasAttribute(name));
    },
    null,
    { timeout: 30_000 },
  );
}

/** The user as sign-in and registration answer it. */
export interface SignedInUser {
  role?: string | null;
  name?: string | null;
  email?: string | null;
  driverId?: string | number | null;
}

/**
 * Signs the page in without the form: keeps the token and user as the app keeps them after sign-in. The
 * page must already be on the app's origin.
 */
export async function storeSession(page: Page, token: string, user: SignedInUser) {
  await page.evaluate(
    ([t, u]) => {
      localStorage.setItem('token', t);
      localStorage.setItem('role', u.role ?? '');
      localStorage.setItem('userName', u.name ?? '');
      localStorage.setItem('userEmail', u.email ?? '');
      if (u.driverId) localStorage.setItem('driverId', String(u.driverId));
    },
    [token, user] as const,
  );
}

/** The device a screen cookie was written on: its language, and its viewport's width (a 360 px phone). */
export type CookieDevice = Partial<ScreenDevice>;

/**
 * The screen cookie the app keeps beside a session (shared/screen-cookie.ts), one per path of the role's
 * screens, as playwright's addCookies and puppeteer's setCookie take them.
 */
export function screenCookies(
  baseURL: string,
  session: { token: string; user: { role: string } },
  { language = 'en', width = 360 }: CookieDevice = {},
) {
  return SCREEN_COOKIE_PATHS[session.user.role as Role].map((path) => ({
    name: SCREEN_COOKIE,
    value: screenCookieValue({ language, width, token: session.token }),
    url: new URL(path, baseURL).href,
    sameSite: 'Strict' as const,
  }));
}

/**
 * Gives the context the screen cookie, as a phone that has opened the app before has it: its cold load of
 * a signed-in screen comes with the screen's data.
 */
export async function addScreenCookie(
  context: BrowserContext,
  baseURL: string,
  session: { token: string; user: { role: string } },
  device: CookieDevice = {},
) {
  await context.addCookies(screenCookies(baseURL, session, device));
}

/** Opens the collapsed phone menu when it is shown. */
export async function openMenuIfCollapsed(page: Page) {
  const toggle = page.getByRole('button', { name: /^(Menu|Menyu)$/ });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true')
    await toggle.click();
}

/** Signs in through the login form. */
export async function signInThroughForm(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Calls the app's REST API (for test data) with an optional bearer token. */
export async function api<T = unknown>(
  baseURL: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const res = await fetch(`${baseURL}${path}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status}: ${data.error}`);
  return data;
}

/**
 * Waits for the app's first render (client/main.tsx marks `mchanga:app-rendered`): a screen the server drew
 * is on show before the app has run, and the network can be quiet before the app's code has run.
 */
export async function untilAppRendered(page: Page, timeout?: number) {
  await page.waitForFunction(
    () => performance.getEntriesByName('mchanga:app-rendered').length > 0,
    null,
    timeout === undefined ? {} : { timeout },
  );
}

/**
 * Waits until the app has rendered over a screen the server drew (the root is inert until then): before a
 * test goes offline to use the screen, as a phone whose signal drops after the screen came alive.
 */
export async function untilAppLive(page: Page) {
  await untilAppRendered(page);
  await untilNotDrawnOver(page);
}
