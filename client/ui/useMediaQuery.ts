import { useSyncExternalStore } from 'react';

/** Where lists turn from cards into tables (a phone held upright is well below it). */
export const TABLE_MIN_WIDTH = 720;

/**
 * The viewport width a server render draws for (client/prerender.tsx renderScreen: the width the device
 * wrote into the screen cookie); 0, a phone, when unknown.
 */
let serverWidth = 0;

/** Runs a synchronous server render as if the viewport were `width` px wide. */
export function renderAtWidth<T>(width: number, render: () => T): T {
  const before = serverWidth;
  serverWidth = width;
  try {
    return render();
  } finally {
    serverWidth = before;
  }
}

/** True when the viewport is at least `px` wide, kept in step with it; in a server render, the device's. */
export function useMinWidth(px: number): boolean {
  const query = `(min-width: ${px}px)`;
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => serverWidth >= px,
  );
}
