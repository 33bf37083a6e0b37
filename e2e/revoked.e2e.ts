/**
 * Issue 22, item 13: after "sign out everywhere" the other devices kept the user's screens (IndexedDB, the
 * kept screen markup) and unsent entries until someone logged out there. Now the next time such a device
 * talks to the server, its 401 says `revoked` and the device deletes them (as Logout does). A phone on its
 * own profile, with its own app (a clean database).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api } from './support/browser';
import { outboxCount, phonesForThisFile } from './support/phone';

const phones = phonesForThisFile();

/** Records of kept screens in IndexedDB, and whether the kept screen markup is in Cache Storage. */
async function kept(page: Page) {
  return page.evaluate(async () => {
    // Opening a database that does not exist yet would create it without the app's store.
    const exists = (await indexedDB.databases()).some((d) => d.name === 'mchanga-cache');
    const queries = !exists
      ? 0
      : await new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('mchanga-cache');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains('queries')) return resolve(0);
            const req = db.transaction('queries').objectStore('queries').count();
            req.onsuccess = () => resolve(req.result);
            req.onerror = () => reject(req.error);
          };
        });
    return { queries, screens: await caches.has('mchanga-snapshots') };
  });
}

describe('a phone whose user signed out everywhere from another device', () => {
  it('deletes its kept screens and unsent entries the next time it talks to the server', async () => {
    const suffix = `r${Date.now()}`;
    const account = { email: `revoked-${suffix}@mchanga.co.ke`, password: 'pump-pass-1234' };
    await api(
      phones.baseURL,
      'POST',
      '/api/admin/users',
      { name: 'Wanjiru Pump', ...account, role: 'FUEL' },
      phones.adminToken,
    );
    const truck = { id: `RV-${suffix}`, plate: `KRV ${suffix.slice(-3)}R` };
    await api(phones.baseURL, 'POST', '/api/admin/trucks', { ...truck, capacityT: 20 }, phones.adminToken);
    const { token } = await api<{ token: string }>(phones.baseURL, 'POST', '/api/auth/login', account);
    await api(
      phones.baseURL,
      'POST',
      '/api/fuel/logs',
      { truckId: truck.id, litres: 55, odometer: 7000, cost: 9_800, note: 'Kept on the lost phone' },
      token,
    );

    const phone = await phones.launch(phones.newProfile());
    try {
      const page = phone.pages()[0] ?? (await phone.newPage());
      await page.goto('/login');
      await page.getByLabel('Email').fill(account.email);
      await page.getByLabel('Password').fill(account.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/fuel');
      await expect.poll(() => page.getByText('Kept on the lost phone').isVisible()).toBe(true);
      // The screen and its data are kept on the phone (within a second of loading).
      await expect.poll(() => kept(page), { timeout: 10_000 }).toEqual({ queries: 1, screens: true });

      // An entry made without signal waits on the phone.
      await phone.setOffline(true);
      await page.getByLabel('Truck ID / Plate').fill(truck.plate);
      await page.getByLabel('Litres pumped').fill('41');
      await page.getByLabel('Total cost (KES)').fill('7300');
      await page.getByLabel('Odometer (km)').fill('7100');
      await page.getByLabel('Notes').fill('entered on the lost phone');
      await page.getByRole('button', { name: 'Save fuel log' }).click();
      await expect.poll(() => outboxCount(page), { timeout: 20_000 }).toBe(1);

      // From another device, the user signs out everywhere.
      const other = await api<{ token: string }>(phones.baseURL, 'POST', '/api/auth/login', account);
      await api(phones.baseURL, 'POST', '/api/auth/logout-all', {}, other.token);

      // The phone gets its signal back and sends: the server answers 401 revoked.
      await phone.setOffline(false);
      await expect.poll(() => outboxCount(page), { timeout: 30_000 }).toBe(0);
      await expect.poll(() => kept(page), { timeout: 10_000 }).toEqual({ queries: 0, screens: false });
      await page.waitForURL('**/login');
      // Nothing of the entry reached the server with the revoked session.
      const logs = await api<Array<{ note: string | null }>>(
        phones.baseURL,
        'GET',
        '/api/fuel/logs?limit=50',
        undefined,
        phones.adminToken,
      );
      expect(JSON.stringify(logs)).not.toContain('entered on the lost phone');
    } finally {
      await phone.close();
    }
  }, 180_000);
});
