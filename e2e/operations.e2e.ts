import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, launchBrowser, newPage, PHONE, scrollIntoView, signInThroughForm } from './support/browser';
import { sharedAppURL } from './support/shared-app';

const baseURL = sharedAppURL();
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = (
    await api<{ token: string }>(baseURL, 'POST', '/api/auth/login', {
      email: inject('adminEmail'),
      password: inject('adminPassword'),
    })
  ).token;
});
afterAll(async () => {
  await browser?.close();
});

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect.poll(() => page.getByRole('heading', { name, exact: true, level: 2 }).isVisible()).toBe(true);
}

describe('operations workspace', () => {
  it('an admin registers a truck and a driver with a photo, reviews a payment, assigns, delivers, and sees stock and overview move', async () => {
    const suffix = Date.now().toString().slice(-5);
    const truckId = `TRK-${suffix}`;
    const driverId = `DRV-${suffix}`;
    const plate = `KDE ${suffix}X`;
    const { context, page } = await newPage(browser, baseURL);
    await signInThroughForm(page, inject('adminEmail'), inject('adminPassword'));
    await page.waitForURL('**/ops');

    await openTab(page, 'Drivers');
    await page.getByLabel('Driver ID').fill(driverId);
    await page.getByRole('button', { name: 'Add driver' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('Driver name is required.');
    await page.getByLabel('Name', { exact: true }).fill('Kiprono Driver');
    await page.getByLabel('Phone').first().fill('0711222444');
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    await page
      .getByLabel('Profile photo')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => page.getByRole('img', { name: 'Profile photo preview' }).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Add driver' }).click();
    await expect.poll(() => page.getByText('Driver details saved.').isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole('img', { name: 'Photo of Kiprono Driver' }).isVisible())
      .toBe(true);

    await openTab(page, 'Trucks');
    await page.getByLabel('Truck ID').fill(truckId);
    await page.getByLabel('Capacity (tonnes)').fill('0');
    await page.getByRole('button', { name: 'Add truck' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('Plate is required.');
    await page.getByLabel('Plate').fill(plate);
    await page.getByRole('button', { name: 'Add truck' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toBe('Capacity (tonnes) must be greater than zero.');
    await page.getByLabel('Capacity (tonnes)').fill('20');
    await page.getByLabel('Primary driver').selectOption(driverId);
    await page.getByLabel('Tracker device ID').fill(`phone-${suffix}`);
    await page.getByRole('button', { name: 'Add truck' }).click();
    await expect.poll(() => page.getByText(`Truck ${plate} saved.`).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('/api/telemetry/osmand').isVisible()).toBe(true);
    await page.getByLabel('Search trucks').fill(suffix);
    await expect.poll(() => page.getByRole('cell', { name: 'Kiprono Driver' }).isVisible()).toBe(true);

    await openTab(page, 'Stock');
    await page.getByLabel('Truck receiving stock').selectOption(truckId);
    await page.getByLabel('Trucks received').fill('3');
    await page.getByLabel('Cost per tonne (KES)').fill('450');
    await page.getByRole('button', { name: 'Record receipt' }).click();
    await expect.poll(() => page.getByText('Recorded 60 t of coarse sand.').isVisible()).toBe(true);
    const stockBefore = (
      await api<{ tonnes: number }>(baseURL, 'GET', '/api/admin/stock', undefined, adminToken)
    ).tonnes;

    // A customer orders and confirms payment through the public API.
    const customer = await api<{ token: string }>(baseURL, 'POST', '/api/auth/register', {
      name: 'Zawadi Homes',
      email: `zawadi-${suffix}@example.co.ke`,
      password: 'zawadi-pass-1',
    });
    const order = await api<{ id: number; perTruck: number }>(
      baseURL,
      'POST',
      '/api/orders',
      { site: `Kamakis plot ${suffix}`, sandType: 'coarse', trucks: 1 },
      customer.token,
    );
    await api(
      baseURL,
      'POST',
      `/api/orders/${order.id}/payment`,
      { method: 'KCB', reference: `KCB${suffix}` },
      customer.token,
    );

    await openTab(page, 'Orders');
    const row = page.getByRole('row').filter({ hasText: `Kamakis plot ${suffix}` });
    await expect.poll(() => row.getByText('Submitted').first().isVisible()).toBe(true);
    // The row lists the order's payments: method and reference as the customer gave them.
    const payments = row.getByRole('list', { name: `Payments of order #${order.id}` });
    await expect.poll(() => payments.getByText('KCB', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => payments.getByText(`KCB${suffix}`).isVisible()).toBe(true);
    // The payment review and the truck assignment open in a sheet over the table.
    await row.getByRole('button', { name: 'Review payment' }).click();
    await page
      .getByRole('dialog', { name: `Review payment · order #${order.id}` })
      .getByRole('button', { name: 'Confirm payment' })
      .click();
    await expect.poll(() => payments.getByText('Confirmed').isVisible()).toBe(true);
    await expect.poll(() => row.getByText('Received').isVisible()).toBe(true);
    await row.getByRole('button', { name: 'Assign truck' }).click();
    const sheet = page.getByRole('dialog', { name: `Assign truck · order #${order.id}` });
    await expect.poll(() => sheet.getByText('20 t', { exact: true }).isVisible()).toBe(true);
    await sheet.getByLabel('Truck').selectOption(truckId);
    await sheet.getByLabel('Driver').selectOption(driverId);
    await sheet.getByRole('button', { name: 'Schedule load' }).click();
    await expect.poll(() => row.getByText('Scheduled', { exact: true }).isVisible()).toBe(true);
    // Mark delivered opens the proof of delivery; by hand is a second, explicit step that needs a reason.
    await row.getByRole('button', { name: 'Delivered' }).click();
    const proof = page.getByRole('dialog', { name: `Deliver to Kamakis plot ${suffix}` });
    await expect.poll(() => proof.getByRole('button', { name: 'Confirm delivery' }).isVisible()).toBe(true);
    expect(await row.getByText('Scheduled', { exact: true }).isVisible()).toBe(true);
    await proof.getByRole('button', { name: 'No proof possible? Mark delivered by hand' }).click();
    const byHand = page.getByRole('alertdialog', { name: `Mark ${plate} delivered without proof?` });
    await byHand.getByRole('button', { name: 'Mark delivered without proof' }).click();
    await expect
      .poll(() => byHand.getByRole('alert').textContent())
      .toBe('Give a reason for marking the load delivered without a proof of delivery.');
    expect(await row.getByText('Scheduled', { exact: true }).isVisible()).toBe(true);
    await byHand
      .getByLabel('Why is there no proof of delivery?')
      .fill('Driver phone dead; customer confirmed');
    await byHand.getByRole('button', { name: 'Mark delivered without proof' }).click();
    // The load's state and, now every load is delivered, the order's: both read Delivered.
    await expect.poll(() => row.getByText('Delivered', { exact: true }).first().isVisible()).toBe(true);
    expect(await byHand.count()).toBe(0);
    // Marked by hand, with no photo or code: operations sees it flagged.
    const loads = await api<Array<{ withoutProof: boolean; history: Array<{ source: string; by: string }> }>>(
      baseURL,
      'GET',
      `/api/admin/orders/${order.id}/assignments`,
      undefined,
      adminToken,
    );
    expect(loads[0]).toMatchObject({ withoutProof: true });
    expect(loads[0]!.history.at(-1)).toMatchObject({
      source: 'manual',
      reason: 'Driver phone dead; customer confirmed',
    });
    // On a 360 px phone the order is a card that still lists its payment, with nothing wider than the screen.
    await page.setViewportSize({ width: 360, height: 800 });
    const card = page.getByRole('list', { name: `Payments of order #${order.id}` });
    await expect.poll(() => card.getByText(`KCB${suffix}`).isVisible()).toBe(true);
    await scrollIntoView(card);
    await page.screenshot({ path: '/tmp/ops-orders-360.png' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await page.setViewportSize({ width: 1280, height: 900 });

    await openTab(page, 'Stock');
    await expect
      .poll(() =>
        page
          .getByText(`${(stockBefore - 20).toLocaleString('en-KE')} t`)
          .first()
          .isVisible(),
      )
      .toBe(true);
    await expect
      .poll(() => page.getByRole('cell', { name: 'Delivery', exact: true }).first().isVisible())
      .toBe(true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('stock-transactions.csv');
    const csv = readFileSync((await download.path())!, 'utf8').replace(/^\ufeff/, '');
    expect(csv.split('\r\n')[0]).toBe('Datetime,Kind,Trucks,Tonnes,Category,Truck ID,Reason');
    expect(csv).toContain(`DELIVERY,-1,-20,coarse,${truckId}`);

    await openTab(page, 'Overview');
    await expect.poll(() => page.getByText("Today's revenue").isVisible()).toBe(true);
    const overview = await api<{ daily: { revenue: number }; topDrivers: { name: string }[] }>(
      baseURL,
      'GET',
      '/api/admin/dashboard',
      undefined,
      adminToken,
    );
    expect(overview.daily.revenue).toBeGreaterThanOrEqual(order.perTruck);
    expect(overview.topDrivers.map((d) => d.name)).toContain('Kiprono Driver');
    await expect
      .poll(() => page.getByRole('img', { name: 'Top drivers by revenue, last 7 days' }).isVisible())
      .toBe(true);
    await context.close();
  });

  it('an OPS user on a phone sees only stock, costs and fleet, and records a stock receipt', async () => {
    const suffix = Date.now().toString().slice(-6);
    await api(
      baseURL,
      'POST',
      '/api/admin/trucks',
      { id: `OPS-T${suffix}`, plate: `KOP ${suffix}`, capacityT: 20 },
      adminToken,
    );
    const email = `ops-${suffix}@mchanga.co.ke`;
    await api(
      baseURL,
      'POST',
      '/api/admin/users',
      { name: 'Otieno Ops', email, password: 'ops-pass-123', role: 'OPS' },
      adminToken,
    );
    const { context, page } = await newPage(browser, baseURL, PHONE);
    await signInThroughForm(page, email, 'ops-pass-123');
    await page.waitForURL('**/ops');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Operations workspace' }).isVisible())
      .toBe(true);
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Stock', 'Costs', 'Fleet']);
    await page.getByRole('button', { name: 'Record receipt' }).click();
    await expect
      .poll(() => page.getByRole('alert').first().textContent())
      .toBe('Select the truck receiving stock.');
    await page.getByLabel('Truck receiving stock').selectOption(`OPS-T${suffix}`);
    await page.getByLabel('Trucks received').fill('0.5');
    await page.getByLabel('Cost per tonne (KES)').fill('500');
    await page.getByRole('button', { name: 'Record receipt' }).click();
    await expect.poll(() => page.getByText('Recorded 10 t of coarse sand.').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Export CSV' }).count()).toBe(0);
    expect(await page.getByLabel('Description').count()).toBe(0);
    await context.close();
  });
});
