import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';
import { buildApp } from './app';
import { REST_ROUTES } from './rest';

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
      jobs: { ok: true, transport: 'in-process', lastHeartbeatAt: null },
    });
  });

  it('shows the last heartbeat once the heartbeat job has run', async () => {
    await t.jobs.enqueue('system.heartbeat', {});
    await t.jobs.drain();
    const res = await t.app.inject({ url: '/api/health' });
    expect(Date.parse(res.json().jobs.lastHeartbeatAt)).toBeGreaterThan(Date.now() - 60_000);
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
  it('documents every REST route with schemas generated from zod', async () => {
    const res = await t.app.inject({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.0.3');
    for (const route of REST_ROUTES) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path]?.[route.method.toLowerCase()], `${route.method} ${path}`).toBeDefined();
    }
    const login = doc.paths['/api/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    expect(login.security).toEqual([]);
  });
});

describe('errors and headers', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'No such API endpoint.' });
  });

  it('sets security headers', async () => {
    const res = await t.app.inject({ url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBeDefined();
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
