import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerRoutePages, withPreloads } from './route-html';

const INDEX =
  '<html><head><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>';

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
