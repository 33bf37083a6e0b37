/**
 * Issue 14: the installable app and the device outbox, in a real browser with its own app (a clean
 * database: the chaos test counts every row).
 *
 * - Installability: the manifest is fetched and valid (icons 192/512 and maskable, real PNGs of those
 *   sizes), Chromium reports no installability error, the service worker is active and controls the page,
 *   and a FUEL user who opens /fuel without network gets the screen, the banner and the last data.
 * - Chaos: 50 fuel logs entered across offline/online cycles, reloads while offline, and a browser closed
 *   while a send it had made was in flight (the server recorded it, the phone never heard) → exactly 50
 *   rows on the server, 0 duplicates, 0 left in the outbox.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from './support/browser';
import { measureLayout } from './support/layout';
import { outboxCount, PHONE_360, phonesForThisFile } from './support/phone';

const PHOTO = join(import.meta.dirname, '..', 'client', 'public', 'icons', 'icon-192.png');

const phones = phonesForThisFile();

async function makeFuelUser(suffix: string) {
  const account = { email: `pump-${suffix}@mchanga.co.ke`, password: 'pump-pass-1234' };
  await api(
    phones.baseURL,
    'POST',
    '/api/admin/users',
    { name: 'Njeri Pump', ...account, role: 'FUEL' },
    phones.adminToken,
  );
  const truck = { id: `CH-${suffix}`, plate: `KCH ${suffix.slice(-3)}X` };
  await api(phones.baseURL, 'POST', '/api/admin/trucks', { ...truck, capacityT: 20 }, phones.adminToken);
  return { account, truck };
}

async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/fuel');
}

/** Waits until the service worker is active and controls the page (a reload makes sure of it). */
async function untilControlled(page: Page) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

interface FuelCost {
  truck_id: string | null;
  type: string;
  description: string;
}

/** Rows on the server for the truck: its FUEL costs (one per fuel log) and the notes of its logs. */
async function serverRows(truckId: string) {
  const costs = await api<FuelCost[]>(
    phones.baseURL,
    'GET',
    '/api/admin/costs',
    undefined,
    phones.adminToken,
  );
  const mine = costs.filter((c) => c.truck_id === truckId && c.type === 'FUEL');
  const notes = mine.map((c) => /chaos-(\d+)/.exec(c.description)?.[1]).filter(Boolean);
  return { rows: mine.length, distinct: new Set(notes).size };
}

async function enterFuelLog(page: Page, plate: string, i: number, withPhoto: boolean) {
  await page.getByLabel('Truck ID / Plate').fill(plate);
  await page.getByLabel('Litres pumped').fill(String(40 + i));
  await page.getByLabel('Total cost (KES)').fill(String(7000 + i * 13));
  await page.getByLabel('Odometer (km)').fill(String(100_000 + i * 37));
  await page.getByLabel('Notes').fill(`chaos-${i}`);
  if (withPhoto) await page.getByLabel('Photo (pump or dashboard)').setInputFiles(PHOTO);
  await page.getByRole('button', { name: 'Save fuel log' }).click();
  // Saved, or kept on the phone: either way the form is cleared for the next entry.
  await expect
    .poll(
      () =>
        page
          .getByText(
            /^(Fuel log saved\.|Your phone is offline\. The fuel log is saved on this phone|The server could not be reached)/,
          )
          .isVisible(),
      // A save that meets a flickering signal waits for the request to fail first; on a busy CI
      // machine that is more than the default 5 s.
      { timeout: 20_000 },
    )
    .toBe(true);
  await expect.poll(() => page.getByLabel('Notes').inputValue(), { timeout: 20_000 }).toBe('');
}

