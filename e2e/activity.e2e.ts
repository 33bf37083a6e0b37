/**
 * Issue 25: the ADMIN's action log screen on a 360 px phone — a change made by OPS shows who made it,
 * the field before → after, and where from; the filters narrow it; the CSV holds what is shown.
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVITY_PAGE } from '../shared/schemas/activity';
import { browserAndAdmin, signInAsAdmin } from './support/admin';
import { api, newPage, storeSession } from './support/browser';
import { measureLayout } from './support/layout';
import { PHONE_360 } from './support/phone';
import { sharedAppURL } from './support/shared-app';

let browser: Browser;
let adminToken: string;
const baseURL = () => sharedAppURL();

beforeAll(async () => {
  ({ browser, adminToken } = await browserAndAdmin());
}, 60_000);
afterAll(async () => {
  await browser?.close();
});

/** An OPS person (signed in through the API) and a truck of their own, named after `label`. */
async function opsWithTruck(label: string, name: string, phone: string, plateLetters: string) {
  const suffix = Date.now().toString(36);
  const email = `ops-${label}-${suffix}@e2e.test`;
  const user = await api<{ id: number; name: string }>(
    baseURL(),
    'POST',
    '/api/admin/users',
    { name: `${name} ${suffix}`, email, phone, password: 'a-long-passphrase', role: 'OPS' },
    adminToken,
  );
  const truck = await api<{ id: string }>(
    baseURL(),
    'POST',
    '/api/admin/trucks',
    {
      id: `T-${label.slice(0, 3).toUpperCase()}-${suffix}`.slice(0, 20),
      plate: `${plateLetters} ${suffix.slice(-3)}X`,
      capacityT: 20,
      axles: 3,
    },
    adminToken,
  );
  const { token } = await api<{ token: string }>(baseURL(), 'POST', '/api/auth/login', {
    email,
    password: 'a-long-passphrase',
  });
  return { suffix, user, truck, token };
}

