import type { Language } from '../../shared/enums';

/**
 * Where the device keeps its screen language, and reading it: a file of its own, so the entry can read it
 * without i18next (client/main.tsx).
 */
export const LANGUAGE_KEY = 'mchanga.language';

export type { Language };

/** The language remembered on this device (English unless Kiswahili was chosen). */
export function storedLanguage(): Language {
  try {
    return globalThis.localStorage?.getItem(LANGUAGE_KEY) === 'sw' ? 'sw' : 'en';
  } catch {
    return 'en';
  }
}
