import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { staffEn } from './staff-en';
import { staffSw } from './staff-sw';
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

/** The value at "screen.key". */
const valueAt = (catalog: object, key: string): unknown =>
  key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalog);

/**
 * The staff workspace's screens: their `t` is useStaffT's (namespace `staff`, staff-en.ts), or a `StaffT`
 * handed to them (the workspace's tab labels).
 */
const usesStaffCatalog = (source: string) => /\buseStaffT\b|\bStaffT\b/.test(source);

/** The `t("…")` keys a source file uses. */
const usedKeys = (source: string) =>
  [...source.matchAll(/\bt\(\s*['"`]([a-zA-Z0-9_.]+)['"`]/g)].map((m) => m[1]!);

/** A key is there when the catalog has it, or its plural forms (`_one`, `_other`) for a `count`. */
const hasKey = (known: Set<string>, key: string) =>
  known.has(key) || (known.has(`${key}_one`) && known.has(`${key}_other`));

/**
 * Kiswahili values that may read exactly as the English: abbreviations and names (AI, GPS, Km, M-Pesa,
 * KES), figures and placeholders only.
 */
const SAME_IN_BOTH = /^(AI|GPS|Km|M-Pesa|KES|ID|Telegram|Mchanga)$|^[\s\d{}.,:;·#%×+\-–()<>/]*$/;

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
    for (const file of sourceFiles(join(import.meta.dirname, '..'))) {
      const source = readFileSync(file, 'utf8');
      if (!usesStaffCatalog(source)) for (const key of usedKeys(source)) used.add(key);
    }
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((k) => !known.has(k))).toEqual([]);
  });

  describe('staff workspace (namespace staff)', () => {
    it('English and Kiswahili have the same keys, none empty', () => {
      expect(keys(staffSw).sort()).toEqual(keys(staffEn).sort());
      for (const [lang, catalog] of [
        ['en', staffEn],
        ['sw', staffSw],
      ] as const)
        for (const key of keys(catalog))
          expect(String(valueAt(catalog, key)).trim(), `${lang}: ${key}`).not.toBe('');
    });

    it('a key missing in either language fails the comparison', () => {
      const { tabs, ...withoutTabs } = staffSw;
      const { overview: _dropped, ...otherTabs } = tabs;
      const missing = keys({ ...withoutTabs, tabs: otherTabs });
      expect(missing).not.toEqual(keys(staffEn));
      expect(keys(staffEn).filter((k) => !missing.includes(k))).toEqual(['tabs.overview']);
    });

    it('the Kiswahili is a translation, not the English copied', () => {
      const copied = keys(staffEn).filter((key) => {
        const english = String(valueAt(staffEn, key));
        return english === String(valueAt(staffSw, key)) && !SAME_IN_BOTH.test(english);
      });
      expect(copied).toEqual([]);
    });

    it('the placeholders of each English label are in its Kiswahili', () => {
      const placeholders = (text: unknown) =>
        [...String(text).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
      for (const key of keys(staffEn))
        expect(placeholders(valueAt(staffSw, key)), key).toEqual(placeholders(valueAt(staffEn, key)));
    });

    it('every t("…") key used on the staff screens is in the staff catalogs', () => {
      const known = new Set(keys(staffEn));
      const used = new Set<string>();
      for (const file of sourceFiles(join(import.meta.dirname, '..'))) {
        const source = readFileSync(file, 'utf8');
        if (usesStaffCatalog(source)) for (const key of usedKeys(source)) used.add(key);
      }
      expect(used.size).toBeGreaterThan(50);
      expect([...used].filter((k) => !hasKey(known, k))).toEqual([]);
      // And no label is left behind in the catalogs once its screen stops using it.
      expect([...known].filter((k) => !used.has(k.replace(/_(one|other)$/, '')))).toEqual([]);
    });
  });
});