describe('installable app', () => {
  it('serves a valid manifest with real icons, an active service worker, and an offline start with the banner and the last data', async () => {
    const suffix = `i${Date.now()}`;
    const { account, truck } = await makeFuelUser(suffix);
    await api(
      phones.baseURL,
      'POST',
      '/api/fuel/logs',
      { truckId: truck.id, litres: 61, odometer: 5000, cost: 10_500, note: 'Before the signal dropped' },
      (await api<{ token: string }>(phones.baseURL, 'POST', '/api/auth/login', account)).token,
    );

    const dir = phones.newProfile();
    const phone = await phones.launch(dir);
    const page = phone.pages()[0] ?? (await phone.newPage());
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const manifest = await page.evaluate(async (url) => {
      const res = await fetch(url);
      return { type: res.headers.get('content-type'), body: await res.json() };
    }, href!);
    expect(manifest.type).toMatch(/manifest\+json|json/);
    expect(manifest.body).toMatchObject({
      name: expect.any(String),
      short_name: 'Mchanga',
      start_url: '/',
      display: 'standalone',
      theme_color: '#8a5a1c',
    });
    const icons = manifest.body.icons as Array<{ src: string; sizes: string; purpose: string }>;
    for (const [size, purpose] of [
      ['192x192', 'any'],
      ['512x512', 'any'],
      ['192x192', 'maskable'],
      ['512x512', 'maskable'],
    ]) {
      const icon = icons.find((i) => i.sizes === size && i.purpose === purpose);
      expect(icon, `${size} ${purpose}`).toBeDefined();
      const res = await fetch(`${phones.baseURL}${icon!.src}`);
      expect(res.headers.get('content-type')).toBe('image/png');
      const png = Buffer.from(await res.arrayBuffer());
      // IHDR: width and height, big-endian, at bytes 16 and 20.
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(size);
    }

    await signIn(page, account);
    await untilControlled(page);
    // 'activating' turns 'activated' a moment later: poll rather than read once.
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.ready).active?.state), {
        timeout: 15_000,
      })
      .toBe('activated');
    const cdp = await phone.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    expect(installabilityErrors.map((e) => e.errorId)).toEqual([]);

    // The last data is kept on the phone (written within a second of loading).
    await expect.poll(() => page.getByText('Before the signal dropped').isVisible()).toBe(true);
    await page.waitForTimeout(1_500);
    await phone.setOffline(true);
    await page.close();
    const offline = await phone.newPage();
    await offline.goto('/fuel');
    await expect
      .poll(() => offline.getByText(/^You are offline · data as of \d\d:\d\d$/).isVisible(), {
        timeout: 15_000,
      })
      .toBe(true);
    await expect.poll(() => offline.getByText('Before the signal dropped').isVisible()).toBe(true);
    await offline.screenshot({ path: join(tmpdir(), 'mchanga-offline-fuel-360.png'), fullPage: true });
    const layout = await measureLayout(offline);
    expect(layout.scrollWidth).toBeLessThanOrEqual(PHONE_360.width);

    // Offline entry: the form says so, the header and the screen count it, the entry can be read.
    await enterFuelLog(offline, truck.plate, 900, true);
    await expect
      .poll(() =>
        offline
          .getByText(
            'Your phone is offline. The fuel log is saved on this phone and will be sent when the connection returns.',
          )
          .isVisible(),
      )
      .toBe(true);
    await expect.poll(() => offline.getByText('1 waiting to send').isVisible()).toBe(true);
    await expect
      .poll(() => offline.getByRole('heading', { name: '1 entry waiting to be sent' }).isVisible())
      .toBe(true);
    await offline.getByText('Waiting to be sent', { exact: true }).click();
    await expect.poll(() => offline.getByText('chaos-900').isVisible()).toBe(true);
    await offline.screenshot({ path: join(tmpdir(), 'mchanga-outbox-fuel-360.png'), fullPage: true });
    expect((await measureLayout(offline)).scrollWidth).toBeLessThanOrEqual(PHONE_360.width);
    await phone.setOffline(false);
    await expect.poll(() => outboxCount(offline), { timeout: 30_000 }).toBe(0);

    // Logout leaves nothing of this user on the phone.
    await offline.getByRole('button', { name: 'Menu' }).click();
    await offline.getByRole('button', { name: 'Logout' }).click();
    await offline.waitForURL((url) => url.pathname === '/');
    const kept = await offline.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const open = indexedDB.open('mchanga-cache');
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('queries')) return resolve(0);
            const req = db.transaction('queries').objectStore('queries').count();
            req.onsuccess = () => resolve(req.result);
          };
        }),
    );
    expect(kept).toBe(0);
    await phone.close();
  }, 180_000);
});

