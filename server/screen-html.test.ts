import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import { eq, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonScript } from '../client/prerendered';
import { users } from '../drizzle/schema';
import type { FirstCall } from '../shared/first-data';
import { SCREEN_COOKIE, type ScreenDevice, type ScreenViewer } from '../shared/screen-cookie';
import { createTestApp, type SignedIn, type TestApp } from '../test/helpers';
import { registerRoutePages } from './route-html';
import { SCREEN_RENDER_DEADLINE_MS, screenPage } from './screen-html';

const INDEX =
  '<html lang="en"><head><meta charset="UTF-8" /><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>';

type Answers = { call: FirstCall; data: unknown }[];

let t: TestApp;
let dir: string;
let pages: FastifyInstance;
const renderScreen = vi.fn(
  async (pathname: string, viewer: ScreenViewer, { language }: ScreenDevice, answers: Answers) => ({
    root: `<main><h1>${pathname} for ${viewer.email} in ${language}</h1></main>`,
    data: jsonScript('mchanga-prerendered', { screen: { email: viewer.email, answers } }),
  }),
);

beforeAll(async () => {
  t = await createTestApp();
  dir = mkdtempSync(join(tmpdir(), 'mchanga-screen-'));
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(
    join(dir, '.vite', 'route-preloads.json'),
    JSON.stringify([
      { path: '/ops/:tab?', preloads: ['assets/OpsPage.js'] },
      { path: '/ops/orders', screen: '/ops/:tab?', preloads: ['assets/OpsPage.js', 'assets/Orders.js'] },
      { path: '/customer', preloads: ['assets/CustomerPage.js'] },
      { path: '/fuel', preloads: ['assets/FuelPage.js'] },
    ]),
  );
  pages = Fastify();
  await pages.register(fastifyCookie);
  const screen = screenPage({ renderScreen }, t.deps);
  registerRoutePages(pages, dir, {}, { '/ops/:tab?': screen, '/customer': screen, '/fuel': screen });
  await pages.ready();
});
afterAll(async () => {
  await pages.close();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const open = (url: string, cookie?: string) =>
  pages.inject({
    method: 'GET',
    url,
    headers:
      cookie === undefined ? {} : { cookie: `${SCREEN_COOKIE}=${cookie}`, 'accept-encoding': 'identity' },
  });

/** The page as built: it starts its own first request and says nothing of anyone's data. */
function expectBuilt(res: Awaited<ReturnType<typeof open>>) {
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-cache');
  expect(res.body).toContain('<div id="root"></div>');
  expect(res.body).toContain('__mchangaFirstData');
  expect(res.body).not.toContain('mchanga-prerendered');
}

describe("a signed-in screen's page drawn with its data (issue 28)", () => {
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await t.signIn('ADMIN', { name: 'Wanjiru Kamau' });
  });

  it("draws an ADMIN's orders tab with the answers of its first calls, as that user, for no one else", async () => {
    renderScreen.mockClear();
    const res = await open('/ops/orders', `en.${admin.token}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain(
      `<div id="root" data-shell="" inert="" aria-busy="true"><main><h1>/ops/orders for ${admin.user.email} in en</h1></main></div>`,
    );
    // Neither the page's own first request nor the token is in it.
    expect(res.body).not.toContain('__mchangaFirstData');
    expect(res.body).not.toContain(admin.token);
    expect(renderScreen).toHaveBeenCalledOnce();
    const [, viewer, , answers] = renderScreen.mock.calls[0]!;
    expect(viewer).toEqual({ role: 'ADMIN', name: 'Wanjiru Kamau', email: admin.user.email, driverId: null });
    expect(answers.map((a) => a.call.path)).toEqual([
      'admin.payments.unreconciled',
      'admin.orders.list',
      'admin.trucks.list',
      'admin.drivers.list',
      'admin.notifications.list',
    ]);
    // The same answers the API gives that user, as JSON.
    const caller = t.caller(admin.user);
    expect(answers[1]!.data).toEqual(JSON.parse(JSON.stringify(await caller.admin.orders.list())));
    expect(answers[4]!.data).toEqual(JSON.parse(JSON.stringify(await caller.admin.notifications.list())));
    const data = /<script type="application\/json" id="mchanga-prerendered">(.*?)<\/script>/.exec(
      res.body,
    )![1]!;
    expect(JSON.parse(data).screen.email).toBe(admin.user.email);
  });

  it("draws a customer's My Orders with their own orders", async () => {
    renderScreen.mockClear();
    const customer = await t.signIn('CUSTOMER');
    const res = await open('/customer', `en.${customer.token}`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    const [pathname, viewer, , answers] = renderScreen.mock.calls[0]!;
    expect(pathname).toBe('/customer');
    expect(viewer.role).toBe('CUSTOMER');
    expect(answers.map((a) => a.call.path)).toEqual([
      'customers.mine',
      'orders.my',
      'pricing.get',
      'mpesa.options',
    ]);
  });

  it('draws it in the language the cookie names', async () => {
    renderScreen.mockClear();
    const res = await open('/ops/orders', `sw.${admin.token}`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body).toContain('<html lang="sw">');
    expect(res.body).toContain(`/ops/orders for ${admin.user.email} in sw`);
    expect(renderScreen.mock.calls[0]![2]).toEqual({ language: 'sw', width: 0 });
  });

  it("draws it at the viewport width the cookie names (a table from 720 px), or a phone's when it names none", async () => {
    renderScreen.mockClear();
    await open('/ops/orders', `en.1024.${admin.token}`);
    await open('/ops/orders', `sw.360.${admin.token}`);
    await open('/ops/orders', `en.${admin.token}`);
    expect(renderScreen.mock.calls.map((c) => c[2])).toEqual([
      { language: 'en', width: 1024 },
      { language: 'sw', width: 360 },
      { language: 'en', width: 0 },
    ]);
  });

  it('sends the page as built with no cookie or a malformed one', async () => {
    expectBuilt(await open('/ops/orders'));
    expectBuilt(await open('/ops/orders', admin.token));
    expectBuilt(await open('/ops/orders', `en.${admin.token}x.y`));
    expectBuilt(await open('/ops/orders', 'en.not-a-jwt'));
    expectBuilt(await open('/ops/orders', `fr.${admin.token}`));
  });

  it("sends it as built for a screen the cookie's role has no first calls on", async () => {
    const customer = await t.signIn('CUSTOMER');
    expectBuilt(await open('/ops/orders', `en.${customer.token}`));
    expectBuilt(await open('/fuel', `en.${customer.token}`));
    const driver = await t.signIn('DRIVER');
    expectBuilt(await open('/customer', `en.${driver.token}`));
  });

  it('sends it as built for a revoked token, a disabled account, or a password that must be changed', async () => {
    const revoked = await t.signIn('OPS');
    const disabled = await t.signIn('ADMIN');
    const mustChange = await t.signIn('FUEL');
    const fuel = await t.signIn('FUEL');
    const db = t.database.db;
    await db.update(users).set({ tokenVersion: 1 }).where(eq(users.id, revoked.user.id));
    await db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, disabled.user.id));
    await db.update(users).set({ mustChangePassword: true }).where(eq(users.id, mustChange.user.id));
    expectBuilt(await open('/ops', `en.${revoked.token}`));
    expectBuilt(await open('/ops', `en.${disabled.token}`));
    expectBuilt(await open('/fuel', `en.${mustChange.token}`));
    // A FUEL account in good standing does get its screen.
    expect((await open('/fuel', `en.${fuel.token}`)).headers['cache-control']).toBe('private, no-store');
  });

  it('sends it as built, without waiting, while the database holds the session lookup', async () => {
    renderScreen.mockClear();
    // The users table locked for 4 s: the token's user cannot be read (a database stuck on a lock).
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holding = t.database.db.transaction(async (tx) => {
      await tx.execute(sql`lock table users in access exclusive mode`);
      locked();
      await new Promise((resolve) => setTimeout(resolve, 4_000));
    });
    await isLocked;
    const started = performance.now();
    const res = await open('/ops/orders', `en.${admin.token}`);
    const took = performance.now() - started;
    expectBuilt(res);
    expect(took).toBeGreaterThanOrEqual(SCREEN_RENDER_DEADLINE_MS - 50);
    expect(took).toBeLessThan(SCREEN_RENDER_DEADLINE_MS + 1_500);
    expect(renderScreen).not.toHaveBeenCalled();
    await holding;
  });

  it('sends it as built when the render fails', async () => {
    renderScreen.mockRejectedValueOnce(new Error('render failed'));
    expectBuilt(await open('/ops/orders', `en.${admin.token}`));
  });
});
