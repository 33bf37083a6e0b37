import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PRICING } from '../shared/domain/pricing';
import type { TPricingInfo } from '../shared/schemas/pricing';
import { createLandingPages, fillTemplate, pickEncoding, registerLandingPage } from './landing-html';

const PRICING: TPricingInfo = {
  ...DEFAULT_PRICING,
  paymentOptions: [],
  dispatch: {
    phone: '0700 111 222',
    email: 'dispatch@example.co.ke',
    whatsapp: 'https://wa.me/254700111222',
    hours: '06:30-19:00',
  },
};

describe('fillTemplate', () => {
  it('puts the page in the empty root and its data right after it', () => {
    const html = fillTemplate('<body><div id="root"></div><p>after</p></body>', {
      root: '<main>KES 5,000 $& $1</main>',
      data: '<script type="application/json" id="d">{}</script>',
    });
    expect(html).toBe(
      '<body><div id="root"><main>KES 5,000 $& $1</main></div><script type="application/json" id="d">{}</script><p>after</p></body>',
    );
  });

  it('refuses a template without an empty root', () => {
    expect(() => fillTemplate('<div id="root">x</div>', { root: '', data: '' })).toThrow(
      /no <div id="root">/,
    );
  });
});

describe('pickEncoding', () => {
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.8', 'gzip'],
    ['BR', 'br'],
    ['deflate', 'identity'],
    [undefined, 'identity'],
    ['gzip;q=0', 'identity'],
  ] as const)('%s → %s', (header, encoding) => {
    expect(pickEncoding(header)).toBe(encoding);
  });
});

describe('createLandingPages', () => {
  it('renders once per pricing, shares a render between concurrent requests and forgets a failure', async () => {
    const render = vi.fn(async (p: TPricingInfo) => ({ root: `<b>${p.basePrice}</b>`, data: '' }));
    const pages = createLandingPages('<div id="root"></div>', render);
    const [a, b] = await Promise.all([pages(PRICING), pages({ ...PRICING })]);
    expect(a).toBe(b);
    expect(a.body.identity.toString()).toBe(`<div id="root"><b>${PRICING.basePrice}</b></div>`);
    expect(render).toHaveBeenCalledTimes(1);

    const changed = await pages({ ...PRICING, basePrice: 9999 });
    expect(changed.body.identity.toString()).toContain('<b>9999</b>');
    expect(changed.etag).not.toBe(a.etag);
    expect(brotliDecompressSync(changed.body.br).toString()).toBe(changed.body.identity.toString());
    expect(gunzipSync(changed.body.gzip).toString()).toBe(changed.body.identity.toString());

    render.mockRejectedValueOnce(new Error('boom'));
    await expect(pages({ ...PRICING, basePrice: 1 })).rejects.toThrow('boom');
    expect((await pages({ ...PRICING, basePrice: 1 })).body.identity.toString()).toContain('<b>1</b>');
  });
});

describe('registerLandingPage', () => {
  let dir: string;
  let pricing: () => Promise<TPricingInfo>;
  let app: ReturnType<typeof Fastify>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mchanga-landing-'));
    const client = join(dir, 'client');
    mkdirSync(join(client, '.vite'), { recursive: true });
    mkdirSync(join(dir, 'ssr'));
    writeFileSync(join(client, 'index.html'), '<html><body><div id="root"></div></body></html>');
    writeFileSync(
      join(client, '.vite', 'landing.html'),
      '<html><head><link rel="modulepreload" href="/assets/LandingPage.js"></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(
      join(dir, 'ssr', 'prerender.js'),
      `export async function renderLanding(p) {
        return { root: '<main>Base ' + p.basePrice + '</main>', data: '<script type="application/json">' + JSON.stringify({ pricing: p }) + '</script>' };
      }`,
    );
    pricing = async () => PRICING;
    app = Fastify();
    await app.register(fastifyStatic, { root: client, wildcard: false, index: false });
    await registerLandingPage(app, client, () => pricing());
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves / rendered with the current pricing, compressed, revalidated by its ETag', async () => {
    const res = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = brotliDecompressSync(res.rawPayload).toString();
    expect(html).toContain(`<div id="root"><main>Base ${PRICING.basePrice}</main></div>`);
    expect(html).toContain('modulepreload');
    expect(html).toContain('"dispatch@example.co.ke"');

    const again = await app.inject({ url: '/', headers: { 'if-none-match': res.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const plain = await app.inject({ url: '/' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(html);
  });

  it('renders again when the pricing changes', async () => {
    pricing = async () => ({ ...PRICING, basePrice: 41_000 });
    const res = await app.inject({ url: '/' });
    expect(res.body).toContain('<main>Base 41000</main>');
  });

  it('sends the plain index.html when the pricing cannot be read', async () => {
    pricing = async () => {
      throw new Error('database away');
    };
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('<html><body><div id="root"></div></body></html>');
  });
});
