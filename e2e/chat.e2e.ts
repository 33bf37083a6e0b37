import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newPage, PHONE } from './support/browser';
import { sharedAppURL } from './support/shared-app';

const baseURL = sharedAppURL();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('chat assistant', () => {
  it('answers a price question on a phone and ignores empty input', async () => {
    const { context, page } = await newPage(browser, baseURL, PHONE);
    await page.goto('/');
    await page.getByRole('button', { name: 'Chat with us' }).click();
    const panel = page.getByRole('region', { name: 'Chat with dispatch' });
    await panel.getByRole('button', { name: 'Send' }).click();
    expect(await panel.locator('.chat__msg').count()).toBe(0);
    await panel.getByLabel('Your question').fill('Bei ya mchanga hadi Ruiru kwa lori 2?');
    await panel.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => panel.locator('.chat__msg').count()).toBe(2);
    // Asked in Kiswahili, answered in Kiswahili (issue 14), with the same figures.
    expect(await panel.locator('.chat__msg').nth(1).textContent()).toMatch(
      /KES 32,000 kwa lori, KES 64,000 kwa malori 2/,
    );
    await panel.getByRole('button', { name: 'Close chat' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Chat with us' }).isVisible()).toBe(true);
    await context.close();
  });
});
