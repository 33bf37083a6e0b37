import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonScript } from '../client/prerendered';
import type { TTracking } from '../shared/schemas/tracking';
import { inlineStylesheets } from './landing-html';
import { registerRoutePages } from './route-html';
import { TRACK_ROUTE, trackingPage } from './track-html';

const CSS = 'body{margin:0}.callout{border:1px solid}';
const INDEX =
  '<html><head><meta charset="UTF-8" /><link rel="stylesheet" crossorigin href="/assets/index-abc.css"><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>';
const ANSWER = { orderId: 7, deliveryCode: '4931' } as unknown as TTracking;

describe('inlineStylesheets', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mchanga-css-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'assets', 'index-abc.css'), CSS);
    writeFileSync(join(dir, 'assets', 'odd-abc.css'), 'a::after{content:"</style><script>"}');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the build stylesheet into the head, its link left disabled beside it', () => {
    const html = inlineStylesheets(INDEX, dir);
    expect(html).toContain(
      `<head><meta charset="UTF-8" /><style>${CSS}</style><link rel="stylesheet" href="/assets/index-abc.css" disabled><script type="module"`,
    );
    // Only that disabled link is left, which the app's lazy imports find (and so add no second copy).
    expect(html.match(/rel="stylesheet"/g)).toHaveLength(1);
  });

  it('keeps the link of a stylesheet that is missing or would close the element early', () => {
    const missing = INDEX.replace('index-abc.css', 'gone-abc.css');
    expect(inlineStylesheets(missing, dir)).toBe(missing);
    const odd = INDEX.replace('index-abc.css', 'odd-abc.css');
    expect(inlineStylesheets(odd, dir)).toBe(odd);
  });
});

describe("a tracking link's page with its order in it", () => {
  let dir: string;
  let app: FastifyInstance;
  const renderTracking = vi.fn(async (pathname: string, token: string, answer: TTracking) => ({
    root: `<main><h1>Order #${answer.orderId}</h1><p>${pathname} ${token}</p></main>`,
    data: jsonScript('mchanga-prerendered', { tracking: { token, answer } }),
  }));
  const answers = vi.fn(async (_req: unknown, token: string) => {
    if (token === 'known' || token === 'broken') return ANSWER;
    throw new Error('Tracking link not found.');
  });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mchanga-track-'));
    mkdirSync(join(dir, '.vite'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX);
    writeFileSync(join(dir, 'assets', 'index-abc.css'), CSS);
    writeFileSync(
      join(dir, '.vite', 'route-preloads.json'),
      JSON.stringify([{ path: TRACK_ROUTE, preloads: ['assets/TrackPage.js'] }]),
    );
    app = Fastify();
    const page = trackingPage({ renderTracking }, answers);
    registerRoutePages(
      app,
      dir,
      {},
      {
        [TRACK_ROUTE]: async (req, html) => {
          if ((req.params as { token: string }).token === 'broken') throw new Error('render failed');
          return page(req, html);
        },
      },
    );
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is rendered with the answer for its token, the answer beside it, and kept by no cache', async () => {
    const res = await app.inject({ url: '/track/known?utm=sms' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers.etag).toBeUndefined();
    expect(res.body).toContain(
      '<div id="root"><main><h1>Order #7</h1><p>/track/known known</p></main></div><script type="application/json" id="mchanga-prerendered">',
    );
    expect(res.body).toContain(`<style>${CSS}</style>`);
    expect(res.body).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/TrackPage.js" fetchpriority="low">',
    );
    expect(answers).toHaveBeenLastCalledWith(expect.anything(), 'known');

    const br = await app.inject({ url: '/track/known', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(res.body);
  });

  it.each([
    ['an unknown link', '/track/unknown'],
    ['a render that fails', '/track/broken'],
  ])('%s gets the page as built, which asks for itself', async (_what, url) => {
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).not.toContain('mchanga-prerendered');
  });
});
