import { useEffect, useSyncExternalStore } from 'react';
import type { TPricingInfo } from '../../../shared/schemas/pricing';

/** Older than this, the landing page asks for the pricing again when it is shown. */
const FRESH_MS = 5 * 60_000;

let current: { pricing: TPricingInfo; at: number } | null = null;
const listeners = new Set<() => void>();

/** Sets the pricing the landing page shows: the page's pre-rendered data, or the API's answer. */
export function setLandingPricing(pricing: TPricingInfo, at = Date.now()) {
  current = { pricing, at };
  for (const l of listeners) l();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const snapshot = () => current?.pricing ?? null;

/**
 * The landing page's pricing without the API layer: what the page was pre-rendered with (the server
 * render and the hydrating browser read the same), else asked for through the API once it has loaded.
 * Null until known.
 */
export function useLandingPricing(): TPricingInfo | null {
  const pricing = useSyncExternalStore(subscribe, snapshot, snapshot);
  useEffect(() => {
    if (current && Date.now() - current.at < FRESH_MS) return;
    let live = true;
    import('../../api')
      .then((api) => api.fetchPricing())
      .then((p) => live && setLandingPricing(p))
      // The page shows the standard prices meanwhile; the quote says when the API is away.
      .catch(() => {});
    return () => {
      live = false;
    };
  }, []);
  return pricing;
}
