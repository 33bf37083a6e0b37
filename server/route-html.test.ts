import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { brotliDecompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchUrl, FIRST_DATA } from '../shared/first-data';
import { securityHeaders } from './app';
import {
  FIRST_DATA_SCRIPT,
  FIRST_DATA_SCRIPT_SRC,
  registerRoutePages,
  withFirstData,
  withPreloads,
} from './route-html';

const INDEX =
  '<html><head><meta charset="UTF-8" /><link rel="stylesheet" href="/assets/index.css"><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>';

describe('withPreloads', () => {
  it('adds one modulepreload per file before </head>, in order', () => {
    const html = withPreloads(INDEX, ['assets/api.js', 'assets/FuelPage.js']);
    const links = [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map(
      (m) => m[1],
    );
    expect(links).toEqual(['/assets/api.js', '/assets/FuelPage.js']);
    expect(html.indexOf('FuelPage.js')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<div id="root"></div>');
  });

  it('refuses a template without a head rather than dropping the links', () => {
    expect(() => withPreloads('<div id="root"></div>', ['assets/a.js'])).toThrow('</head>');
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
        ['/fuel', '/driver', '/customer', '/ops/:tab?', '/login', '/track/:token'].map((path) => ({
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
    expect(scriptSrc?.trim()).toBe(`script-src 'self' 'sha256-${hash}'`);
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
    ['/ops', 'ADMIN'],
    ['/ops/orders', 'ADMIN'],
    ['/ops', 'OPS'],
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
    expect(runScript('/ops/stock', { token: 't', role: 'ADMIN' }).fetched).toEqual([]);
    expect(runScript('/fuel/extra', { token: 't', role: 'FUEL' }).fetched).toEqual([]);
  });
});
