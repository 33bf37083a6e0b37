import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings, SettingsError, ZEnv } from '../shared/settings';

const dir = mkdtempSync(join(tmpdir(), 'mchanga-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadSettings', () => {
  it('runs embedded with defaults and keeps a generated JWT secret in DATA_DIR', () => {
    const a = loadSettings({ DATA_DIR: dir });
    expect(a).toMatchObject({ mode: 'embedded', port: 3000, bodyLimit: 1024 * 1024 });
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(true);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').length).toBeGreaterThanOrEqual(32);
    expect(loadSettings({ DATA_DIR: dir }).jwtSecret).toEqual(a.jwtSecret);
  });

  it('requires a JWT_SECRET of 32+ bytes with services, naming the fix', () => {
    expect(() => loadSettings({ DATA_DIR: dir, DATABASE_URL: 'postgres://x@localhost/db' })).toThrow(
      /JWT_SECRET is required/,
    );
    expect(() => loadSettings({ DATA_DIR: dir, JWT_SECRET: 'short' })).toThrow(SettingsError);
    const ok = loadSettings({
      DATA_DIR: dir,
      REDIS_URL: 'redis://localhost:6379',
      JWT_SECRET: 'x'.repeat(32),
    });
    expect(ok.mode).toBe('services');
  });

  it('treats empty variables as unset', () => {
    expect(loadSettings({ DATA_DIR: dir, GEOCODER_URL: '', PORT: '' })).toMatchObject({
      geocoderUrl: undefined,
      port: 3000,
    });
  });

  it('builds the dispatch WhatsApp link from a number, keeps a link, and refuses anything else', () => {
    const whatsapp = (env: Record<string, string>) =>
      loadSettings({ DATA_DIR: dir, ...env }).dispatch.whatsapp;
    expect(whatsapp({ DISPATCH_WHATSAPP: '254722000111' })).toBe('https://wa.me/254722000111');
    expect(whatsapp({ DISPATCH_WHATSAPP: '0722 000 111' })).toBe('https://wa.me/254722000111');
    expect(whatsapp({ DISPATCH_WHATSAPP: 'https://wa.me/254722000111' })).toBe('https://wa.me/254722000111');
    // Unset: the dispatch phone's own WhatsApp, or none for a landline.
    expect(whatsapp({ DISPATCH_PHONE: '0733 111 222' })).toBe('https://wa.me/254733111222');
    expect(whatsapp({ DISPATCH_PHONE: '020 765 4321' })).toBe('');
    expect(() => loadSettings({ DATA_DIR: dir, DISPATCH_WHATSAPP: 'call us' })).toThrow(/DISPATCH_WHATSAPP/);
  });

  it('names the variable that is wrong', () => {
    expect(() => loadSettings({ DATA_DIR: dir, PORT: 'abc' })).toThrow(/PORT/);
  });

  it('keeps Idempotency-Keys 30 days unless told otherwise, and at least a day', () => {
    expect(loadSettings({ DATA_DIR: dir }).idempotencyRetentionDays).toBe(30);
    expect(loadSettings({ DATA_DIR: dir, IDEMPOTENCY_RETENTION_DAYS: '45' }).idempotencyRetentionDays).toBe(
      45,
    );
    expect(() => loadSettings({ DATA_DIR: dir, IDEMPOTENCY_RETENTION_DAYS: '0' })).toThrow(
      /IDEMPOTENCY_RETENTION_DAYS/,
    );
  });

  it('takes pool sizes and the direct URL as settings', () => {
    expect(loadSettings({ DATA_DIR: dir })).toMatchObject({
      databasePoolMax: { server: 10, worker: 5 },
      databaseDirectUrl: undefined,
    });
    const set = loadSettings({
      DATA_DIR: dir,
      DATABASE_URL: 'postgres://x@pgbouncer:6432/db',
      DATABASE_DIRECT_URL: 'postgres://x@postgres:5432/db',
      DATABASE_POOL_MAX: '4',
      WORKER_DATABASE_POOL_MAX: '2',
      JWT_SECRET: 'x'.repeat(32),
    });
    expect(set).toMatchObject({
      databasePoolMax: { server: 4, worker: 2 },
      databaseDirectUrl: 'postgres://x@postgres:5432/db',
    });
    expect(() => loadSettings({ DATA_DIR: dir, DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX/);
  });

  it('keeps uploads in the database with DATABASE_URL and in DATA_DIR without, unless told', () => {
    const services = { DATA_DIR: dir, DATABASE_URL: 'postgres://x@localhost/db', JWT_SECRET: 'x'.repeat(32) };
    expect(loadSettings({ DATA_DIR: dir }).uploadStorage).toBe('files');
    expect(loadSettings(services).uploadStorage).toBe('database');
    expect(loadSettings({ ...services, UPLOAD_STORAGE: 'files' }).uploadStorage).toBe('files');
    expect(loadSettings({ DATA_DIR: dir, UPLOAD_STORAGE: 'database' }).uploadStorage).toBe('database');
    expect(() => loadSettings({ DATA_DIR: dir, UPLOAD_STORAGE: 's3' })).toThrow(/UPLOAD_STORAGE/);
  });
});

describe('one settings module', () => {
  it('is the only place that reads process.env', () => {
    const roots = ['client', 'server', 'worker', 'shared', 'drizzle'];
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (
          /\.(ts|tsx)$/.test(name) &&
          !/\.test\.tsx?$/.test(name) &&
          path !== join('shared', 'settings.ts')
        ) {
          const text = readFileSync(path, 'utf8');
          if (/process\.env\b/.test(text)) offenders.push(path);
        }
      }
    };
    for (const root of roots) walk(root);
    expect(offenders).toEqual([]);
  });

  it('documents every variable of the schema in the README table', () => {
    const readme = readFileSync('README.md', 'utf8');
    const missing = Object.keys(ZEnv.shape).filter(
      (name) => name !== 'npm_package_version' && !readme.includes(`\`${name}\``),
    );
    expect(missing).toEqual([]);
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    ['false', false],
    ['', false],
    ['0', false],
    ['true', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.1, 10.0.0.0/8', ['10.0.0.1', '10.0.0.0/8']],
    ['loopback', ['loopback']],
  ])('%j → %j', (value, expected) => {
    expect(loadSettings({ DATA_DIR: dir, TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('refuses anything else, naming the fix', () => {
    expect(() => loadSettings({ DATA_DIR: dir, TRUST_PROXY: 'yes please' })).toThrow(
      /TRUST_PROXY.*proxy hops/,
    );
  });
});
