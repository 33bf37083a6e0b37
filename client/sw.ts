/// <reference lib="webworker" />
/**
 * The service worker: the app shell and every screen's chunk precached at install, so a repeat visit
 * starts without the network. It caches no API answers (what data may be kept offline is decided with
 * the device outbox, issue 14, which adds its handlers to this file).
 *
 * Updates: a new build changes this file (its precache list carries each file's revision), the browser
 * installs it on the next navigation, and it takes over at once (skipWaiting + clientsClaim) and drops
 * the old build's files, so the shell it serves is never older than the last deploy the browser saw. A
 * page still running the old build that then misses one of its old chunks reloads (main.tsx).
 */
import { clientsClaim } from 'workbox-core';
import type { RouteHandlerCallbackOptions } from 'workbox-core/types';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import { keptScreenPage, SNAPSHOT_CACHE, SNAPSHOT_USER_HEADER } from './offline/snapshot';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
// No directory index: `/` must not be answered with the precached shell (see below).
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '' });

/**
 * The screens the service worker answers. `/` is not among them: the server renders it with the live
 * prices, so it always comes from the network. Nor is /reset-password (its address holds the reset
 * token, which is not to be kept), nor the server's own pages (/api, /admin/queues): a new screen's path
 * is added here.
 */
const SCREEN_ROUTES =
  /^\/(articles|login|register|forgot-password|order|customer|ops|driver|fuel|track|account)(\/|$)/;
const shell = createHandlerBoundToURL('/index.html');

/**
 * The server's own page for each screen address (server/route-html.ts: index.html with the screen's
 * chunks preloaded, its first data request started and its top), kept as last received. A repeat visit
 * gets it from here at once and the server's current one is fetched behind it for the next (issue 28:
 * with the bare shell instead, /order painted its subtitle at 1.3–1.5 s on a repeat visit against 0.7 s
 * cold). Each build's worker starts with none: a page names its build's chunks.
 */
const PAGES_CACHE = 'mchanga-pages';
/** Without a kept page, how long the network may take before the precached shell answers instead. */
const PAGE_TIMEOUT_MS = 2_000;
const pageKey = (url: string) => {
  const { origin, pathname } = new URL(url);
  return new URL(pathname, origin).href;
};
/**
 * Pages are asked for without cookies: the screen cookie (shared/screen-cookie.ts) would have the server
 * draw the screen with the user's data, for one request (no-store), which is for a cold load the worker
 * does not serve. The kept page is the screen's own, and the screen last shown here goes into it.
 */
const withoutCookies = (url: string) => new Request(url, { credentials: 'omit' });
const pages = new StaleWhileRevalidate({
  cacheName: PAGES_CACHE,
  plugins: [
    { requestWillFetch: async ({ request }) => withoutCookies(request.url) },
    // One page per address, whatever its query; tracking links make many addresses, so not forever.
    { cacheKeyWillBeUsed: async ({ request }) => pageKey(request.url) },
    // Only the screen's own page: not an error, a redirect, anything but HTML, or a page with its data.
    {
      cacheWillUpdate: async ({ response }) =>
        response.ok && !response.redirected && isHtml(response) && !noStore(response) ? response : null,
    },
    new ExpirationPlugin({ maxEntries: 40, maxAgeSeconds: 30 * 24 * 3600 }),
  ],
});
const isHtml = (response: Response) => response.headers.get('content-type')?.startsWith('text/html') ?? false;
/** A page made for one request with its data in it (a tracking link's order): not kept, asked for anew. */
const noStore = (response: Response) => /no-store/.test(response.headers.get('cache-control') ?? '');

/** The kept page (refreshed behind), else the network's within PAGE_TIMEOUT_MS, else the precached shell. */
async function screenPage(options: RouteHandlerCallbackOptions): Promise<Response> {
  const timeout = new Promise<undefined>((resolve) => setTimeout(resolve, PAGE_TIMEOUT_MS));
  const page = await Promise.race([pages.handle(options).catch(() => undefined), timeout]);
  return page?.ok && isHtml(page) ? page : shell(options);
}

registerRoute(
  new NavigationRoute(async (options) => forThisVisit(options.request, await screenPage(options)), {
    allowlist: [SCREEN_ROUTES],
  }),
);

/**
 * The page that installed this worker was not loaded through it: its page is kept now, so that the next
 * visit already gets it. An older build's pages go first (they name chunks this build no longer has).
 */
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      await caches.delete(PAGES_CACHE);
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const cache = await caches.open(PAGES_CACHE);
      await Promise.all(
        windows
          .map((w) => new URL(w.url))
          .filter((url) => url.origin === self.location.origin && SCREEN_ROUTES.test(url.pathname))
          .map(async (url) => {
            const response = await fetch(withoutCookies(url.href)).catch(() => undefined);
            if (response?.ok && !response.redirected && isHtml(response) && !noStore(response))
              await cache.put(pageKey(url.href), response);
          }),
      );
    })().catch(() => {}),
  );
});

/**
 * The page as this visit gets it:
 * - without its modulepreloads: every chunk is in the precache, so on a slow phone they would only queue
 *   in front of the stylesheet (a repeat visit of /driver painted 0.2 s later with them);
 * - with the screen last shown at this address inside its root (client/offline/snapshot.ts), so a repeat
 *   visit paints it with the HTML, whole; inert and busy until the app renders over it.
 */
async function forThisVisit(request: Request, response: Response): Promise<Response> {
  try {
    if (!response.ok) return response;
    let html = (await response.clone().text()).replace(/[ \t]*<link rel="modulepreload"[^>]*>\n?/g, '');
    const kept = await (await caches.open(SNAPSHOT_CACHE)).match(pageKey(request.url));
    if (kept) html = keptScreenPage(html, await kept.text(), kept.headers.get(SNAPSHOT_USER_HEADER) ?? '');
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(html, { status: response.status, statusText: response.statusText, headers });
  } catch {
    return response;
  }
}

// Fingerprinted files left out of the precache (the map, which only some screens load) are kept once used.
registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && url.pathname.startsWith('/assets/') && request.method === 'GET',
  new CacheFirst({
    cacheName: 'mchanga-assets',
    plugins: [new ExpirationPlugin({ maxEntries: 30, maxAgeSeconds: 30 * 24 * 3600 })],
  }),
);

// ── Offline (issue 14) ──────────────────────────────────────────────────────────────────────────────

// The installed app starts at `/`, and Logout goes there: from the network as always, else the last
// landing page it saw, else (a phone that never loaded `/` while this worker ran, e.g. signed in at /login
// and went straight to its screen) the precached shell, which renders the landing page itself. So the app
// always opens without signal, with its menu to the user's screen.
const startPage = new NetworkFirst({
  cacheName: 'mchanga-start',
  plugins: [new ExpirationPlugin({ maxEntries: 1 })],
});
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' && url.origin === self.location.origin && url.pathname === '/',
  async (options) => {
    try {
      return await startPage.handle(options);
    } catch {
      return shell(options);
    }
  },
);

/**
 * Background Sync: the browser wakes this worker when the network returns after a write was queued
 * (client/offline/outbox.ts registers the tag). The pages hold the session, so the worker asks them to
 * drain the device outbox; the pages' online event and timer do the same where there is no sync.
 */
self.addEventListener('sync', (event) => {
  const sync = event as ExtendableEvent & { tag?: string };
  if (sync.tag !== 'mchanga-outbox') return;
  sync.waitUntil(
    self.clients.matchAll({ type: 'window' }).then((windows) => {
      for (const w of windows) w.postMessage({ type: 'mchanga:drain-outbox' });
    }),
  );
});
