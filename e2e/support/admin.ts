import type { Browser, Page } from 'playwright-core';
import { inject } from 'vitest';
import { api, launchBrowser, storeSession } from './browser';
import { sharedAppURL } from './shared-app';

/** The ADMIN's bearer token, signed in through the REST API (for test data). */
export async function adminTokenFor(baseURL: string, email: string, password: string): Promise<string> {
  return (await api<{ token: string }>(baseURL, 'POST', '/api/auth/login', { email, password })).token;
}

/**
 * What a browser test file on the shared app (support/global-app.ts) starts with: its own browser and the
 * app's ADMIN token. The caller closes the browser in its afterAll.
 */
export async function browserAndAdmin(): Promise<{ browser: Browser; adminToken: string }> {
  const browser = await launchBrowser();
  try {
    const adminToken = await adminTokenFor(sharedAppURL(), inject('adminEmail'), inject('adminPassword'));
    return { browser, adminToken };
  } catch (err) {
    await browser.close();
    throw err;
  }
}

/** Signs the page in as the ADMIN whose token this is, as the login form would (the page opens `/` first). */
export async function signInAsAdmin(page: Page, baseURL: string, adminToken: string): Promise<void> {
  await page.goto('/');
  const me = await api<{ name: string; email: string }>(
    baseURL,
    'GET',
    '/api/auth/me',
    undefined,
    adminToken,
  );
  await storeSession(page, adminToken, { role: 'ADMIN', name: me.name, email: me.email });
}
