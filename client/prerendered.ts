import type { FirstCall } from '../shared/first-data';
import type { TPricingInfo } from '../shared/schemas/pricing';
import type { TTracking } from '../shared/schemas/tracking';

/** What a pre-rendered page was rendered from, sent beside it so the first client render is the same. */
export interface Prerendered {
  /** The landing page (`/`): the live prices. */
  pricing?: TPricingInfo;
  /** A tracking link (/track/{token}): the server's answer for it, the one the page would ask for. */
  tracking?: { token: string; answer: TTracking };
  /**
   * A signed-in screen drawn by the server (server/screen-html.ts): whose it is and the answers of its
   * first calls. The app draws over it with the same answers, and does not hydrate it.
   */
  screen?: { email: string; answers: { call: FirstCall; data: unknown }[] };
}

export const PRERENDERED_ID = 'mchanga-prerendered';

/** The data as a JSON script element (not executed, so the CSP's script-src does not apply). */
export function prerenderedScript(data: Prerendered): string {
  return jsonScript(PRERENDERED_ID, data);
}

/** Any JSON value as a script element of this id, safe inside HTML. */
export function jsonScript(id: string, data: unknown): string {
  // `<` escaped, so no value can close the element; U+2028/9 for old JSON-in-HTML parsers.
  const json = JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${id}">${json}</script>`;
}

export function readPrerendered(doc: Document | undefined): Prerendered | null {
  const text = doc?.getElementById(PRERENDERED_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as Prerendered;
  } catch {
    return null;
  }
}
