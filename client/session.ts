import { useSyncExternalStore } from 'react';
import type { TSessionUser } from '../shared/schemas/auth';

/** The signed-in session, kept in localStorage under the spec's keys. */
export const SESSION_KEYS = ['token', 'role', 'userName', 'userEmail', 'driverId'] as const;
export const ADMIN_SELECTED_DRIVER_KEY = 'adminSelectedDriverId';

export interface Session {
  token: string;
  role: string;
  userName: string;
  userEmail: string;
  driverId: string | null;
}

const listeners = new Set<() => void>();
let cached: { raw: string; session: Session | null } | undefined;

function read(): Session | null {
  const values = SESSION_KEYS.map((k) => localStorage.getItem(k));
  const raw = JSON.stringify(values);
  if (cached?.raw === raw) return cached.session;
  const [token, role, userName, userEmail, driverId] = values;
  const session =
    token && role
      ? { token, role, userName: userName ?? '', userEmail: userEmail ?? '', driverId: driverId || null }
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
  user: Pick<TSessionUser, 'name' | 'email' | 'driverId'> & { role: string },
) {
  localStorage.setItem('token', token);
  localStorage.setItem('role', user.role);
  localStorage.setItem('userName', user.name);
  localStorage.setItem('userEmail', user.email);
  if (user.driverId) localStorage.setItem('driverId', user.driverId);
  else localStorage.removeItem('driverId');
  emit();
}

export function clearSession() {
  for (const key of SESSION_KEYS) localStorage.removeItem(key);
  localStorage.removeItem(ADMIN_SELECTED_DRIVER_KEY);
  emit();
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
  return useSyncExternalStore(subscribe, read, () => null);
}

/** The header's greeting name: the first name, or Admin / Ops when no name is stored. */
export function greetingName(session: Session): string {
  const first = session.userName.trim().split(/\s+/)[0];
  if (first) return first;
  if (session.role === 'ADMIN') return 'Admin';
  if (session.role === 'OPS') return 'Ops';
  return 'there';
}
