/**
 * Issue 27, items 13 and 19: one walk of every staff screen at 360 px, as each role, in Kiswahili and in
 * English — /ops every tab as ADMIN and the tabs OPS has, /driver as DRIVER and as ADMIN, /fuel as FUEL,
 * the customer's screens, every role's password screen and the public ones (landing, sign-in, register,
 * forgotten password, reset, a tracking page) — submitting each screen's forms empty so their
 * checks show. It fails on
 *  - text on a Kiswahili screen that is English from a catalog (a whole English value or a fragment of
 *    one, or a word only the English catalogs use) instead of Kiswahili;
 *  - a raw code (PENDING, SCHEDULED, IN_TRANSIT, COARSE…) in either language;
 *  - a Content-Security-Policy violation or a console error on any page;
 *  - a form whose result or error, after its submit, is not the focused element inside the viewport.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checksSw } from '../client/i18n/checks-sw';
import { en } from '../client/i18n/en';
import { landingEn } from '../client/i18n/landing-en';
import { landingSw } from '../client/i18n/landing-sw';
import { staffEn } from '../client/i18n/staff-en';
import { staffSw } from '../client/i18n/staff-sw';
import { sw } from '../client/i18n/sw';
import {
  api,
  launchBrowser,
  newPage,
  type SignedInUser,
  storeSession,
  untilAppRendered,
} from './support/browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type RunningApp, startApp } from './support/global-app';
import { type SeededBusiness, seedBusiness } from './support/seed';

const PHONE_360 = { width: 360, height: 740 };
let app: RunningApp;
let browser: Browser;
let seed: SeededBusiness;

beforeAll(async () => {
  app = await startApp();
  browser = await launchBrowser();
  seed = await seedBusiness(app.baseURL, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

type Catalog = { [key: string]: string | Catalog };
const flat = (c: Catalog): string[] =>
  Object.values(c).flatMap((v) => (typeof v === 'string' ? [v] : flat(v)));
const englishValues = [en, staffEn, landingEn].flatMap((c) => flat(c as unknown as Catalog));
const kiswahiliValues = [
  ...[sw, staffSw, landingSw].flatMap((c) => flat(c as unknown as Catalog)),
  ...checksSw.values(),
];
const kiswahiliSet = new Set(kiswahiliValues);
const words = (text: string) => text.toLowerCase().match(/[a-z]+(?:'[a-z]+)?/g) ?? [];
const withoutPlaceholders = (text: string) => text.replace(/\{\{\w+\}\}/g, ' ');

/**
 * Words the two languages share or that are names, units and abbreviations rather than English: the
 * spec's fixed words (M-Pesa, Pay Bill, Telegram, WhatsApp…), units and brands.
 */
const FIXED_WORDS = new Set(
  `ai api id kes km t kg l gps sms pdf csv url pin mpesa m pesa pay bill paybill till lipa na whatsapp
  telegram openai bot etims kra mch mca osmand google maps ok email e mail equity kcb bank co ke
  admin ops fuel driver customer bullmq redis pglite postgresql json h min`.split(/\s+/),
);
/**
 * Words of the seeded business (names, sites, descriptions, notes, number plates): data, not the screen's
 * language. A plate is made of a random run of letters and digits ("KDA T7IT" reads "it").
 */
function dataWords(s: SeededBusiness): Set<string> {
  const text = [
    ...Object.values(s.sites),
    ...s.trucks.map((t) => t.plate),
    ...s.drivers.map((d) => d.name),
    ...Object.values(s.accounts).map((a) => a.email),
    'Otieno Ops Njeri Pump Thika Greens Builders Cooperative Yard receipt Front brake pads and labour at',
    'the Juja garage Driver salary and allowances for November Loading crew, Juja yard Shell Juja, pump 4',
    'Delivery note signed on paper Paid from the site account Equity',
  ].join(' ');
  return new Set(words(text));
}

