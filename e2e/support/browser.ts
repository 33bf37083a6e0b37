import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
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
  return { context, page };
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
