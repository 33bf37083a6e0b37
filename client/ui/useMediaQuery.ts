import { useSyncExternalStore } from 'react';

/** Where lists turn from cards into tables (a phone held upright is well below it). */
export const TABLE_MIN_WIDTH = 720;

/** Whether a CSS media query matches, kept in step with the viewport. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** True when the viewport is at least `px` wide. */
export function useMinWidth(px: number): boolean {
  return useMediaQuery(`(min-width: ${px}px)`);
}
