/**
 * The last rendered screen of a signed-in user, kept so that a repeat visit paints it at once (issue 12: a
 * repeat visit paints in ≤ 1 s on a slow phone). The page keeps the markup of the screen it shows, per
 * address and down to KEPT_SCREEN_HEIGHTS screens from the top, in the Cache Storage; the service worker
 * puts it into the shell's `<div id="root">` when it answers a navigation to that address (client/sw.ts).
 * The browser paints it with the HTML, before any script; the app then renders over it from the same kept
 * data (client/offline/persist.ts) and asks the server again.
 *
 * Until the app has rendered, the kept screen is `inert` (nothing on it can be clicked or typed into) and
 * marked busy. Staff screens are kept (with their data, client/offline/persist.ts) and the customer's My
 * Orders (its markup only: the app renders it again from the HTML's first data request, issue 28: a repeat
 * visit painted the orders at 1.5 s on a slow phone), never open dialogs; Logout and an expired session
 * delete them all.
 */

import { isEmployee } from '../../shared/roles';
import { SHELL_ATTRIBUTE } from '../../shared/staff-shell';

/** Cache Storage name; the service worker reads it. */
export const SNAPSHOT_CACHE = 'mchanga-snapshots';
/** The header naming whose screen it is: the app drops a kept screen of anyone else. */
export const SNAPSHOT_USER_HEADER = 'x-mchanga-user';
/** Set on the root by the service worker while it holds a kept screen. */
export const SNAPSHOT_ATTRIBUTE = 'data-snapshot';
/** Larger screens are not kept (a long list): parsing them would cost more than it saves. */
const MAX_CHARS = 300_000;

const available = () => typeof caches !== 'undefined' && typeof location !== 'undefined';

/** Whose answers are kept with their screen (client/offline/persist.ts): staff's, not customers'. */
export const answersKeptFor = (role: string | undefined): boolean => role !== undefined && isEmployee(role);

/** The screens that are kept. */
export const KEPT_SCREENS = /^\/(ops|driver|fuel|customer)(\/|$)/;

/**
 * How far down the page a kept screen goes, in the phone's screen heights from the top. A repeat visit
 * opens at the top, and what lies further down is the app's to draw a moment later: style, layout and
 * paint of a whole kept screen were most of a repeat visit on a slow phone (issue 28: at 4× CPU, My Orders
 * painted at 492 ms whole and 396 ms kept to two screens, /ops/orders 548 and 440 ms).
 */
export const KEPT_SCREEN_HEIGHTS = 2;

/** What `keptTop` reads of the shown screen: its elements, where they are laid out, and how. */
export interface LaidOut {
  readonly children: ArrayLike<LaidOut>;
  getBoundingClientRect(): { top: number; bottom: number; width: number; height: number };
}

/** What `keptTop` changes in the copy: its elements, one by one. */
export interface Removable {
  readonly children: ArrayLike<Removable>;
  remove(): void;
}

/**
 * Drops from `copy` (a deep clone of `shown`, element for element) every element that lies wholly below
 * `cut` pixels from the top of the page, and goes into the ones that cross it. `scrollY` turns the
 * elements' places on the screen into places on the page. An element that is not laid out (hidden,
 * nothing to draw) stays, as does one fixed or sticky on the screen (`pinned`): its place on the screen is
 * not its place on the page.
 */
export function keptTop(
  shown: LaidOut,
  copy: Removable,
  cut: number,
  scrollY: number,
  pinned: (el: LaidOut) => boolean,
): void {
  const live = Array.from(shown.children);
  const copies = Array.from(copy.children);
  live.forEach((el, i) => {
    const kept = copies[i];
    if (!kept) return;
    const box = el.getBoundingClientRect();
    if ((box.width === 0 && box.height === 0) || box.bottom + scrollY <= cut || pinned(el)) return;
    if (box.top + scrollY >= cut) kept.remove();
    else keptTop(el, kept, cut, scrollY, pinned);
  });
}

const isPinned = (el: LaidOut) => {
  const position = getComputedStyle(el as Element).position;
  return position === 'fixed' || position === 'sticky';
};

