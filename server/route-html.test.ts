import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { brotliDecompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonScript } from '../client/prerendered';
import { batchUrl, FIRST_DATA } from '../shared/first-data';
import { GUEST, SHELL_ATTRIBUTE, SHELL_DATA_ID, type ShellVariant } from '../shared/staff-shell';
import { securityHeaders } from './app';
import {
  FIRST_DATA_SCRIPT,
  FIRST_DATA_SCRIPT_SRC,
  registerRoutePages,
  STAFF_SHELL_SCRIPT,
  STAFF_SHELL_SCRIPT_SRC,
  withFirstData,
  withModulesAtLowPriority,
  withPreloads,
  withStaffShell,
} from './route-html';

const INDEX =
  '<html><head><meta charset="UTF-8" /><link rel="stylesheet" href="/assets/index.css"><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>';

describe('withPreloads', () => {
  it('adds one modulepreload per file before </head>, in order', () => {
    const html = withPreloads(INDEX, ['assets/api.js', 'assets/FuelPage.js']);
    const links = [
      ...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)" fetchpriority="low">/g),
    ].map((m) => m[1]);
    expect(links).toEqual(['/assets/api.js', '/assets/FuelPage.js']);
    expect(html.indexOf('FuelPage.js')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<div id="root"></div>');
  });

  it('refuses a template without a head rather than dropping the links', () => {
    expect(() => withPreloads('<div id="root"></div>', ['assets/a.js'])).toThrow('</head>');
  });
});

describe('withModulesAtLowPriority', () => {
  it.each([
    [
      'the entry script',
      '<script type="module" crossorigin src="/assets/index.js"></script>',
      '<script type="module" crossorigin src="/assets/index.js" fetchpriority="low"></script>',
    ],
    [
      'a modulepreload Vite wrote',
      '<link rel="modulepreload" crossorigin href="/assets/main.js">',
      '<link rel="modulepreload" crossorigin href="/assets/main.js" fetchpriority="low">',
    ],
    [
      'a tag that already says its priority',
      '<link rel="modulepreload" href="/a.js" fetchpriority="high">',
      '<link rel="modulepreload" href="/a.js" fetchpriority="high">',
    ],
    [
      'the stylesheet',
      '<link rel="stylesheet" href="/assets/index.css">',
      '<link rel="stylesheet" href="/assets/index.css">',
    ],
    [
      'an inline script (the first data request)',
      '<script>fetch("/trpc/x")</script>',
      '<script>fetch("/trpc/x")</script>',
    ],
    [
      'the data the landing page hydrates with',
      '<script type="application/json" id="d">{}</script>',
      '<script type="application/json" id="d">{}</script>',
    ],
  ])('%s', (_what, html, expected) => {
    expect(withModulesAtLowPriority(html)).toBe(expected);
  });

  it('leaves every module tag of a page at low priority, once', () => {
    const page = withModulesAtLowPriority(withPreloads(INDEX, ['assets/api.js']));
    expect(page.match(/fetchpriority="low"/g)).toHaveLength(2);
  });
});

