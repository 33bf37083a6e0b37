import i18next, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { syncScreenCookie } from '../session';
import { en } from './en';
import { setLandingLanguage } from './landing';
import { LANGUAGE_KEY, type Language, storedLanguage } from './language-key';

/** Screens import `useTranslation` from here, so the catalogs are set up whichever screen opens first. */
export { useTranslation } from 'react-i18next';

export type { Language } from './language-key';
export { LANGUAGE_KEY, storedLanguage };

/**
 * Whether this device has a language of its own (chosen with the switch, or kept from an account): then
 * signing in keeps it instead of taking the account's.
 */
export function deviceChoseLanguage(): boolean {
  try {
    return globalThis.localStorage?.getItem(LANGUAGE_KEY) != null;
  } catch {
    return false;
  }
}

/**
 * The Kiswahili catalogs, each loaded on first use. The staff workspace's namespace (`staff`) brings its
 * English with the screens that use it (client/i18n/staff.ts), so neither staff catalog is in the landing
 * page's first load.
 */
const KISWAHILI: Record<string, () => Promise<object>> = {
  translation: () => import('./sw').then((m) => m.sw),
  staff: () => import('./staff-sw').then((m) => m.staffSw),
};

const lazyCatalogs: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const load = language === 'sw' ? KISWAHILI[namespace] : undefined;
    if (!load) return callback(null, {});
    load().then(
      (catalog) => callback(null, catalog as Record<string, string>),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

export const i18n = i18next.createInstance();
void i18n
  .use(initReactI18next)
  .use(lazyCatalogs)
  .init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    // English of the default namespace is bundled; other catalogs come through lazyCatalogs.
    partialBundledLanguages: true,
    ns: ['translation'],
    interpolation: { escapeValue: false },
    initAsync: false,
  });

let latestRequest = 0;

/** Switches the screens' language: loads the Kiswahili catalog on first use and remembers it on the device. */
export async function setScreenLanguage(language: Language): Promise<void> {
  // A later choice wins over an earlier one still loading its catalog (e.g. the stored Kiswahili on start).
  const request = ++latestRequest;
  if (language === 'sw' && !i18n.hasResourceBundle('sw', 'translation')) {
    const { sw } = await import('./sw');
    i18n.addResourceBundle('sw', 'translation', sw);
  }
  if (request !== latestRequest) return;
  try {
    globalThis.localStorage?.setItem(LANGUAGE_KEY, language);
  } catch {
    // Private mode: the choice lasts this visit.
  }
  // The server draws the signed-in screens in the device's language (shared/screen-cookie.ts).
  syncScreenCookie();
  await Promise.all([i18n.changeLanguage(language), setLandingLanguage(language)]);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

// A device that chose Kiswahili gets it back at once.
const startLanguage = storedLanguage() === 'sw' ? setScreenLanguage('sw').catch(() => {}) : Promise.resolve();

/**
 * Resolves once the screens can draw in the device's language: its catalogs loaded, for every namespace
 * the loaded screens use (the workspace's `staff` registers itself as its module loads). A screen's first
 * render waits for it (client/routes.tsx), so a Kiswahili phone does not draw English first and then
 * switch, which moved the whole screen (a layout shift of 0.15 on a cold /ops/orders over the server's
 * Kiswahili screen). At once for English. A catalog that fails to load leaves the screen in English.
 */
export async function languageReady(): Promise<void> {
  await startLanguage;
  if (i18n.language !== 'sw') return;
  await i18n.loadNamespaces(i18n.options.ns as string[]).catch(() => {});
}