describe('the action log screen (ADMIN, 360 px)', () => {
  it('shows who changed a cost, before → after, filters by person and record, and exports CSV', async () => {
    const {
      suffix,
      user: opsUser,
      truck,
      token: opsToken,
    } = await opsWithTruck('activity', 'Grace', '0733000222', 'KAA');
    const cost = await api<{ id: number }>(
      baseURL(),
      'POST',
      '/api/admin/costs',
      { truckId: truck.id, type: 'REPAIR', amount: 7250, description: 'Rear tyre' },
      opsToken,
    );
    await api(
      baseURL(),
      'PATCH',
      `/api/admin/costs/${cost.id}`,
      { truckId: truck.id, type: 'REPAIR', amount: 7500, description: 'Rear tyre' },
      adminToken,
    );

    const { context, page } = await newPage(browser, baseURL(), PHONE_360);
    try {
      await signInAsAdmin(page, baseURL(), adminToken);
      await page.goto('/ops/activity');
      await expect.poll(() => page.getByRole('heading', { name: 'Activity log' }).isVisible()).toBe(true);

      await page.getByLabel('Person').selectOption(String(opsUser.id));
      await page.getByLabel('Record').selectOption('cost');
      const entries = page.locator('.activity-entry');
      await expect.poll(() => entries.count()).toBe(1);
      const created = entries.first();
      await expect.poll(() => created.textContent()).toContain('admin.costs.create');
      expect(await created.textContent()).toContain(`Grace ${suffix} · OPS · cost #${cost.id}`);
      expect(await created.getByRole('row', { name: /amount/ }).textContent()).toContain('7250');

      // The admin's edit: the amount before → after.
      await page.getByLabel('Person').selectOption('');
      await expect
        .poll(() => page.locator('.activity-entry', { hasText: 'admin.costs.update' }).count())
        .toBe(1);
      const edit = page.locator('.activity-entry', { hasText: 'admin.costs.update' });
      const row = edit.getByRole('row', { name: /amount/ });
      expect((await row.locator('td').allTextContents()).map((s) => s.trim())).toEqual(['7250', '7500']);

      // Dates: tomorrow onwards holds nothing yet.
      const tomorrow = new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10);
      await page.getByLabel('From').fill(tomorrow);
      await expect.poll(() => page.getByText('No activity for these filters.').isVisible()).toBe(true);
      await page.getByLabel('From').fill('');
      await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(2);

      const layout = await measureLayout(page);
      expect(layout.scrollWidth, layout.widest.what).toBeLessThanOrEqual(360);
      expect(layout.unreachable).toEqual([]);
      expect(layout.small).toEqual([]);
      await page.screenshot({ path: '/tmp/ops-log-activity-360.png', fullPage: false });

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      const csv = readFileSync((await download.path())!, 'utf8');
      const lines = csv.replace(/^\ufeff/, '').split('\r\n');
      expect(lines[0]).toBe('At,User ID,User,Role,Action,Entity,Entity ID,Changes,IP,User agent');
      expect(lines.some((l) => l.includes('admin.costs.update') && l.includes(`,cost,${cost.id},`))).toBe(
        true,
      );
    } finally {
      await context.close();
    }
  });

  it('shows the latest entries a page at a time, more on a tap', async () => {
    const { user: opsUser, truck, token: opsToken } = await opsWithTruck('many', 'Many', '0733000224', 'KAB');
    // One cost more by this person than the tab shows at first.
    for (let i = 1; i <= ACTIVITY_PAGE + 1; i++)
      await api(
        baseURL(),
        'POST',
        '/api/admin/costs',
        { truckId: truck.id, type: 'OTHER', amount: 100 + i, description: `Cost ${i}` },
        opsToken,
      );

    const { context, page } = await newPage(browser, baseURL(), PHONE_360);
    try {
      await signInAsAdmin(page, baseURL(), adminToken);
      await page.goto('/ops/activity');
      // This person's costs (their sign-in is an entry too).
      await page.getByLabel('Person').selectOption(String(opsUser.id));
      await page.getByLabel('Record').selectOption('cost');
      const entries = page.locator('.activity-entry');
      await expect
        .poll(() => page.getByText(`${ACTIVITY_PAGE} entries (newest first)`).isVisible())
        .toBe(true);
      expect(await entries.count()).toBe(ACTIVITY_PAGE);
      // Newest first: the last cost on top, the first one not shown yet.
      expect(
        await entries
          .first()
          .getByRole('row', { name: /amount/ })
          .textContent(),
      ).toContain(String(101 + ACTIVITY_PAGE));
      const more = page.getByRole('button', { name: 'Show more entries' });
      await more.scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await page.screenshot({ path: '/tmp/ops-log-activity-more-360.png' });
      // A slow answer: while it loads, the entries on screen and the button (disabled) stay where they are.
      await page.route('**/trpc/admin.activity.list**', async (route) => {
        await new Promise((r) => setTimeout(r, 1_500));
        await route.continue();
      });
      const before = await more.boundingBox();
      await more.click();
      await expect.poll(() => more.isDisabled()).toBe(true);
      expect(await entries.count()).toBe(ACTIVITY_PAGE);
      expect((await more.boundingBox())?.y).toBe(before?.y);
      await expect
        .poll(() => page.getByText(`${ACTIVITY_PAGE + 1} entries (newest first)`).isVisible())
        .toBe(true);
      expect(await entries.count()).toBe(ACTIVITY_PAGE + 1);
      expect(
        await entries
          .last()
          .getByRole('row', { name: /amount/ })
          .textContent(),
      ).toContain('101');
      // All of this person's entries are in: no button for more.
      expect(await more.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('OPS has no action log tab, and the call answers 403', async () => {
    const { context, page } = await newPage(browser, baseURL(), PHONE_360);
    try {
      const suffix = Date.now().toString(36);
      const email = `ops-noactivity-${suffix}@e2e.test`;
      await api(
        baseURL(),
        'POST',
        '/api/admin/users',
        { name: 'Ops Two', email, phone: '0733000223', password: 'a-long-passphrase', role: 'OPS' },
        adminToken,
      );
      const ops = await api<{ token: string }>(baseURL(), 'POST', '/api/auth/login', {
        email,
        password: 'a-long-passphrase',
      });
      await page.goto('/');
      await storeSession(page, ops.token, { role: 'OPS', name: 'Ops Two', email });
      await page.goto('/ops/activity');
      await expect.poll(() => page.url()).toMatch(/\/ops$/);
      expect(await page.getByRole('tab', { name: 'Activity log' }).count()).toBe(0);
      const res = await fetch(`${baseURL()}/api/admin/activity`, {
        headers: { authorization: `Bearer ${ops.token}` },
      });
      expect(res.status).toBe(403);
    } finally {
      await context.close();
    }
  });
});
