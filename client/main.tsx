import './zod-config';
import { startTransition, useLayoutEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { SHELL_ATTRIBUTE } from '../shared/staff-shell';
import { App } from './app';
import { setLandingPricing } from './features/landing/landing-pricing';
import { storedLanguage } from './i18n/language-key';
import { checkSnapshot, clearSnapshot } from './offline/snapshot';
import { readPrerendered } from './prerendered';
import { preloadRoute } from './routes';
import { getSession } from './session';
import { registerServiceWorker } from './sw-register';

/**
 * The first render has replaced the kept screen or the server's top of the screen (React empties the
 * root on its first commit).
 */
function SnapshotReplaced({ root }: { root: HTMLElement }) {
  useLayoutEffect(() => {
    clearSnapshot(root);
    root.removeAttribute(SHELL_ATTRIBUTE);
  }, [root]);
  return null;
}

/** Marks on the page's performance timeline when the app's first render is on screen (`mchanga:app-rendered`). */
function FirstRender() {
  useLayoutEffect(() => {
    performance.mark('mchanga:app-rendered');
  }, []);
  return null;
}

async function start() {
  const root = document.getElementById('root')!;
  const app = (
    <>
      <App Router={BrowserRouter} />
      <FirstRender />
    </>
  );
  // The screen's chunk, fetched from now on, beside the first render. A failed load shows when the
  // screen renders (its lazy import tries again).
  const screen = preloadRoute(window.location.pathname);
  screen.catch(() => {});
  const prerendered = readPrerendered(document);
  const serverRendered = prerendered !== null && root.firstElementChild !== null;
  // The server renders in English: a device set to Kiswahili renders a tracking page over it instead
  // (the landing page hydrates in English and switches right after: client/i18n/landing.ts). A signed-in
  // screen the server drew with its data (server/screen-html.ts) is drawn over too: its clock-led parts
  // ("5 min ago") and what the device kept need not match the server's to the letter.
  const hydrates =
    serverRendered && !prerendered.screen && (!prerendered.tracking || storedLanguage() === 'en');
  if (hydrates) {
    // The server rendered this page from this data: the first render must be the same to hydrate.
    if (prerendered.pricing) setLandingPricing(prerendered.pricing);
    await screen;
    // In a transition, so React hydrates in slices of a few milliseconds and yields to the browser between
    // them (a tap, a paint) instead of one long task: the page is already on show from the server's HTML.
    startTransition(() => {
      hydrateRoot(root, app);
    });
  } else {
    // Served by the service worker (a repeat visit), the chunk is read from its cache at once: the first
    // render waits for it and shows the screen, instead of an empty page that a second render fills.
    // On a first visit the header shows while the chunk downloads.
    // The service worker may have put the screen last shown here into the root (client/offline/snapshot.ts):
    // it stays on show, inert, until this first render replaces it.
    // Or the server's page has its top (shared/staff-shell.ts) or the whole screen with its data, or a
    // tracking page rendered in English for a device set to Kiswahili: the first render then waits for
    // the screen's chunk (preloaded beside the entry), so the page stays instead of blinking out.
    const shell = root.hasAttribute(SHELL_ATTRIBUTE) || serverRendered;
    const kept = checkSnapshot(root, getSession()?.userEmail ?? null) || shell;
    if (navigator.serviceWorker?.controller || shell) await screen.catch(() => {});
    const first = kept ? (
      <>
        {app}
        <SnapshotReplaced root={root} />
      </>
    ) : (
      app
    );
    const reactRoot = createRoot(root);
    // Over a screen already on show (kept, or drawn by the server), the first render is a transition:
    // React renders it in slices of a few milliseconds, yielding to the browser between them, and puts it
    // on screen in one commit, instead of one long task of several hundred milliseconds on a slow phone.
    // An empty page renders at once, as before.
    if (kept) startTransition(() => reactRoot.render(first));
    else reactRoot.render(first);
  }
  registerServiceWorker();
}

void start();
