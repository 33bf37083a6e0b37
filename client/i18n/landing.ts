/**
 * The landing page's translations without i18next (its first load stays small): English from the start,
 * the Kiswahili strings loaded after hydration when chosen. The server renders English; during hydration
 * useSyncExternalStore uses the English server snapshot, so the text matches, and switches right after.
 * client/i18n/index.ts keeps it in step when the language switch is used.
 */
import { useSyncExternalStore } from 'react';
import { setChecksLanguage } from './checks';
import { type LandingCatalog, landingEn } from './landing-en';
import { storedLanguage } from './language-key';

type Lang = 'en' | 'sw';
let current: Lang = 'en';
/**
 * The language of a server render: English, except while `renderInLanguage` renders a staff screen's
 * top in Kiswahili (client/staff-shell.tsx). The browser never changes it, so hydration reads English.
 */
let serverLanguage: Lang = 'en';
let swCatalog: LandingCatalog | null = null;
const listeners = new Set<() => void>();

let latestRequest = 0;

async function loadSwCatalog() {
  if (!swCatalog) swCatalog = (await import('./landing-sw')).landingSw;
}

/** Switches the landing strings (loads the Kiswahili ones on first use); a later choice wins. */
export async function setLandingLanguage(language: Lang): Promise<void> {
  const request = ++latestRequest;
  void setChecksLanguage(language);
  if (language === 'sw') await loadSwCatalog();
  if (request !== latestRequest) return;
  current = language;
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  for (const l of listeners) l();
}

/** Server only: `render` (synchronous, e.g. renderToString) with the landing strings in `language`. */
export async function renderInLanguage<T>(language: Lang, render: () => T): Promise<T> {
  if (language === 'sw') await loadSwCatalog();
  serverLanguage = language;
  try {
    return render();
  } finally {
    serverLanguage = 'en';
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function lookup(catalog: LandingCatalog, key: string): string | undefined {
  const value = key
    .split('.')
    .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalog);
  return typeof value === 'string' ? value : undefined;
}

/** `t` for the landing page and the quote form: keys of landing-en.ts, `{{name}}` placeholders. */
export function useLandingT() {
  const language = useSyncExternalStore(
    subscribe,
    () => current,
    () => serverLanguage,
  );
  const catalog = language === 'sw' && swCatalog ? swCatalog : landingEn;
  const t = (key: string, values?: Record<string, string | number>): string =>
    (lookup(catalog, key) ?? lookup(landingEn, key) ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
      String(values?.[name] ?? ''),
    );
  return { t, language };
}

// No storage reads as English (storedLanguage).
if (storedLanguage() === 'sw') void setLandingLanguage('sw');
