/**
 * Issue 25: passwords on screens, at 360 px — change your own (other devices signed out), an ADMIN's
 * one-time password that must be changed at the next sign-in, and a forgotten password: without SMTP the
 * screen says to ask an admin; with a local SMTP server the e-mailed link sets a new one, once.
 */
import { type ParsedMail, simpleParser } from 'mailparser';
import type { Browser, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAndAdmin, signInAsAdmin } from './support/admin';
import { api, newPage, openMenuIfCollapsed, signInThroughForm } from './support/browser';
import { type RunningApp, startApp } from './support/global-app';
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

async function fitsThePhone(page: Page, where: string) {
  const layout = await measureLayout(page);
  expect(layout.scrollWidth, `${where}: ${layout.widest.what}`).toBeLessThanOrEqual(360);
  expect(layout.unreachable, where).toEqual([]);
  expect(layout.small, where).toEqual([]);
}

async function staffMember(role: 'OPS' | 'FUEL', base = baseURL(), token = adminToken) {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const email = `${role.toLowerCase()}-${suffix}@e2e.test`;
  const name = `${role === 'OPS' ? 'Grace' : 'Juma'} ${suffix}`;
  await api(
    base,
    'POST',
    '/api/admin/users',
    { name, email, phone: '0733000222', password: 'first-passphrase', role },
    token,
  );
  return { email, name };
}