/** English words of the catalogs that no Kiswahili catalog uses. */
const englishOnlyWords = (() => {
  const swWords = new Set(kiswahiliValues.flatMap((v) => words(withoutPlaceholders(v))));
  return new Set(englishValues.flatMap((v) => words(withoutPlaceholders(v))).filter((w) => !swWords.has(w)));
})();
/** English values (and their parts between placeholders, ≥ 12 characters) that Kiswahili words differently. */
const englishFragments = [
  ...new Set(
    englishValues
      .filter((v) => !kiswahiliSet.has(v))
      .flatMap((v) => v.split(/\{\{\w+\}\}/).map((p) => p.trim()))
      .filter((p) => p.length >= 12),
  ),
];
/** Short English values (a tab name, a button) shown as a whole text. */
const englishWhole = new Set(englishValues.filter((v) => !kiswahiliSet.has(v) && !/\{\{/.test(v)));

/**
 * Text the server wrote into a record in English when it was made (a stock purchase's cost description,
 * a delivery's stock movement note, a job's id): records,
 * shown as they are kept, in either language.
 */
const STORED_ENGLISH = [
  /^Yard receipt: [\d.,]+ t (coarse|smooth) sand$/,
  /^Delivered to order #\d+ \(/,
  /^insights\.generate@/,
];

/** Settings named in the set-up hints (TELEGRAM_BOT_TOKEN…): the names a person types on the server. */
const SETTING =
  /^(?:TELEGRAM|ETIMS|OPENAI|MPESA|DISPATCH|SMTP|WHATSAPP|AT|PAYBILL|MAP|GEOCODER|OSRM|PUBLIC|ADMIN|JWT|DATA|DATABASE|REDIS)_[A-Z_]+$/;
/** The codes of shared/ enums, and any UPPER_SNAKE word. */
const RAW_CODE =
  /^(?:[A-Z]{2,}_[A-Z_]+|PENDING|SUBMITTED|CONFIRMED|REJECTED|SCHEDULED|ARRIVED|DELIVERED|CANCELLED|RECEIVED|COARSE|SMOOTH|REPAIR|SALARY|LOADING|MAINTENANCE|INSURANCE|OTHER|ACTIVE|INACTIVE|RECEIPT|DELIVERY|ADJUSTMENT)$/;

interface Finding {
  where: string;
  screen: string;
  text: string;
  why: string;
}

/** Every visible text of the page (text nodes, the chosen option of a select, placeholders, SVG text). */
function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent?.replace(/\s+/g, ' ').trim();
      if (!el || !text) continue;
      if (el.closest('script,style,noscript,template,option')) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true } as CheckVisibilityOptions))
        continue;
      // Text marked as English (what the insight and anomaly generators write) is checked for codes only.
      // So is an identifier (the activity log's procedure and field names, as code).
      const english = el.closest('[lang="en"], code') ? '\u0000en' : '';
      // A screen-reader-only text is read out: it counts as well.
      out.push(`${text}\u0000${el.tagName.toLowerCase()}.${el.className}${english}`);
    }
    for (const select of document.querySelectorAll('select')) {
      if (!select.checkVisibility()) continue;
      for (const option of select.options) out.push(`${option.text.replace(/\s+/g, ' ').trim()}\u0000option`);
    }
    for (const input of document.querySelectorAll<HTMLInputElement>(
      'input[placeholder],textarea[placeholder]',
    ))
      if (input.checkVisibility()) out.push(input.placeholder);
    return out.filter(Boolean);
  });
}

