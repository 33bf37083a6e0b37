import { useSyncExternalStore } from 'react';
import type { TSessionUser } from '../shared/schemas/auth';
import { storedLanguage } from './i18n/language-key';
import { forgetSnapshots } from './offline/snapshot';
import { keepScreenCookie } from './screen-cookie';

/** The signed-in session, kept in localStorage under the spec's keys. */
export const SESSION_KEYS = [
  'token',
  'role',
  'userName',
  'userEmail',
  'driverId',
  'mustChangePassword',
] as const;
export const ADMIN_SELECTED_DRIVER_KEY = 'adminSelectedDriverId';

export interface Session {
  token: string;
  role: string;
  userName: string;
  userEmail: string;
  driverId: string | null;
  /** Signed in with an ADMIN's one-time password: only the password screen opens until a new one is chosen. */
  mustChangePassword: boolean;
}

const listeners = new Set<() => void>();
/**
 * Set when the server refused a stored token, so /login can say why the user is there. Kept here, not in
 * navigation state, because the route guard's redirect (on the store change) wins over a navigation.
 */
let expiredNotice = false;
let cached: { raw: string; session: Session | null } | undefined;

/**
 * The session a server render draws a screen for (client/prerender.tsx `renderScreen`); the server has no
 * localStorage. Set only for one synchronous render.
 */
let serverSession: Session | null = null;

/** Server only: `render` (synchronous, e.g. renderToString) with `session` signed in. */
export function renderAs<T>(session: Session, render: () => T): T {
  serverSession = session;
  try {
    return render();
  } finally {
    serverSession = null;
  }
}

function read(): Session | null {
  if (typeof localStorage === 'undefined') return serverSession;
  const values = SESSION_KEYS.map((k) => localStorage.getItem(k));
  const raw = JSON.stringify(values);
  if (cached?.raw === raw) return cached.session;
  const [token, role, userName, userEmail, driverId, mustChangePassword] = values;
  const session =
    token && role
      ? {
          token,
          role,
          userName: userName ?? '',
          userEmail: userEmail ?? '',
          driverId: driverId || null,
          mustChangePassword: mustChangePassword === '1',
        }
      : null;
  cached = { raw, session };
  return session;
}

function emit() {
  for (const l of listeners) l();
}

export function getSession(): Session | null {
  return read();
}

export function saveSession(
  token: string,
  user: Pick<TSessionUser, 'name' | 'email' | 'driverId' | 'mustChangePassword'> & { role: string },
) {
  expiredNotice = false;
  localStorage.setItem('token', token);
  localStorage.setItem('role', user.role);
  localStorage.setItem('userName', user.name);
  localStorage.setItem('userEmail', user.email);
  if (user.driverId) localStorage.setItem('driverId', user.driverId);
  else localStorage.removeItem('driverId');
  // Kept so a reload or a typed address still lands on the password screen (the server refuses the rest).
  if (user.mustChangePassword) localStorage.setItem('mustChangePassword', '1');
  else localStorage.removeItem('mustChangePassword');
  syncScreenCookie();
  emit();
}

export function clearSession(options: { expired?: boolean } = {}) {
  for (const key of SESSION_KEYS) localStorage.removeItem(key);
  localStorage.removeItem(ADMIN_SELECTED_DRIVER_KEY);
  expiredNotice = options.expired === true;
  // The kept screens go with the session (a refused token, Logout): the next visit paints none.
  void forgetSnapshots().catch(() => {});
  syncScreenCookie();
  emit();
}

/**
 * The screen cookie (shared/screen-cookie.ts) written again from the stored session, the language and
 * the viewport's width: on start, when the session changes, when the language does and when the width
 * does.
 */
export function syncScreenCookie() {
  if (typeof localStorage === 'undefined') return;
  keepScreenCookie(read(), { language: storedLanguage(), width: viewportWidth() });
}

/** The viewport's width in CSS px, as `min-width` media queries read it (0 outside a browser). */
const viewportWidth = () => (typeof window === 'undefined' ? 0 : window.innerWidth);

// A session kept before the cookie existed, or a cookie the browser dropped, is written again on start.
syncScreenCookie();
// A phone turned or a window resized: the next cold load is drawn at the new width (a table or cards).
if (typeof window !== 'undefined') {
  let written = viewportWidth();
  let settling: ReturnType<typeof setTimeout> | undefined;
  window.addEventListener('resize', () => {
    clearTimeout(settling);
    settling = setTimeout(() => {
      if (viewportWidth() === written) return;
      written = viewportWidth();
      syncScreenCookie();
    }, 500);
  });
}

/** Why the server refused a sent token (its 401's `reason`). */
export type SessionEndReason = 'expired' | 'invalid' | 'revoked' | 'disabled';

/** The 401's reason in a tRPC error's data (`data.details.reason`) or a REST body (`reason`). */
export function sessionEndReason(data: unknown): SessionEndReason | undefined {
  const d = data as { details?: { reason?: unknown }; reason?: unknown } | null | undefined;
  const reason = d?.details?.reason ?? d?.reason;
  return reason === 'expired' || reason === 'invalid' || reason === 'revoked' || reason === 'disabled'
    ? reason
    : undefined;
}

export function hasSessionExpiredNotice(): boolean {
  return expiredNotice;
}

export function dismissSessionExpiredNotice() {
  expiredNotice = false;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab signing in or out changes this one too.
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || (SESSION_KEYS as readonly string[]).includes(e.key)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, read, () => serverSession);
}

/** The header's greeting name: the first name, or Admin / Ops when no name is stored. */
export function greetingName(session: Session): string {
  const first = session.userName.trim().split(/\s+/)[0];
  if (first) return first;
  if (session.role === 'ADMIN') return 'Admin';
  if (session.role === 'OPS') return 'Ops';
  return 'there';
}
