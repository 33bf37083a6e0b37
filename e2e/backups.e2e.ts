/**
 * Issue 25: the ADMIN sees the last backup's time and size on the AI tab, at 360 px. The app (started as
 * the README says, `npm start`, default BACKUP_CRON) makes up the missed nightly slot at its first start,
 * so a real backup of its own data directory is there to show.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { until } from '../test/until';
import { adminTokenFor } from './support/admin';
import { launchBrowser, newPage, storeSession } from './support/browser';
import { measureLayout } from './support/layout';
import { sharedAppURL } from './support/shared-app';

const PHONE_360 = { width: 360, height: 740 };

describe('backups on the ADMIN screen', () => {
  const baseURL = sharedAppURL();
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it("shows the last backup's time and size at 360 px", async () => {
    const health = await until(
      async () => {
        const h = (await (await fetch(`${baseURL}/api/health`)).json()) as {
          backup: { lastAt: string | null; sizeBytes: number | null };
        };
        return h.backup.lastAt ? h.backup : undefined;
      },
      60_000,
      'the start-up backup',
    );
    expect(health.sizeBytes).toBeGreaterThan(100_000);

    const token = await adminTokenFor(baseURL, inject('adminEmail'), inject('adminPassword'));
    const { context, page } = await newPage(browser, baseURL, PHONE_360);
    try {
      await page.goto('/');
      await storeSession(page, token, { role: 'ADMIN', name: 'Admin', email: inject('adminEmail') });
      await page.goto('/ops/ai');
      const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Backups' }) });
      await card.getByText(/^Last backup .+ · \d+\.\d MB$/).waitFor({ timeout: 30_000 });
      expect(await card.getByText('Schedule: 30 2 * * * (Nairobi time), keeping the newest 7.').count()).toBe(
        1,
      );
      expect(await card.getByRole('listitem').first().textContent()).toMatch(
        /mchanga-\d{8}T\d{6}Z\.tar\.gz$/,
      );
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: '/tmp/ops-backup-admin-360.png' });
      const m = await measureLayout(page);
      expect(m.scrollWidth).toBeLessThanOrEqual(360);
    } finally {
      await context.close();
    }
  });
});