describe('registerRoutePages', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mchanga-routes-'));
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(
      join(dir, '.vite', 'route-preloads.json'),
      JSON.stringify([
        { path: '/fuel', preloads: ['assets/api.js', 'assets/FuelPage.js'] },
        { path: '/driver', preloads: ['assets/api.js', 'assets/DriverPage.js'] },
        { path: '/customer', preloads: ['assets/api.js', 'assets/CustomerPage.js'] },
        { path: '/login', preloads: ['assets/api.js', 'assets/LoginPage.js'] },
        { path: '/ops/:tab?', preloads: ['assets/api.js', 'assets/OpsPage.js'] },
        { path: '/track/:token', preloads: ['assets/TrackPage.js'] },
      ]),
    );
    app = Fastify();
    registerRoutePages(app, dir);
    app.setNotFoundHandler((_req, reply) => reply.code(404).send('fallback'));
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const preloadsOf = (html: string) =>
    [...html.matchAll(/modulepreload" crossorigin href="\/assets\/(\w+)\.js/g)].map((m) => m[1]);

  it.each([
    ['/fuel', ['api', 'FuelPage']],
    ['/ops', ['api', 'OpsPage']],
    ['/ops/fleet', ['api', 'OpsPage']],
    ['/track/3f9a0c', ['TrackPage']],
  ])('%s is index.html with its own chunks preloaded', async (url, chunks) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(preloadsOf(res.body)).toEqual(chunks);
    expect(res.body).toContain('<script type="module" src="/assets/index.js">');
  });

  it('goes out brotli-compressed when accepted, and 304 for the ETag the browser holds', async () => {
    const plain = await app.inject({ url: '/fuel' });
    const res = await app.inject({ url: '/fuel', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(plain.body);
    const again = await app.inject({
      url: '/fuel',
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it("serves a workspace tab's own page: its tab's chunk, and the workspace's first data and top", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mchanga-routes-'));
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(
      join(dir, '.vite', 'route-preloads.json'),
      JSON.stringify([
        {
          path: '/ops/:tab?',
          preloads: ['assets/OpsPage.js', 'assets/OverviewTab.js', 'assets/StockTab.js'],
        },
        { path: '/ops/orders', screen: '/ops/:tab?', preloads: ['assets/OpsPage.js', 'assets/OrdersTab.js'] },
      ]),
    );
    const tabs = Fastify();
    registerRoutePages(tabs, dir, { '/ops/:tab?': '<script type="application/json">TOP</script>' });
    for (const [url, chunks] of [
      ['/ops', ['OpsPage', 'OverviewTab', 'StockTab']],
      ['/ops/orders', ['OpsPage', 'OrdersTab']],
      // A tab without a page of its own (a mistyped one): the workspace's page.
      ['/ops/nothing', ['OpsPage', 'OverviewTab', 'StockTab']],
    ] as const) {
      const body = (await tabs.inject({ url })).body;
      expect(preloadsOf(body), url).toEqual(chunks);
      expect(inlineScriptOf(body), url).toBe(FIRST_DATA_SCRIPT);
      expect(body, url).toContain(`TOP</script><script>${STAFF_SHELL_SCRIPT}</script>`);
    }
    await tabs.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers HEAD, and leaves any other path to the fallback', async () => {
    expect((await app.inject({ method: 'HEAD', url: '/fuel' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/fuel/extra' })).body).toBe('fallback');
    expect((await app.inject({ url: '/nowhere' })).body).toBe('fallback');
  });

  it('registers nothing for a build without the list', async () => {
    const bare = Fastify();
    const empty = mkdtempSync(join(tmpdir(), 'mchanga-routes-'));
    writeFileSync(join(empty, 'index.html'), INDEX);
    registerRoutePages(bare, empty);
    expect((await bare.inject({ url: '/fuel' })).statusCode).toBe(404);
    await bare.close();
    rmSync(empty, { recursive: true, force: true });
  });
});

/** The inline script's one `<script>` (without attributes) in a page, or undefined. */
const inlineScriptOf = (html: string) => /<script>([\s\S]*?)<\/script>/.exec(html)?.[1];

describe('the first data request of a staff screen (issue 28)', () => {
  let dir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mchanga-routes-'));
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(
      join(dir, '.vite', 'route-preloads.json'),
      JSON.stringify(
        ['/fuel', '/driver', '/customer', '/order', '/ops/:tab?', '/login', '/track/:token'].map((path) => ({
          path,
          preloads: ['assets/api.js'],
        })),
      ),
    );
    app = Fastify();
    registerRoutePages(app, dir);
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('puts the script right after <meta charset>, before the stylesheet and the entry', () => {
    const html = withFirstData(INDEX);
    const script = html.indexOf(`<script>${FIRST_DATA_SCRIPT}</script>`);
    expect(script).toBeGreaterThan(html.indexOf('<meta charset="UTF-8" />'));
    expect(script).toBeLessThan(html.indexOf('<link rel="stylesheet"'));
    expect(script).toBeLessThan(html.indexOf('<script type="module"'));
    expect(() => withFirstData('<html><head></head></html>')).toThrow('<meta charset>');
  });

  it.each([
    ['/fuel', true],
    ['/driver', true],
    ['/customer', true],
    ['/order', true],
    ['/ops', true],
    ['/ops/orders', true],
    ['/login', false],
    ['/track/3f9a0c', false],
  ])('%s carries the script: %s', async (url, carries) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(inlineScriptOf(res.body)).toBe(carries ? FIRST_DATA_SCRIPT : undefined);
  });

  it('is allowed by its hash in the page policy, with no unsafe-inline script', async () => {
    const body = (await app.inject({ url: '/fuel' })).body;
    const hash = createHash('sha256').update(inlineScriptOf(body)!).digest('base64');
    expect(FIRST_DATA_SCRIPT_SRC).toBe(`'sha256-${hash}'`);
    const csp = securityHeaders('https://tile.openstreetmap.org/{z}/{x}/{y}.png')['content-security-policy']!;
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'));
    expect(scriptSrc?.trim()).toBe(`script-src 'self' 'sha256-${hash}' ${STAFF_SHELL_SCRIPT_SRC}`);
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  /** Runs the script as a page at `pathname` with this localStorage would, and returns what it fetched. */
  function runScript(pathname: string, stored: Record<string, string>) {
    const fetched: { url: string; authorization: string }[] = [];
    const window: Record<string, unknown> = {
      localStorage: { getItem: (k: string) => stored[k] ?? null },
      fetch: (url: string, init: { headers: { authorization: string } }) => {
        fetched.push({ url, authorization: init.headers.authorization });
        return Promise.resolve({ json: () => Promise.resolve([]) });
      },
    };
    runInNewContext(FIRST_DATA_SCRIPT, {
      window,
      location: { pathname },
      performance: { now: () => 12 },
      fetch: window.fetch,
      encodeURIComponent,
      JSON,
      RegExp,
    });
    return { fetched, left: window.__mchangaFirstData as { url: string; startedAt: number } | undefined };
  }

  it.each([
    ['/fuel', 'FUEL'],
    ['/driver', 'DRIVER'],
    ['/customer', 'CUSTOMER'],
    ['/order', 'CUSTOMER'],
    ['/ops', 'ADMIN'],
    ['/ops/orders', 'ADMIN'],
    ['/ops/stock', 'ADMIN'],
    ['/ops', 'OPS'],
    ['/ops/costs', 'OPS'],
  ])("%s as %s: starts the screen's batch with the stored token and leaves it for the app", (path, role) => {
    const { fetched, left } = runScript(path, { token: 'tok-1', role });
    const entry = FIRST_DATA.find((e) => e.role === role && new RegExp(e.route).test(path))!;
    expect(fetched).toEqual([{ url: batchUrl(entry.calls), authorization: 'Bearer tok-1' }]);
    expect(left?.url).toBe(batchUrl(entry.calls));
    expect(left?.startedAt).toBe(12);
  });

  it('starts nothing without a session, for another role, on the password screen only, or elsewhere', () => {
    expect(runScript('/fuel', {}).fetched).toEqual([]);
    expect(runScript('/fuel', { token: 't', role: 'DRIVER' }).fetched).toEqual([]);
    expect(runScript('/fuel', { token: 't', role: 'FUEL', mustChangePassword: 'true' }).fetched).toEqual([]);
    expect(runScript('/ops/orders', { token: 't', role: 'OPS' }).fetched).toEqual([]);
    expect(runScript('/ops/stock/extra', { token: 't', role: 'ADMIN' }).fetched).toEqual([]);
    expect(runScript('/fuel/extra', { token: 't', role: 'FUEL' }).fetched).toEqual([]);
  });
});

describe("a staff screen's top in its page (issue 28)", () => {
  const VARIANTS: ShellVariant[] = [
    { role: 'DRIVER', linked: true, en: '<h1>Hi {{name}}</h1>', sw: '<h1>Habari {{name}}</h1>' },
    { role: 'DRIVER', linked: false, en: '<h1>Not linked</h1>', sw: '<h1>Haijaunganishwa</h1>' },
    { role: 'FUEL', en: '<h1>Fuel</h1>', sw: '<h1>Mafuta</h1>' },
  ];
  const SHELL = jsonScript(SHELL_DATA_ID, VARIANTS);

  it('follows the empty root, its data and then the script, and is allowed by its hash', async () => {
    const html = withStaffShell(INDEX, SHELL);
    expect(html).toContain(`<div id="root"></div>${SHELL}<script>${STAFF_SHELL_SCRIPT}</script>`);
    expect(() => withStaffShell('<html><body></body></html>', SHELL)).toThrow('<div id="root"></div>');
    const hash = createHash('sha256').update(STAFF_SHELL_SCRIPT).digest('base64');
    expect(STAFF_SHELL_SCRIPT_SRC).toBe(`'sha256-${hash}'`);

    const dir = mkdtempSync(join(tmpdir(), 'mchanga-routes-'));
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(
      join(dir, '.vite', 'route-preloads.json'),
      JSON.stringify([
        { path: '/fuel', preloads: [] },
        { path: '/login', preloads: [] },
      ]),
    );
    const app = Fastify();
    registerRoutePages(app, dir, { '/fuel': SHELL });
    const fuel = (await app.inject({ url: '/fuel' })).body;
    expect(fuel).toContain(`${SHELL}<script>${STAFF_SHELL_SCRIPT}</script>`);
    // Still the first-data script first, in the head.
    expect(inlineScriptOf(fuel)).toBe(FIRST_DATA_SCRIPT);
    expect((await app.inject({ url: '/login' })).body).not.toContain(SHELL_DATA_ID);
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs the script as the page would, with this localStorage; answers the root it leaves. */
  function runShell(stored: Record<string, string>, rootHtml = '', variants: ShellVariant[] = VARIANTS) {
    const attributes: Record<string, string> = {};
    const root = {
      innerHTML: rootHtml,
      get firstChild() {
        return this.innerHTML ? {} : null;
      },
      setAttribute: (name: string, value: string) => {
        attributes[name] = value;
      },
    };
    const data = { textContent: JSON.stringify(variants) };
    const window = { localStorage: { getItem: (k: string) => stored[k] ?? null } };
    runInNewContext(STAFF_SHELL_SCRIPT, {
      window,
      document: {
        getElementById: (id: string) => (id === 'root' ? root : id === SHELL_DATA_ID ? data : null),
      },
      JSON,
    });
    return { html: root.innerHTML, attributes: Object.keys(attributes).sort() };
  }

  it("writes the stored role's variant in the stored language, the name escaped, and marks the root", () => {
    expect(runShell({ token: 't', role: 'FUEL' })).toEqual({
      html: '<h1>Fuel</h1>',
      attributes: ['aria-busy', SHELL_ATTRIBUTE, 'inert'].sort(),
    });
    expect(runShell({ token: 't', role: 'FUEL', 'mchanga.language': 'sw' }).html).toBe('<h1>Mafuta</h1>');
    expect(
      runShell({ token: 't', role: 'DRIVER', driverId: 'D-1', userName: '<b>Otieno & "Sons"</b>' }).html,
    ).toBe('<h1>Hi &#60;b&#62;Otieno &#38; &#34;Sons&#34;&#60;/b&#62;</h1>');
    expect(runShell({ token: 't', role: 'DRIVER', userName: 'Otieno' }).html).toBe('<h1>Not linked</h1>');
    // Linked but without a name: the screen says something else (its fallback), so nothing is written.
    expect(runShell({ token: 't', role: 'DRIVER', driverId: 'D-1' }).html).toBe(
      '<h1>Not linked</h1>'.slice(0, 0),
    );
  });

  it('writes nothing without a session, for a role without a variant, on the password screen only, or over a kept screen', () => {
    expect(runShell({})).toEqual({ html: '', attributes: [] });
    expect(runShell({ token: 't', role: 'CUSTOMER' })).toEqual({ html: '', attributes: [] });
    expect(runShell({ token: 't', role: 'FUEL', mustChangePassword: 'true' })).toEqual({
      html: '',
      attributes: [],
    });
    expect(runShell({ token: 't', role: 'FUEL' }, '<p>kept</p>')).toEqual({
      html: '<p>kept</p>',
      attributes: [],
    });
  });

  it("writes a public screen's guest variant on a device without a session, and only there", () => {
    const withGuest = [...VARIANTS, { role: GUEST, en: '<h1>Sign in</h1>', sw: '<h1>Ingia</h1>' }];
    expect(runShell({}, '', withGuest)).toEqual({
      html: '<h1>Sign in</h1>',
      attributes: ['aria-busy', SHELL_ATTRIBUTE, 'inert'].sort(),
    });
    expect(runShell({ 'mchanga.language': 'sw' }, '', withGuest).html).toBe('<h1>Ingia</h1>');
    // A signed-in device gets its role's variant or none: the app sends it on from a public screen.
    expect(runShell({ token: 't', role: 'FUEL' }, '', withGuest).html).toBe('<h1>Fuel</h1>');
    expect(runShell({ token: 't', role: 'CUSTOMER' }, '', withGuest).html).toBe('');
    expect(runShell({ token: 't' }, '', withGuest).html).toBe('');
  });
});
