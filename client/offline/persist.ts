/**
 * The signed-in staff member's last loaded screens, kept in IndexedDB (one record per user), so the app
 * opened without signal shows them under the offline banner. Only successful answers are kept, for at
 * most a week; Logout deletes the record (forgetDevice). Customers' answers are not kept (the markup of
 * their My Orders is, for a repeat visit's first paint: client/offline/snapshot.ts).
 */
import { dehydrate, hydrate, onlineManager, type QueryClient } from '@tanstack/react-query';
import { createStore, del, get, keys, set } from 'idb-keyval';
import { useSyncExternalStore } from 'react';
import { clearSession, getSession, type SessionEndReason } from '../session';
import { forgetUser } from './outbox';
import { answersKeptFor, forgetSnapshots, saveSnapshot } from './snapshot';

const MAX_AGE_MS = 7 * 24 * 3600_000;
const store = createStore('mchanga-cache', 'queries');

/** A build that changes the shape of answers bumps this, and older records are ignored. */
const BUSTER = 'v1';

interface Persisted {
  buster: string;
  savedAt: number;
  state: ReturnType<typeof dehydrate>;
}

const recordKey = (email: string) => `queries:${email}`;

function staffEmail(): string | null {
  const session = getSession();
  return session && answersKeptFor(session.role) ? session.userEmail : null;
}

/** The signed-in user's e-mail when the session may use the app's screens (not only change a password). */
function signedInEmail(): string | null {
  const session = getSession();
  return session && !session.mustChangePassword ? session.userEmail : null;
}

/**
 * The session whose kept data Logout is removing. Logout then waits for the server (up to 3 s) before it
 * clears the session, so a save due meanwhile would write the answers back: nothing of it is kept again.
 */
let forgottenToken: string | undefined;

/** Whose answers may be kept now (a staff member's), or whose screen (anyone's), unless their Logout is under way. */
function keepingFor(what: 'answers' | 'screen'): string | null {
  const token = getSession()?.token;
  if (token !== undefined && token === forgottenToken) return null;
  return what === 'answers' ? staffEmail() : signedInEmail();
}

/** Puts the user's kept answers into the cache (before the first screen renders). */
export async function restoreQueries(queryClient: QueryClient) {
  const email = staffEmail();
  if (!email) return;
  try {
    const saved = await get<Persisted>(recordKey(email), store);
    if (!saved || saved.buster !== BUSTER || Date.now() - saved.savedAt > MAX_AGE_MS) return;
    hydrate(queryClient, saved.state);
    // Kept data paints the screen at once, but it is as old as the last visit: every kept screen asks
    // the server again when it mounts (paused while offline, so the kept data stays under the banner).
    void queryClient.invalidateQueries({ refetchType: 'none' });
  } catch (err) {
    console.warn('Offline data not restored', err);
  }
}

/** Whether this phone keeps the signed-in user's screens (staff only): what the offline banner may claim. */
export function keepsScreens(): boolean {
  return staffEmail() !== null;
}

/**
 * Keeps the cache in IndexedDB, at most once a second, while a staff member is signed in; and the screen as
 * shown, for anyone signed in (client/offline/snapshot.ts decides which screens).
 */
export function persistQueries(queryClient: QueryClient) {
  let pending = false;
  const save = () => {
    pending = false;
    const viewer = keepingFor('screen');
    if (viewer) keepScreen(viewer);
    const email = keepingFor('answers');
    if (!email) return;
    const state = dehydrate(queryClient, {
      shouldDehydrateQuery: (q) => q.state.status === 'success' && q.state.data !== undefined,
    });
    void set(
      recordKey(email),
      { buster: BUSTER, savedAt: Date.now(), state } satisfies Persisted,
      store,
    ).catch((err: unknown) => console.warn('Offline data not saved', err));
  };
  // Leaving the app (another app, the home screen, a closed tab) keeps the screen as it is now.
  const onHidden = () => {
    const email = keepingFor('screen');
    if (document.visibilityState === 'hidden' && email) keepScreen(email);
  };
  document.addEventListener('visibilitychange', onHidden);
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    // A screen mounting its queries counts too: answers put into the cache before the first render (the
    // HTML's first data request, client/api.tsx) change nothing afterwards, and the screen is kept all the same.
    if (!['updated', 'added', 'removed', 'observerAdded'].includes(event.type)) return;
    if (pending) return;
    pending = true;
    setTimeout(save, 1_000);
  });
  return () => {
    unsubscribe();
    document.removeEventListener('visibilitychange', onHidden);
  };
}

/** The screen as shown, for the next visit's first paint (client/offline/snapshot.ts). */
function keepScreen(email: string) {
  const root = document.getElementById('root');
  if (root) void saveSnapshot(root, email).catch((err: unknown) => console.warn('Screen not kept', err));
}

/** Logout: the user's kept screens and their outbox leave the device (and any other user's kept screens). */
export async function forgetDevice(email: string) {
  forgottenToken = getSession()?.token;
  await Promise.all([
    ...(await keys<string>(store)).map((k) => del(k, store)),
    forgetSnapshots(),
    forgetUser(email).catch((err: unknown) => console.warn('Outbox not cleared', err)),
  ]);
}

/**
 * The server refused this device's token (set as the app's session-end handler, client/api.tsx). Expired:
 * the session goes, but what the user left here (kept screens, unsent entries) waits for them to sign in
 * again. Revoked (signed out everywhere, a new password) or disabled: it may be a lost phone, so everything
 * this user kept on the device goes too — as at Logout, without asking.
 */
export async function endSession(reason: SessionEndReason | undefined) {
  const email = getSession()?.userEmail;
  clearSession({ expired: true });
  if (email && (reason === 'revoked' || reason === 'disabled'))
    await forgetDevice(email).catch((err: unknown) => console.warn('Offline data not cleared', err));
}

// ── the banner's facts ──────────────────────────────────────────────────────────────────────────────

function subscribeOnline(listener: () => void) {
  return onlineManager.subscribe(listener);
}

export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribeOnline,
    () => onlineManager.isOnline(),
    () => true,
  );
}