function check(texts: string[], language: 'en' | 'sw', screen: string, data: Set<string>): Finding[] {
  const found: Finding[] = [];
  for (const raw of new Set(texts)) {
    const [text = '', where = 'attr', markedEnglish] = raw.split('\u0000');
    const code = text.split(/[^A-Z_]+/).find((w) => RAW_CODE.test(w) && !SETTING.test(w));
    if (code) found.push({ where, screen, text, why: `raw code ${code}` });
    if (language === 'en' || markedEnglish) continue;
    if (STORED_ENGLISH.some((pattern) => pattern.test(text))) continue;
    // Names, sites, e-mail addresses and notes of the seeded business are data, not the screen's words.
    const own = words(text.replace(/\S+@\S+/g, ' '));
    if (own.every((w) => data.has(w) || FIXED_WORDS.has(w))) continue;
    if (englishWhole.has(text) && !kiswahiliSet.has(text)) {
      found.push({ where, screen, text, why: 'English catalog value' });
      continue;
    }
    const fragment = englishFragments.find((f) => text.includes(f));
    if (fragment) {
      found.push({ where, screen, text, why: `English "${fragment}"` });
      continue;
    }
    const english = own.filter((w) => englishOnlyWords.has(w) && !FIXED_WORDS.has(w) && !data.has(w));
    if (english.length) found.push({ where, screen, text, why: `English words ${english.join(', ')}` });
  }
  return found;
}

interface Session {
  context: BrowserContext;
  page: Page;
  problems: string[];
}

/** A fresh phone in the given language, signed in as the sign-in form leaves it. */
async function signIn(account: { email: string; password: string }, language: 'en' | 'sw'): Promise<Session> {
  const session = await phone(language);
  const { token, user } = await api<{ token: string; user: SignedInUser }>(
    app.baseURL,
    'POST',
    '/api/auth/login',
    account,
  );
  await session.page.goto('/login');
  await storeSession(session.page, token, user);
  await session.page.waitForFunction((lang) => document.documentElement.lang === lang, language);
  return session;
}

