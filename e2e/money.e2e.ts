import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, launchBrowser, newPage, PHONE, signInThroughForm } from './support/browser';
import { sharedAppURL } from './support/shared-app';

const baseURL = sharedAppURL();
let browser: Browser;
let adminToken: string;
const suffix = Date.now().toString().slice(-5);
const truckId = `FT-${suffix}`;
const plate = `KFU ${suffix}`;

beforeAll(async () => {
  browser = await launchBrowser();
  adminToken = (
    await api<{ token: string }>(baseURL, 'POST', '/api/auth/login', {
      email: inject('adminEmail'),
      password: inject('adminPassword'),
    })
  ).token;
  await api(baseURL, 'POST', '/api/admin/drivers', { id: `FD-${suffix}`, name: 'Wekesa Driver' }, adminToken);
  await api(
    baseURL,
    'POST',
    '/api/admin/trucks',
    { id: truckId, plate, capacityT: 20, primaryDriverId: `FD-${suffix}` },
    adminToken,
  );
});
afterAll(async () => {
  await browser?.close();
});

async function openTab(page: Page, name: string) {
  await page.getByRole('tab', { name, exact: true }).click();
  await expect.poll(() => page.getByRole('heading', { name, exact: true, level: 2 }).isVisible()).toBe(true);
}

async function logStop(page: Page, values: { litres: string; cost: string; odometer: string }) {
  await page.getByLabel('Truck ID / Plate').fill(plate);
  await page.getByLabel('Litres pumped').fill(values.litres);
  await page.getByLabel('Total cost (KES)').fill(values.cost);
  await page.getByLabel('Odometer (km)').fill(values.odometer);
  await page.getByRole('button', { name: 'Save fuel log' }).click();
}

