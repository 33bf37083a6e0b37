import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dir = mkdtempSync(join(tmpdir(), 'mchanga-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadConfig', () => {
  it('runs embedded with defaults and keeps a generated JWT secret in DATA_DIR', () => {
    const a = loadConfig({ DATA_DIR: dir });
    expect(a).toMatchObject({ mode: 'embedded', port: 3000, bodyLimit: 1024 * 1024 });
    expect(existsSync(join(dir, 'jwt-secret'))).toBe(true);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toEqual(a.jwtSecret);
  });

  it('requires a JWT_SECRET of 32+ bytes with services, naming the fix', () => {
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://x@localhost/db' })).toThrow(
      /JWT_SECRET is required/,
    );
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: 'short' })).toThrow(ConfigError);
    const ok = loadConfig({ DATA_DIR: dir, REDIS_URL: 'redis://localhost:6379', JWT_SECRET: 'x'.repeat(32) });
    expect(ok.mode).toBe('services');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATA_DIR: dir, GEOCODER_URL: '', PORT: '' })).toMatchObject({
      geocoderUrl: undefined,
      port: 3000,
    });
  });

  it('names the variable that is wrong', () => {
    expect(() => loadConfig({ DATA_DIR: dir, PORT: 'abc' })).toThrow(/PORT/);
  });
});