/** A fresh phone in the given language, nobody signed in, its CSP violations and console errors kept. */
async function phone(language: 'en' | 'sw'): Promise<Session> {
  const { context, page } = await newPage(browser, app.baseURL, PHONE_360);
  const problems: string[] = [];
  await context.addInitScript((lang) => {
    if (!localStorage.getItem('mchanga.language')) localStorage.setItem('mchanga.language', lang);
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `CSP violation: ${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  }, language);
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    // Chromium logs every 4xx answer: the walk's empty submits are refused on purpose. Map tiles come
    // from the internet (MAP_TILE_URL), which this machine has not: the map degrades to a background.
    if (
      /^Failed to load resource: (the server responded with a status of 4\d\d|net::ERR_NAME_NOT_RESOLVED)/.test(
        m.text(),
      )
    )
      return;
    problems.push(`${page.url()}: ${m.text()}`);
  });
  return { context, page, problems };
}

/**
 * Where the answer to a submit is: the focused element, when it is the form's result or error (an alert,
 * a status, a field marked invalid, or a box holding one) inside the phone's viewport; else why not.
 */
function answerInView(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    if (!a || a === document.body) return 'nothing has the focus';
    const answer = '[role=alert], [role=status], .alert, .form-status, [aria-invalid=true]';
    if (!(a.matches(answer) || a.closest(answer) || a.querySelector(answer)))
      return `the focus is on ${a.tagName.toLowerCase()} "${(a.textContent ?? a.getAttribute('aria-label') ?? '').trim().slice(0, 40)}", not a result or error`;
    const r = a.getBoundingClientRect();
    if (r.bottom <= 0 || r.top >= window.innerHeight)
      return `the focused answer is out of view (top ${Math.round(r.top)} px)`;
    return null;
  });
}

/**
 * Submits every form in view once, as it is (empty), so the screen's checks show; after each, the result or
 * the error must be in the viewport and focused.
 */
async function submitForms(page: Page, screen: string): Promise<Finding[]> {
  const findings: Finding[] = [];
  const buttons = page.locator(
    'main form button[type="submit"]:visible, main form button:not([type]):visible',
  );
  const count = await buttons.count();
  for (let i = 0; i < count; i += 1) {
    const button = buttons.nth(i);
    if (!(await button.isVisible().catch(() => false)) || !(await button.isEnabled().catch(() => false)))
      continue;
    // Clearing what the form holds makes the checks answer (a prefilled form would be sent for real).
    const form = button.locator('xpath=ancestor::form[1]');
    const fields = form.locator(
      'input:not([type=hidden]):not([type=checkbox]):not([type=radio]):not([type=file]):not([readonly]):visible, textarea:visible',
    );
    for (let f = 0; f < (await fields.count()); f += 1)
      await fields
        .nth(f)
        .fill('')
        .catch(() => undefined);
    const name = ((await button.textContent().catch(() => '')) ?? '').trim();
    const clicked = await button
      .click({ timeout: 3_000 })
      .then(() => true)
      .catch(() => false);
    if (!clicked) continue;
    await page.waitForTimeout(400);
    const why = await answerInView(page);
    if (why) findings.push({ where: `form button "${name}"`, screen, text: name, why });
  }
  await page.waitForTimeout(300);
  return findings;
}

async function settle(page: Page) {
  // A screen the server drew is on show before the app runs: wait for the app's first render too.
  await untilAppRendered(page, 15_000).catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
  await page.waitForTimeout(200);
}

async function visit(session: Session, path: string, language: 'en' | 'sw', data: Set<string>) {
  const { page } = session;
  await page.goto(path);
  await page.locator('main').first().waitFor();
  await settle(page);
  // The screen is there, in the language walked: a screen that did not load would pass unchecked.
  expect(await page.evaluate(() => document.documentElement.lang), path).toBe(language);
  const texts = await visibleTexts(page);
  expect(texts.length, `${path}: texts on screen`).toBeGreaterThan(3);
  const before = check(texts, language, `${language} ${path}`, data);
  const answers = await submitForms(page, `${language} ${path}`);
  await settle(page);
  const after = check(await visibleTexts(page), language, `${language} ${path} (forms sent)`, data);
  if (language === 'sw' && SHOTS.includes(path))
    await page.screenshot({ path: `/tmp/i18n-walk-sw${path.replaceAll('/', '-')}.png`, fullPage: true });
  return [...before, ...after, ...answers];
}

const OPS_TABS = Object.keys(staffEn.tabs);
/** Kiswahili screens kept as pictures after their forms were sent, to be looked at. */
const SHOTS = ['/ops/finance', '/driver', '/ops/drivers'];

describe('every staff screen in both languages at 360 px', () => {
  for (const language of ['sw', 'en'] as const) {
    it(`${language}: no English on Kiswahili screens, no raw code, no CSP violation or console error`, async () => {
      const data = dataWords(seed);
      const findings: Finding[] = [];
      const problems: string[] = [];
      const admin = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };
      const walks: Array<[{ email: string; password: string }, string[]]> = [
        [admin, [...OPS_TABS.map((tab) => `/ops/${tab}`), '/driver', '/fuel', '/account/password']],
        [seed.accounts.OPS, ['/ops/stock', '/ops/costs', '/ops/fleet', '/fuel']],
        [seed.accounts.DRIVER, ['/driver', '/account/password']],
        [seed.accounts.FUEL, ['/fuel']],
        [seed.accounts.CUSTOMER, ['/customer', '/order']],
      ];
      // The public screens, nobody signed in (a guest order gives the tracking page).
      const guest = await api<{ trackingUrl?: string }>(app.baseURL, 'POST', '/api/orders/guest', {
        name: 'Walk Guest',
        phone: '0711000222',
        site: 'Juja, Gachororo road',
        sandType: 'smooth',
        trucks: 1,
        distanceKm: 12,
        dateNeeded: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
      });
      const tracking = new URL(guest.trackingUrl ?? '/track/none', app.baseURL).pathname;
      {
        const session = await phone(language);
        for (const path of ['/', '/login', '/register', '/forgot-password', '/reset-password', tracking])
          findings.push(...(await visit(session, path, language, data)));
        problems.push(...session.problems);
        await session.context.close();
      }
      for (const [account, paths] of walks) {
        const session = await signIn(account, language);
        for (const path of paths) {
          findings.push(...(await visit(session, path, language, data)));
        }
        problems.push(...session.problems);
        await session.context.close();
      }
      const report = findings.map((f) => `${f.screen}: ${f.why} — "${f.text.slice(0, 120)}" (${f.where})`);
      expect.soft(report).toEqual([]);
      expect.soft(problems).toEqual([]);
    }, 600_000);
  }
});