describe('money integrity', () => {
  it('a FUEL user on a phone logs two stops and a confirmed duplicate', async () => {
    const email = `fuel-${suffix}@mchanga.co.ke`;
    await api(
      baseURL,
      'POST',
      '/api/admin/users',
      { name: 'Njeri Pump', email, password: 'fuel-pass-123', role: 'FUEL' },
      adminToken,
    );
    const { context, page } = await newPage(browser, baseURL, PHONE);
    await signInThroughForm(page, email, 'fuel-pass-123');
    await page.waitForURL('**/fuel');
    await expect.poll(() => page.getByText('No fuel entries captured yet.').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Save fuel log' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('Truck is required.');

    await page.getByLabel('Truck ID / Plate').fill(plate);
    await expect
      .poll(() => page.locator('.field__hint', { hasText: 'Wekesa Driver' }).isVisible())
      .toBe(true);
    await logStop(page, { litres: '80', cost: '14000', odometer: '120000' });
    await expect.poll(() => page.getByText('Fuel log saved.').isVisible()).toBe(true);
    await logStop(page, { litres: '60', cost: '10500', odometer: '120450' });
    await expect.poll(() => page.getByText('450 km', { exact: true }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('This week: 140 litres').isVisible()).toBe(true);

    await logStop(page, { litres: '20', cost: '3500', odometer: '120450' });
    await expect
      .poll(() => page.getByRole('heading', { name: 'Possible duplicate fuel log' }).isVisible())
      .toBe(true);
    await expect
      .poll(() => page.getByText('Potential duplicate fuel entry detected.').isVisible())
      .toBe(true);
    // The panel names the truck and its figures as the list does: plate, litres, "120,450 km".
    const panel = page.getByRole('region', { name: 'Possible duplicate fuel log' });
    expect(await panel.getByText(plate, { exact: true }).count()).toBe(2);
    expect(await panel.getByText('120,450 km', { exact: true }).count()).toBe(2);
    await expect.poll(() => panel.getByText('60 litres', { exact: true }).isVisible()).toBe(true);
    expect(await panel.getByText(truckId, { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Confirm and flag duplicate' }).click();
    await expect.poll(() => page.getByText(/Marked as duplicate for audit/).isVisible()).toBe(true);
    expect(await page.locator('.fuel-entry').count()).toBe(3);
    await context.close();
  });

  it('an admin confirms a duplicate cost, reviews and voids in the audit console with cascade, and sees finance change', async () => {
    const { context, page } = await newPage(browser, baseURL);
    await signInThroughForm(page, inject('adminEmail'), inject('adminPassword'));
    await page.waitForURL('**/ops');

    await openTab(page, 'Finance');
    const costsCard = page.locator('.stat').filter({ hasText: 'Costs (KES)' }).locator('.stat__value');
    await expect.poll(() => costsCard.textContent()).toMatch(/KES/);
    // In cents: the total may carry them ("KES 215,780.50").
    const cents = (text: string | null) => Math.round(Number((text ?? '').replace(/[^0-9.]/g, '')) * 100);
    const costsBefore = cents(await costsCard.textContent());

    await openTab(page, 'Costs');
    const addCost = async () => {
      await page.getByLabel('Type', { exact: true }).selectOption('REPAIR');
      await page.getByLabel('Truck', { exact: true }).selectOption(truckId);
      await page.getByLabel('Amount (KES)').fill('7250');
      await page.getByLabel('Description', { exact: true }).fill('Brake pads');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
    };
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toBe('Cost type is required.');
    await addCost();
    await expect.poll(() => page.getByText('Cost recorded.').isVisible()).toBe(true);
    await addCost();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Possible duplicate detected' }).isVisible())
      .toBe(true);
    expect(
      await page
        .getByText('An existing cost entry matches this submission. Confirm if it is intentional.')
        .isVisible(),
    ).toBe(true);
    await page.getByRole('button', { name: 'Confirm and flag duplicate' }).click();
    await expect
      .poll(() => page.getByText('Cost recorded and flagged as a duplicate for audit.').isVisible())
      .toBe(true);
    await expect
      .poll(() =>
        page
          .locator('.recent-costs')
          .getByText(/Marked duplicate/)
          .first()
          .isVisible(),
      )
      .toBe(true);

    await openTab(page, 'Audit');
    const costCard = page.locator('.audit-record').filter({ hasText: 'Brake pads' });
    await costCard.getByLabel(/Review note/).fill('Both pads were fitted');
    await costCard.getByRole('button', { name: 'Mark as reviewed' }).click();
    await expect
      .poll(() =>
        page
          .locator('.audit-record')
          .filter({ hasText: 'Both pads were fitted' })
          .getByText('reviewed', { exact: true })
          .isVisible(),
      )
      .toBe(true);

    const fuelCard = page
      .locator('.audit-record')
      .filter({ hasText: plate })
      .filter({ hasText: 'fuel log #' });
    await fuelCard.getByRole('button', { name: 'Void' }).click();
    await expect
      .poll(() => fuelCard.getByRole('alert').textContent())
      .toBe('Provide a reason before voiding the duplicate record.');
    await fuelCard.getByLabel(/Void reason/).fill('Pump attendant entered it twice');
    expect(await fuelCard.getByLabel('Also void the linked cost').isChecked()).toBe(true);
    await fuelCard.getByRole('button', { name: 'Void' }).click();
    // Voiding asks first, saying what it does.
    const question = page.getByRole('alertdialog', { name: /^Void fuel log #\d+\?$/ });
    await expect.poll(() => question.getByText(/leaves every total/).isVisible()).toBe(true);
    await expect
      .poll(() => question.getByText('Its linked cost entry is voided with it.').isVisible())
      .toBe(true);
    await question.getByRole('button', { name: 'Void record' }).click();
    const voidedCard = page.locator('.audit-record').filter({ hasText: 'Pump attendant entered it twice' });
    await expect.poll(() => voidedCard.getByText('voided', { exact: true }).isVisible()).toBe(true);
    expect(await voidedCard.getByRole('button', { name: 'Void' }).isDisabled()).toBe(true);

    await openTab(page, 'Finance');
    await page.getByRole('button', { name: 'Refresh' }).click();
    // Two brake-pad costs (7,250 each) came in; the voided duplicate fuel log's 3,500 went out.
    await expect
      .poll(async () => cents(await costsCard.textContent()))
      .toBe(costsBefore + (2 * 7250 - 3500) * 100);
    await expect
      .poll(() =>
        page
          .getByRole('region', { name: 'Per-truck Breakdown' })
          .getByRole('cell', { name: plate })
          .isVisible(),
      )
      .toBe(true);
    await expect
      .poll(() => page.getByRole('img', { name: 'Revenue vs Costs (daily)' }).isVisible())
      .toBe(true);
    await context.close();
  });
});
