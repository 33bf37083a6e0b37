import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { backupRuns } from '../drizzle/schema';
import { createTestApp, type TestApp } from '../test/helpers';
import { API_SECURITY_HEADERS, buildApp } from './app';
import { procedureDefs, restRoutes } from './rest';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/health', () => {
  it('reports the database and the job transport', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      database: { ok: true, driver: expect.stringMatching(/pglite|postgres/) },
      jobs: { ok: true, transport: 'in-process' },
    });
  });

  it('shows the last heartbeat once the heartbeat job has run', async () => {
    // Only this test runs the heartbeat: before it, none is known, whichever tests ran first.
    expect((await t.app.inject({ url: '/api/health' })).json().jobs.lastHeartbeatAt).toBeNull();
    await t.jobs.enqueue('system.heartbeat', {});
    await t.jobs.drain();
    const res = await t.app.inject({ url: '/api/health' });
    expect(Date.parse(res.json().jobs.lastHeartbeatAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it("shows the last backup's time and size, and a newer failed run's error (issue 25)", async () => {
    expect((await t.app.inject({ url: '/api/health' })).json().backup).toEqual({
      lastAt: null,
      sizeBytes: null,
      lastRunStatus: null,
      lastRunError: null,
    });
    const finishedAt = new Date('2026-11-25T23:31:00Z');
    await t.database.db.insert(backupRuns).values([
      {
        status: 'ok',
        startedAt: new Date('2026-11-25T23:30:00Z'),
        finishedAt,
        file: 'a.tar.gz',
        sizeBytes: 4096,
      },
    ]);
    expect((await t.app.inject({ url: '/api/health' })).json().backup).toEqual({
      lastAt: finishedAt.toISOString(),
      sizeBytes: 4096,
      lastRunStatus: 'ok',
      lastRunError: null,
    });
    await t.database.db
      .insert(backupRuns)
      .values({ status: 'failed', startedAt: new Date(), finishedAt: new Date(), error: 'disk full' });
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().backup).toEqual({
      lastAt: finishedAt.toISOString(),
      sizeBytes: 4096,
      lastRunStatus: 'failed',
      lastRunError: 'disk full',
    });
  });

  it('answers 503 when the database is unreachable', async () => {
    const broken = await buildApp({
      ...t.deps,
      database: { ...t.database, ping: async () => false },
    });
    const res = await broken.inject({ url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json().database.ok).toBe(false);
    await broken.close();
  });
});

describe('GET /api/openapi.json', () => {
  it('documents every /api route the server registers, and nothing it does not', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.0.3');
    const served = t.app.apiRoutes.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`).sort();
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(documented).toEqual(served);
    const login = doc.paths['/api/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    expect(login.security).toEqual([]);
  });

  it('keeps path parameters out of request bodies and lists the real 4xx answers', async () => {
    const doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
    const patchTruck = doc.paths['/api/admin/trucks/{id}'].patch;
    expect(patchTruck.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:id',
    ]);
    expect(Object.keys(patchTruck.requestBody.content['application/json'].schema.properties)).not.toContain(
      'id',
    );
    expect(Object.keys(patchTruck.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404']),
    );
    const addCost = doc.paths['/api/admin/costs'].post;
    expect(addCost.responses['409'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/DuplicateConflict',
    );
    expect(doc.paths['/api/telemetry/osmand'].get.security).toEqual([]);
  });

  it('gives each operation with input an example that its own schema accepts', async () => {
    for (const route of restRoutes()) {
      const input = procedureDefs()[route.procedure]!._def.inputs?.[0] as z.ZodType | undefined;
      if (!input) continue;
      expect(route.example, `${route.method} ${route.path} has no example`).toBeDefined();
      const parsed = input.safeParse(route.example);
      expect(parsed.success ? 'ok' : parsed.error.issues, `${route.method} ${route.path}`).toBe('ok');
    }
  });
});

describe('errors and headers', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No such API endpoint.' });
  });

  it('sets security headers: the app policy on pages, a stricter short set on API answers', async () => {
    const page = await t.app.inject({ url: '/some/screen' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');

    for (const url of ['/api/health', '/api/pricing?x=1', '/api/no-such-call', '/api', '/trpc/pricing.get']) {
      const res = await t.app.inject({ url });
      const security = Object.fromEntries(
        Object.keys(API_SECURITY_HEADERS).map((name) => [name, res.headers[name]]),
      );
      expect(security, url).toEqual(API_SECURITY_HEADERS);
      expect(res.headers['content-security-policy'], url).toBe("default-src 'none'; frame-ancestors 'none'");
      // Nothing of the page policy's document-only headers.
      expect(res.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(res.headers['x-xss-protection'], url).toBeUndefined();
    }
  });

  it('serves tRPC at /trpc with readable error messages', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/trpc/auth.login',
      payload: { email: 'missing@example.co.ke', password: 'whatever1' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.message).toBe('Invalid email or password.');
    expect(JSON.stringify(res.json())).not.toMatch(/stack|at .*\.ts/);
  });
});

describe('client hosting', () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mchanga-client-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Mchanga</title><div id="root"></div>');
    writeFileSync(join(dir, 'assets', 'app-abc123.js'), 'console.log(1)');
    app = await buildApp(t.deps, { clientDir: dir });
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the SPA for client routes and long-caches fingerprinted assets', async () => {
    const page = await app.inject({ url: '/ops' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await app.inject({ url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await app.inject({ url: '/api/unknown' })).statusCode).toBe(404);
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  const login = (app: TestApp, i: number, forwardedFor: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'x-forwarded-for': forwardedFor },
      payload: { email: `nobody${i}@example.co.ke`, password: 'wrong-password' },
    });

  it('with one trusted hop, a rotating X-Forwarded-For cannot dodge the per-IP sign-in limit', async () => {
    const proxied = await createTestApp({ settings: { trustProxy: 1 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 80; i++)
        statuses.push((await login(proxied, i, `198.51.100.${i}, 203.0.113.9`)).statusCode);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(20);
      // Another client behind the same proxy is its own address.
      expect((await login(proxied, 999, '203.0.113.10')).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('trusts X-Forwarded-For only from the listed proxy addresses', async () => {
    const app = await buildApp({ ...t.deps, settings: { ...t.deps.settings, trustProxy: ['10.0.0.1'] } });
    try {
      app.get('/api/test-ip', async (req) => ({ ip: req.ip }));
      const seen: string[] = [];
      for (const remoteAddress of ['10.0.0.1', '192.0.2.50']) {
        const res = await app.inject({
          url: '/api/test-ip',
          remoteAddress,
          headers: { 'x-forwarded-for': '203.0.113.77' },
        });
        seen.push(res.json().ip);
      }
      expect(seen).toEqual(['203.0.113.77', '192.0.2.50']);
    } finally {
      await app.close();
    }
  });

  it('sends HSTS on https through the trusted proxy, and not on plain http', async () => {
    const proxied = await createTestApp({ settings: { trustProxy: 1 } });
    try {
      const https = await proxied.app.inject({
        url: '/api/health',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(https.headers['strict-transport-security']).toMatch(/max-age=31536000/);
      const http = await proxied.app.inject({ url: '/api/health' });
      expect(http.headers['strict-transport-security']).toBeUndefined();
      // Without a trusted proxy, a client cannot claim https.
      const direct = await t.app.inject({ url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
      expect(direct.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
  });
});

describe('router refusals', () => {
  it('answers an over-long path with a short JSON 414 that does not echo it', async () => {
    const long = 'a'.repeat(6000);
    for (const url of [`/api/admin/trucks/${long}`, `/trpc/${long}`]) {
      const res = await t.app.inject({ method: 'PATCH', url, payload: {} });
      expect(res.statusCode).toBe(414);
      expect(res.json()).toEqual({ error: 'The address is too long.' });
      expect(res.body.length).toBeLessThan(100);
    }
  });

  it('refuses a tRPC batch of more than 10 calls with 400', async () => {
    const paths = Array.from({ length: 11 }, () => 'pricing.get').join(',');
    const res = await t.app.inject({ url: `/trpc/${paths}?batch=1&input={}` });
    expect(res.statusCode).toBe(400);
    const ten = Array.from({ length: 10 }, () => 'pricing.get').join(',');
    expect((await t.app.inject({ url: `/trpc/${ten}?batch=1&input={}` })).statusCode).toBe(200);
  });
});
