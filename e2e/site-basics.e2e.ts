import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage } from './support/browser';
import { sharedAppURL } from './support/shared-app';

// Issue 27, item 19: the small things a browser and a crawler meet first.
const baseURL = sharedAppURL();
const PHONE_360 = { width: 360, height: 740 };
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('what browsers and crawlers meet first', () => {
  it('serves a real robots.txt and favicon.ico, and 404 for paths that are not screens', async () => {
    const robots = await fetch(`${baseURL}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await robots.text();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/ops$/m);
    expect(text).not.toMatch(/<html/i);

    const icon = await fetch(`${baseURL}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
    const bytes = new Uint8Array(await icon.arrayBuffer());
    // An ICO file: reserved 0, type 1 (icon), at least one image.
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0]);

    for (const path of ['/wp-login.php', '/no-such-page', '/ops/x/y', '/.env', '/track']) {
      const res = await fetch(`${baseURL}${path}`);
      expect(res.status, path).toBe(404);
    }
    for (const path of ['/', '/login', '/articles', '/ops/orders', '/driver', '/track/abc123']) {
      const res = await fetch(`${baseURL}${path}`);
      expect(res.status, path).toBe(200);
    }
  });

  it('shows no Content-Security-Policy violation on any public page, and the page-not-found screen on a 404', async () => {
    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(`${page.url()}: ${m.text()}`);
    });
    for (const path of ['/', '/login', '/register', '/articles', '/track/0123456789abcdef0123456789abcdef']) {
      await page.goto(path, { waitUntil: 'networkidle' });
    }
    const missing = await page.goto('/no-such-page', { waitUntil: 'networkidle' });
    expect(missing!.status()).toBe(404);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).first().textContent())
      .toMatch(/not found/i);
    expect(violations).toEqual([]);
    await context.close();
  });

  it('gives the dispatch links on / a 44 px tap target', async () => {
    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    await page.goto('/', { waitUntil: 'networkidle' });
    const links = page.locator('.contact-list a');
    expect(await links.count()).toBeGreaterThanOrEqual(3);
    for (const box of await links.evaluateAll((as) => as.map((a) => a.getBoundingClientRect().height)))
      expect(box).toBeGreaterThanOrEqual(44);
    await context.close();
  });
});
