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
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { SNAPSHOT_ATTRIBUTE, SNAPSHOT_CACHE, SNAPSHOT_USER_HEADER } from './offline/snapshot';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
// No directory index: `/` must not be answered with the precached shell (see below).
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '' });

/**
 * The screens the precached shell may answer. `/` is not among them: the server renders it with the
 * live prices, so it always comes from the network. Nor are the server's own pages (/api, /admin/queues):
 * a new screen's path is added here.
 */
const SHELL_ROUTES = /^\/(articles|login|register|order|customer|ops|driver|fuel)(\/|$)/;
const shell = createHandlerBoundToURL('/index.html');
registerRoute(
  new NavigationRoute(async (options) => withSnapshot(options.request, await shell(options)), {
    allowlist: [SHELL_ROUTES],
  }),
);

const EMPTY_ROOT = '<div id="root"></div>';

/**
 * The shell with the staff screen last shown at this address inside its root (client/offline/snapshot.ts),
 * so a repeat visit paints it with the HTML; inert and busy until the app renders over it. The shell as
 * it is when none is kept.
 */
async function withSnapshot(request: Request, response: Response): Promise<Response> {
  try {
    if (!response.ok) return response;
    const url = new URL(request.url);
    const kept = await (await caches.open(SNAPSHOT_CACHE)).match(new URL(url.pathname, url.origin).href);
    const user = kept?.headers.get(SNAPSHOT_USER_HEADER) ?? '';
    if (!kept || !/^[\w%.~!*'()-]+$/.test(user)) return response;
    const [html, screen] = await Promise.all([response.clone().text(), kept.text()]);
    const at = html.indexOf(EMPTY_ROOT);
    if (at < 0) return response;
    const root = `<div id="root" ${SNAPSHOT_ATTRIBUTE}="${user}" inert aria-busy="true">${screen}</div>`;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    return new Response(html.slice(0, at) + root + html.slice(at + EMPTY_ROOT.length), {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
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
