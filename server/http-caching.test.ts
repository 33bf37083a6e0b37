import { randomBytes } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createLimiters, LIMIT_RULES } from '../core/auth/rate-limit';
import { createDb, type Database } from '../drizzle/db';
import { articles, pricingSettings } from '../drizzle/schema';
import { silentLogger } from '../shared/logger';
import { withDatabase } from '../test/global-db';
import { createTestApp, createTestDatabase, type TestApp, testSettings } from '../test/helpers';
import { InProcessRunner } from '../worker/transport/in-process';
import { buildApp } from './app';

/**
 * Issue 12, item 1 and 5: cacheable public answers carry an ETag and answer 304; JSON of 1 KB and more is
 * compressed on the fly, smaller answers are not; the in-memory pricing follows a change made through
 * another server instance on the same database (its NOTIFY on mchanga_cache), not only after the TTL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('ETag and 304', () => {
  it.each(['/api/pricing', '/api/articles'])('GET %s answers 304 to its own ETag', async (url) => {
    const first = await t.call('GET', url);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await t.call('GET', url, null, undefined, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const other = await t.call('GET', url, null, undefined, { 'if-none-match': 'W/"something-else"' });
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual(first.json());
  });
});

describe('compression of JSON answers', () => {
  afterEach(() => t.database.db.delete(articles));

  it('sends an answer under 1 KB as it is, whatever the client accepts', async () => {
    const res = await t.call('GET', '/api/pricing', null, undefined, { 'accept-encoding': 'br, gzip' });
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().basePrice).toBe(32000);
  });

  it('compresses an answer of 1 KB and more with brotli or gzip, as accepted, and varies on it', async () => {
    for (let i = 1; i <= 6; i++)
      await t.database.db.insert(articles).values({
        title: `Yard briefing ${i}`,
        body: `Coarse and smooth sand in stock at Juja; trucks leave from 06:30. `.repeat(4),
        forDate: `2026-11-1${i}`,
      });
    // The cached list follows the inserts by the articles table's NOTIFY.
    let plain = await t.call('GET', '/api/articles');
    for (let i = 0; i < 200 && plain.json().length < 6; i++) {
      await new Promise((r) => setTimeout(r, 25));
      plain = await t.call('GET', '/api/articles');
    }
    expect(plain.json()).toHaveLength(6);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await t.call('GET', '/api/articles', null, undefined, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers.etag).toBe(plain.headers.etag);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gz = await t.call('GET', '/api/articles', null, undefined, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());

    const api = await t.call('GET', '/api/openapi.json', null, undefined, { 'accept-encoding': 'br' });
    expect(api.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(api.rawPayload).toString()).openapi).toMatch(/^3\./);
  });

  it('still answers 304 without a body to a client that accepts compression', async () => {
    const first = await t.call('GET', '/api/pricing', null, undefined, { 'accept-encoding': 'br' });
    const again = await t.call('GET', '/api/pricing', null, undefined, {
      'accept-encoding': 'br',
      'if-none-match': first.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });
});

/** Two server instances on one database: a cloned PostgreSQL database (services mode), or one PGlite. */
async function twoDatabases(): Promise<[Database, Database, () => Promise<void>]> {
  const template = inject('pgTemplate');
  const url = process.env.DATABASE_URL;
  if (!template || !url) {
    const one = await createTestDatabase();
    return [one, one, () => one.close()];
  }
  const name = `${template.replace('tpl', 't')}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name} template ${template}`);
  await admin.end();
  const a = await createDb({ databaseUrl: withDatabase(url, name), migrate: false, poolSize: 2 });
  const b = await createDb({ databaseUrl: withDatabase(url, name), migrate: false, poolSize: 2 });
  return [a, b, async () => Promise.all([a.close(), b.close()]).then(() => undefined)];
}

async function instance(database: Database) {
  const settings = testSettings();
  const jobs = new InProcessRunner(
    { database, settings, llm: null, now: () => new Date(), log: silentLogger },
    { schedules: false },
  );
  const app = await buildApp({
    database,
    settings,
    jobs,
    llm: null,
    limiters: createLimiters({ db: database.db }, LIMIT_RULES),
    log: silentLogger,
  });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await jobs.close();
    },
  };
}

describe('the cached pricing across server instances', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('instance B answers a pricing change made through instance A by its NOTIFY, before any TTL', async () => {
    const [dbA, dbB, closeDbs] = await twoDatabases();
    const a = await instance(dbA);
    const b = await instance(dbB);
    try {
      const before = await b.app.inject({ url: '/api/pricing' });
      expect(before.json().basePrice).toBe(32000);
      // The clock stands still from here: B's copy cannot expire, only a NOTIFY can drop it.
      vi.useFakeTimers({ toFake: ['Date'] });
      expect((await b.app.inject({ url: '/api/pricing' })).json().basePrice).toBe(32000);
      await dbA.db.update(pricingSettings).set({ basePriceCents: 3_650_000 });
      let seen = 0;
      for (let i = 0; i < 200 && seen !== 36500; i++) {
        seen = (await b.app.inject({ url: '/api/pricing' })).json().basePrice;
        if (seen !== 36500) await new Promise((r) => setTimeout(r, 25));
      }
      expect(seen).toBe(36500);
      const quote = await b.app.inject({
        method: 'POST',
        url: '/api/pricing/quote',
        payload: { site: 'Ruiru', trucks: 1, distanceKm: 10 },
      });
      expect(quote.json().perTruck).toBe(36500);
      // The old ETag no longer matches: the client gets the new pricing, not a 304.
      const revalidated = await b.app.inject({
        url: '/api/pricing',
        headers: { 'if-none-match': before.headers.etag as string },
      });
      expect(revalidated.statusCode).toBe(200);
      expect(revalidated.headers.etag).not.toBe(before.headers.etag);
    } finally {
      vi.useRealTimers();
      await a.close();
      await b.close();
      await closeDbs();
    }
  });
});
