import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, launchBrowser, newPage, PHONE, signInThroughForm } from './support/browser';
import { sharedAppURL } from './support/shared-app';

const baseURL = sharedAppURL();
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('worker intelligence', () => {
  it('the AI tab refreshes, opens the queue dashboard, a briefing run publishes an article the briefings page shows, and Telegram routing saves a chat id', async () => {
    const { context, page } = await newPage(browser, baseURL);
    await signInThroughForm(page, inject('adminEmail'), inject('adminPassword'));
    await page.waitForURL('**/ops');
    await page.getByRole('tab', { name: 'AI', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'AI Insights' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect
      .poll(() => page.getByText(/Generated .* from the figures/).isVisible(), { timeout: 10_000 })
      .toBe(true);
    await expect.poll(() => page.getByRole('heading', { name: 'Alerts to review' }).isVisible()).toBe(true);
    expect(await page.getByText('No insights yet.').count()).toBe(0);

    // The dashboard's cookie comes from admin.queues.session over tRPC; embedded mode explains itself.
    const [dashboard] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Open queue dashboard' }).click(),
    ]);
    await expect.poll(() => dashboard.getByRole('heading', { name: 'Job queues' }).isVisible()).toBe(true);
    expect(new URL(dashboard.url()).pathname).toBe('/admin/queues');
    await dashboard.close();

    await page.getByRole('button', { name: 'Run the morning briefing now' }).click();
    await expect.poll(() => page.getByText(/The briefing run has started/).isVisible()).toBe(true);

    const telegram = page
      .getByRole('region', { name: 'Telegram alert routing' })
      .or(page.locator('section[aria-labelledby="telegram-heading"]'))
      .first();
    await expect.poll(() => telegram.getByText(/Telegram bot is not configured/).isVisible()).toBe(true);
    const input = telegram.getByLabel(/Telegram chat id for/).first();
    await input.fill('12ab');
    await telegram.getByRole('button', { name: 'Save chat id' }).first().click();
    await expect.poll(() => telegram.getByRole('alert').last().textContent()).toMatch(/must be numeric/);
    await input.fill('-1001234567890');
    await telegram.getByRole('button', { name: 'Save chat id' }).first().click();
    await expect.poll(() => telegram.getByText('Saved').first().isVisible()).toBe(true);
    await context.close();

    const phone = await newPage(browser, baseURL, PHONE);
    await phone.page.goto('/articles');
    await expect
      .poll(() => phone.page.locator('.article-card').count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    const card = phone.page.locator('.article-card').first();
    // The morning run writes the day's topic of the public rotation: the card shows that topic, and
    // Continue reading opens the article's own first paragraph.
    const [latest] = await api<Array<{ topic: string | null; body: string }>>(
      baseURL,
      'GET',
      '/api/articles?limit=1',
    );
    expect(await card.getByText(latest!.topic || 'Operations insight', { exact: true }).isVisible()).toBe(
      true,
    );
    await card.getByRole('button', { name: 'Continue reading' }).click();
    const opening = latest!.body
      .split(/\n{2,}/)[0]!
      .replace(/^#+\s*/, '')
      .slice(0, 60);
    await expect.poll(() => card.locator('.article-card__body').getByText(opening).isVisible()).toBe(true);
    await card.getByRole('button', { name: 'Hide article' }).click();
    await phone.page.goto('/');
    await expect
      .poll(() => phone.page.getByRole('heading', { name: 'Project insights' }).isVisible())
      .toBe(true);
    await phone.context.close();
  });
});
