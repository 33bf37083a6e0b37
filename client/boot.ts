/**
 * The page's entry: the stylesheet, then the app (client/main.tsx), started once the screen already in the
 * page has been painted.
 *
 * A page often comes with its screen drawn: by the server (the landing page, a tracking link, a signed-in
 * screen with its data, a staff screen's top) or by the service worker (the screen kept at this address).
 * Evaluating the app's code (~180 KB brotli) and rendering the first time take several hundred
 * milliseconds on a cheap phone, and a browser that has the code at hand before its first paint (a fast
 * network, a repeat visit) runs it first: the screen in the HTML then waits for the app before it shows.
 * Started after the first paint, the app costs that paint nothing (issue 28); on an empty page it starts
 * at once. Every page still preloads the app's code with its HTML (vite.config.ts `routeTemplates`):
 * fetched only after the paint, the app was live 0.2–0.5 s later on Slow 4G (bench:lcp, `app rendered`)
 * for a first paint 0.1–0.3 s sooner.
 */
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

/** Longest the app waits for the first paint: a page not shown (a tab opened behind) paints only when it is. */
const PAINT_WAIT_MS = 1_000;

/**
 * Runs `start` once the page's first contentful paint is on screen (or, in a browser without paint timing,
 * two frames on), or after PAINT_WAIT_MS.
 */
function afterFirstPaint(start: () => void) {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  setTimeout(once, PAINT_WAIT_MS);
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(() => requestAnimationFrame(once));
    return;
  }
  const observer = new PerformanceObserver((list) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    // The entry comes once the frame is presented; one more task, so the app's first task starts after it
    // rather than inside the same turn.
    setTimeout(once, 0);
  });
  observer.observe({ type: 'paint', buffered: true });
}

/** Marked on the page's performance timeline (`mchanga:app-start`), where a trace or a test can see it. */
const start = () => {
  performance.mark('mchanga:app-start');
  void import('./main');
};
if (document.getElementById('root')?.firstElementChild) afterFirstPaint(start);
else start();