describe('passwords on a 360 px phone', () => {
  it('a staff member changes their own password from the menu; their other devices are signed out', async () => {
    const who = await staffMember('FUEL');
    const other = await api<{ token: string }>(baseURL(), 'POST', '/api/auth/login', {
      email: who.email,
      password: 'first-passphrase',
    });
    const { context, page } = await newPage(browser, baseURL(), PHONE_360);
    try {
      await signInThroughForm(page, who.email, 'first-passphrase');
      await expect.poll(() => page.url()).toMatch(/\/fuel$/);
      await openMenuIfCollapsed(page);
      await page.getByRole('link', { name: 'Password', exact: true }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Change password' }).isVisible()).toBe(true);
      await fitsThePhone(page, '/account/password');

      await page.getByLabel('Current password').fill('wrong-passphrase');
      await page.getByLabel('New password', { exact: true }).fill('second-passphrase');
      await page.getByLabel('Confirm new password').fill('second-passphrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => page.getByText('Your current password is not correct.').isVisible()).toBe(true);

      await page.getByLabel('Current password').fill('first-passphrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => page.getByText('Your password is changed.').isVisible()).toBe(true);
      await page.screenshot({ path: '/tmp/pw-ui-password-360.png' });
      // This device carries on; the other one is signed out.
      const mine = await page.evaluate(() => localStorage.getItem('token'));
      expect(
        (await fetch(`${baseURL()}/api/auth/me`, { headers: { authorization: `Bearer ${mine}` } })).status,
      ).toBe(200);
      expect(
        (await fetch(`${baseURL()}/api/auth/me`, { headers: { authorization: `Bearer ${other.token}` } }))
          .status,
      ).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('ADMIN resets a staff password; the one-time password signs in to the password screen only', async () => {
    const who = await staffMember('OPS');
    const admin = await newPage(browser, baseURL(), PHONE_360);
    let oneTime = '';
    try {
      const page = admin.page;
      await signInAsAdmin(page, baseURL(), adminToken);
      await page.goto('/ops/drivers');
      const reset = page.getByRole('button', { name: `Reset password for ${who.name}` });
      await reset.scrollIntoViewIfNeeded();
      await reset.click();
      await page.getByRole('button', { name: 'Reset password', exact: true }).click();
      const shown = page.getByText(`One-time password for ${who.name}:`);
      await expect.poll(() => shown.isVisible()).toBe(true);
      oneTime = /:\s*(\S+)$/.exec(((await shown.textContent()) ?? '').trim())?.[1] ?? '';
      expect(oneTime).toMatch(/^[a-zA-Z2-9]{4}(-[a-zA-Z2-9]{4}){3}$/);
      await page.screenshot({ path: '/tmp/pw-ui-admin-reset-360.png' });
      await fitsThePhone(page, '/ops/drivers');
    } finally {
      await admin.context.close();
    }

    const { context, page } = await newPage(browser, baseURL(), PHONE_360);
    try {
      await signInThroughForm(page, who.email, oneTime);
      await expect.poll(() => page.url()).toMatch(/\/account\/password$/);
      await expect
        .poll(() =>
          page
            .getByText('You signed in with a one-time password from an admin.', { exact: false })
            .isVisible(),
        )
        .toBe(true);
      // Nothing else answers until the password is changed.
      const token = await page.evaluate(() => localStorage.getItem('token'));
      expect(
        (await fetch(`${baseURL()}/api/admin/stock`, { headers: { authorization: `Bearer ${token}` } }))
          .status,
      ).toBe(403);
      // A typed address or a reload still lands on the password screen, not a workspace full of refusals.
      await page.goto('/ops/orders');
      await expect.poll(() => page.url()).toMatch(/\/account\/password$/);
      await page.reload();
      await expect.poll(() => page.getByLabel('Current password').isVisible()).toBe(true);
      await page.getByLabel('Current password').fill(oneTime);
      await page.getByLabel('New password', { exact: true }).fill('my-own-passphrase');
      await page.getByLabel('Confirm new password').fill('my-own-passphrase');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => page.getByText('Your password is changed.').isVisible()).toBe(true);
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect.poll(() => page.url()).toMatch(/\/ops(\/\w+)?$/);
      // The new session opens the workspace: no redirect back to the password screen. (Stock, one of the
      // OPS tabs: the app sends OPS from /ops/orders, an ADMIN tab, to /ops.)
      await page.goto('/ops/stock');
      expect(page.url()).toMatch(/\/ops\/stock$/);
      expect(await page.getByRole('tab', { name: 'Stock' }).getAttribute('aria-selected')).toBe('true');
    } finally {
      await context.close();
    }
  });

  it('without SMTP settings the forgotten-password screen says to ask an admin', async () => {
    const { context, page } = await newPage(browser, baseURL(), PHONE_360);
    try {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await expect
        .poll(() =>
          page
            .getByText('Password reset by e-mail is not set up here. Ask an admin to reset your password.')
            .isVisible(),
        )
        .toBe(true);
      await fitsThePhone(page, '/forgot-password');
    } finally {
      await context.close();
    }
  });
});

describe('a forgotten password by e-mail (an app with a local SMTP server)', () => {
  const mails: ParsedMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          mails.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  let app: RunningApp;
  let token: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as { port: number };
    app = await startApp((base) => ({
      SMTP_URL: `smtp://127.0.0.1:${port}?starttls=off`,
      MAIL_FROM: 'Mchanga <no-reply@e2e.test>',
      PUBLIC_URL: base,
    }));
    const { adminTokenFor } = await import('./support/admin');
    const { ADMIN_EMAIL, ADMIN_PASSWORD } = await import('./support/global-app');
    token = await adminTokenFor(app.baseURL, ADMIN_EMAIL, ADMIN_PASSWORD);
  }, 240_000);
  afterAll(async () => {
    await app?.stop();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('the e-mailed link sets a new password once, at 360 px', async () => {
    const who = await staffMember('OPS', app.baseURL, token);
    const { context, page } = await newPage(browser, app.baseURL, PHONE_360);
    try {
      await page.goto('/forgot-password');
      await page.getByLabel('Email').fill(who.email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await expect
        .poll(() =>
          page
            .getByText('If an account has this address, a link is on its way.', { exact: false })
            .isVisible(),
        )
        .toBe(true);
      await fitsThePhone(page, '/forgot-password');
      await expect.poll(() => mails.length, { timeout: 30_000 }).toBe(1);
      const link = /(http\S+\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(mails[0]!.text ?? '')?.[1];
      expect(link).toBeDefined();

      await page.goto(link!);
      await page.getByLabel('New password', { exact: true }).fill('found-it-again');
      await page.getByLabel('Confirm new password').fill('found-it-again');
      await fitsThePhone(page, '/reset-password');
      await page.getByRole('button', { name: 'Save new password' }).click();
      await expect
        .poll(() => page.getByText('Your password is changed. Sign in with it.').isVisible())
        .toBe(true);
      await page.screenshot({ path: '/tmp/pw-ui-reset-360.png' });

      // Works once.
      await page.goto(link!);
      await page.getByLabel('New password', { exact: true }).fill('another-go-at-it');
      await page.getByLabel('Confirm new password').fill('another-go-at-it');
      await page.getByRole('button', { name: 'Save new password' }).click();
      await expect
        .poll(() =>
          page
            .getByText('This reset link is invalid, expired or already used.', { exact: false })
            .isVisible(),
        )
        .toBe(true);

      await signInThroughForm(page, who.email, 'found-it-again');
      await expect.poll(() => page.url()).toMatch(/\/ops(\/\w+)?$/);
      // The new session opens the workspace: no redirect back to the password screen. (Stock, one of the
      // OPS tabs: the app sends OPS from /ops/orders, an ADMIN tab, to /ops.)
      await page.goto('/ops/stock');
      expect(page.url()).toMatch(/\/ops\/stock$/);
      expect(await page.getByRole('tab', { name: 'Stock' }).getAttribute('aria-selected')).toBe('true');
    } finally {
      await context.close();
    }
  });
});
