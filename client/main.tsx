import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app';
import { setLandingPricing } from './features/landing/landing-pricing';
import { readPrerendered } from './prerendered';
import { preloadRoute } from './routes';
import { registerServiceWorker } from './sw-register';
import './ui/styles.css';

// A chunk of an older build gone after a deploy: load the page again, which brings the new build
// (at most once a minute, so a chunk that stays missing shows its error instead of a reload loop).
window.addEventListener('vite:preloadError', (event) => {
  const last = Number(sessionStorage.getItem('mchanga:reloaded-at') ?? 0);
  if (Date.now() - last < 60_000) return;
  event.preventDefault();
  sessionStorage.setItem('mchanga:reloaded-at', String(Date.now()));
  window.location.reload();
});

async function start() {
  const root = document.getElementById('root')!;
  const app = <App Router={BrowserRouter} />;
  // The screen's chunk, fetched from now on, beside the first render. A failed load shows when the
  // screen renders (its lazy import tries again).
  const screen = preloadRoute(window.location.pathname);
  screen.catch(() => {});
  const prerendered = readPrerendered(document);
  if (prerendered && root.firstElementChild) {
    // The server rendered this page from this data: the first render must be the same to hydrate.
    setLandingPricing(prerendered.pricing);
    await screen;
    hydrateRoot(root, app);
  } else {
    // Served by the service worker (a repeat visit), the chunk is read from its cache at once: the first
    // render waits for it and shows the screen, instead of an empty page that a second render fills.
    // On a first visit the header shows while the chunk downloads.
    if (navigator.serviceWorker?.controller) await screen.catch(() => {});
    createRoot(root).render(app);
  }
  registerServiceWorker();
}

void start();