describe('device outbox chaos', () => {
  it('50 fuel logs across offline/online cycles, reloads and a browser closed mid-sync → 50 rows, 0 duplicates, 0 left', async () => {
    const suffix = `c${Date.now()}`;
    const { account, truck } = await makeFuelUser(suffix);
    const dir = phones.newProfile();
    let phone = await phones.launch(dir);
    let page = phone.pages()[0] ?? (await phone.newPage());
    await signIn(page, account);
    await untilControlled(page);
    let entered = 0;
    const enter = async () => {
      await enterFuelLog(page, truck.plate, entered, entered % 10 === 3);
      entered += 1;
    };

    // 0–9 online.
    for (let i = 0; i < 10; i++) await enter();
    // 10–19 offline, with a reload (served by the service worker) half way.
    await phone.setOffline(true);
    for (let i = 0; i < 10; i++) {
      await enter();
      if (i === 4) await page.reload();
    }
    expect(await outboxCount(page)).toBe(10);
    await phone.setOffline(false);
    await expect.poll(() => outboxCount(page), { timeout: 30_000 }).toBe(0);

    // 20–29 offline; then the network returns and the browser is closed while its first send is in
    // flight: the server records it, the phone never hears back.
    await phone.setOffline(true);
    for (let i = 0; i < 10; i++) await enter();
    let heldBack = 0;
    await phone.route('**/trpc/fuel.create**', async (route) => {
      heldBack += 1;
      await route.fetch().catch(() => undefined);
      // No answer to the page: the context closes with this request open.
    });
    const before = (await serverRows(truck.id)).rows;
    await phone.setOffline(false);
    await expect.poll(() => heldBack, { timeout: 30_000 }).toBeGreaterThan(0);
    await expect.poll(async () => (await serverRows(truck.id)).rows, { timeout: 30_000 }).toBe(before + 1);
    const leftAtClose = await outboxCount(page);
    expect(leftAtClose).toBe(10);
    await phone.close();

    // The phone again: the queue survived, the in-flight entry is replayed with its key.
    phone = await phones.launch(dir);
    page = phone.pages()[0] ?? (await phone.newPage());
    await page.goto('/fuel');
    await untilControlled(page);
    await expect.poll(() => outboxCount(page), { timeout: 30_000 }).toBe(0);

    // 30–39 offline with reloads between entries.
    await phone.setOffline(true);
    for (let i = 0; i < 10; i++) {
      await enter();
      if (i % 3 === 2) await page.reload();
    }
    await phone.setOffline(false);
    // 40–49: the signal flickers between entries.
    for (let i = 0; i < 10; i++) {
      await phone.setOffline(i % 2 === 0);
      await enter();
    }
    await phone.setOffline(false);
    const back = Date.now();
    await expect.poll(() => outboxCount(page), { timeout: 30_000 }).toBe(0);
    const drainedInMs = Date.now() - back;

    const { rows, distinct } = await serverRows(truck.id);
    const figures = {
      entered,
      rows,
      duplicates: rows - distinct,
      left: await outboxCount(page),
      drainedInMs,
    };
    console.log(`outbox chaos: ${JSON.stringify(figures)}`);
    expect(figures).toMatchObject({ entered: 50, rows: 50, duplicates: 0, left: 0 });
    // The photos went with their logs.
    const logs = await api<Array<{ note: string | null; photoPath: string | null }>>(
      phones.baseURL,
      'GET',
      '/api/fuel/logs?limit=50',
      undefined,
      phones.adminToken,
    );
    const withPhoto = logs.filter((l) => l.photoPath && /^chaos-\d*3$/.test(l.note ?? ''));
    expect(withPhoto.length).toBe(5);
    await phone.close();
  }, 600_000);
});