/**
 * Keeps what `root` shows now, down to KEPT_SCREEN_HEIGHTS screens from the top, as the screen of this
 * address (the path, without query or hash).
 */
export async function saveSnapshot(root: HTMLElement, email: string): Promise<void> {
  if (
    !available() ||
    root.hasAttribute(SNAPSHOT_ATTRIBUTE) ||
    root.hasAttribute(SHELL_ATTRIBUTE) ||
    !KEPT_SCREENS.test(location.pathname)
  )
    return;
  // A screen whose lazy part is still loading is not worth keeping.
  if (root.querySelector('[aria-busy="true"]')) return;
  const copy = root.cloneNode(true) as HTMLElement;
  // Before anything else leaves the copy: it is walked beside the shown screen, element for element.
  keptTop(root, copy, KEPT_SCREEN_HEIGHTS * window.innerHeight, window.scrollY, isPinned);
  for (const el of copy.querySelectorAll(
    'dialog, [role="dialog"], [role="alertdialog"], [aria-modal="true"]',
  ))
    el.remove();
  const html = copy.innerHTML;
  if (html.length === 0 || html.length > MAX_CHARS) return;
  const cache = await caches.open(SNAPSHOT_CACHE);
  await cache.put(
    new URL(location.pathname, location.origin).href,
    new Response(html, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        [SNAPSHOT_USER_HEADER]: encodeURIComponent(email),
      },
    }),
  );
}

/** The shell's empty root, which a kept screen fills. */
const EMPTY_ROOT = '<div id="root"></div>';
/** The kept screen's last element: the page is not painted before it is parsed (keptScreenPage). */
export const KEPT_SCREEN_END = 'mchanga-kept-end';

/**
 * The shell page (`html`, its modulepreloads already left out) with the screen kept for this address in
 * its root, for `user` (the address the snapshot was kept for, URI-encoded): inert and busy until the app
 * renders over it. The head asks the browser not to paint until the kept screen's last element is parsed
 * (`<link rel="expect" blocking="render">`): Chromium's parser yields every few milliseconds on a slow
 * phone, and painted a 45 KB /ops/orders in three steps, its largest line 0.2 s after the first (issue
 * 28: a repeat visit ≤ 0.5 s). A browser without it paints as it parses, as before. The page as it was
 * when there is no empty root or the user is not a plain encoded address.
 */
export function keptScreenPage(html: string, screen: string, user: string): string {
  const at = html.indexOf(EMPTY_ROOT);
  const head = html.indexOf('</head>');
  if (at < 0 || head < 0 || head > at || !/^[\w%.~!*'()-]+$/.test(user)) return html;
  const root = `<div id="root" ${SNAPSHOT_ATTRIBUTE}="${user}" inert aria-busy="true">${screen}<i id="${KEPT_SCREEN_END}" hidden></i></div>`;
  const expect = `<link rel="expect" href="#${KEPT_SCREEN_END}" blocking="render">`;
  return html.slice(0, head) + expect + html.slice(head, at) + root + html.slice(at + EMPTY_ROOT.length);
}

/** Logout, or a session the server refused: no kept screen stays on the device. */
export async function forgetSnapshots(): Promise<void> {
  if (!available()) return;
  await caches.delete(SNAPSHOT_CACHE);
}

/**
 * Before the app renders into `root`: a kept screen of another user than the signed-in one (or of nobody
 * signed in) goes at once. Answers whether a kept screen stays on show.
 */
export function checkSnapshot(root: HTMLElement, email: string | null): boolean {
  if (!root.hasAttribute(SNAPSHOT_ATTRIBUTE)) return false;
  if (email !== null && root.getAttribute(SNAPSHOT_ATTRIBUTE) === encodeURIComponent(email)) return true;
  clearSnapshot(root);
  root.replaceChildren();
  return false;
}

/** The app has rendered over the kept screen: the root is the app's again. */
export function clearSnapshot(root: HTMLElement) {
  root.removeAttribute(SNAPSHOT_ATTRIBUTE);
  root.removeAttribute('inert');
  root.removeAttribute('aria-busy');
}
