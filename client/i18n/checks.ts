/**
 * The form checks and refusals of the shared schemas and the server are written once, in English (the
 * spec's wording): a Kiswahili screen shows them in Kiswahili (checks-sw.ts, keyed by the exact English).
 * Without i18next, like the landing page's strings (client/i18n/landing.ts switches this too), so the
 * forms of every screen share it; the Kiswahili loads only when chosen. A message it does not know (one
 * built from figures) is shown as written.
 */
import { useSyncExternalStore } from 'react';

let kiswahili: ReadonlyMap<string, string> | null = null;
let current: 'en' | 'sw' = 'en';
const listeners = new Set<() => void>();
let latestRequest = 0;

export async function setChecksLanguage(language: 'en' | 'sw'): Promise<void> {
  const request = ++latestRequest;
  if (language === 'sw' && !kiswahili) kiswahili = (await import('./checks-sw')).checksSw;
  if (request !== latestRequest) return;
  current = language;
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A message in the screen's language: its Kiswahili on a Kiswahili screen, else as written. */
export function checkText(message: string): string {
  return (current === 'sw' && kiswahili?.get(message)) || message;
}

/** checkText for a component, which renders again when the language changes. */
export function useCheckText(): (message: string) => string {
  useSyncExternalStore(
    subscribe,
    () => current,
    () => 'en' as const,
  );
  return checkText;
}
