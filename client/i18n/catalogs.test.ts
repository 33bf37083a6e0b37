import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { sw } from './sw';

/** Every key of a catalog as "screen.key". */
function keys(catalog: object, prefix = ''): string[] {
  return Object.entries(catalog).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('catalogs', () => {
  it('English and Kiswahili have the same keys, none empty', () => {
    expect(keys(sw).sort()).toEqual(keys(en).sort());
    for (const [lang, catalog] of [
      ['en', en],
      ['sw', sw],
    ] as const)
      for (const key of keys(catalog)) {
        const value = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], catalog);
        expect(String(value).trim(), `${lang}: ${key}`).not.toBe('');
      }
  });

  it('every t("…") key used in the client is in both catalogs', () => {
    const known = new Set(keys(en));
    const used = new Set<string>();
    for (const file of sourceFiles(join(import.meta.dirname, '..')))
      for (const m of readFileSync(file, 'utf8').matchAll(/\bt\(\s*['"`]([a-zA-Z0-9_.]+)['"`]/g))
        used.add(m[1]!);
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((k) => !known.has(k))).toEqual([]);
  });
});
