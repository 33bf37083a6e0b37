import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ADMIN_SELECTED_DRIVER_KEY,
  clearSession,
  dismissSessionExpiredNotice,
  getSession,
  greetingName,
  hasSessionExpiredNotice,
  type Session,
  saveSession,
} from './session';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, String(v)),
    removeItem: (k: string) => void items.delete(k),
    keys: () => [...items.keys()].sort(),
  };
}

let storage: ReturnType<typeof memoryStorage>;

beforeEach(() => {
  storage = memoryStorage();
  vi.stubGlobal('localStorage', storage);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const session = (over: Partial<Session>): Session => ({
  token: 't',
  role: 'CUSTOMER',
  userName: '',
  userEmail: 'a@b.test',
  driverId: null,
  mustChangePassword: false,
  ...over,
});

describe('greetingName', () => {
  it.each([
    [{ userName: 'Wanjiru Kamau' }, 'Wanjiru'],
    [{ userName: '  Otieno   Odhiambo ' }, 'Otieno'],
    [{ userName: 'Akinyi' }, 'Akinyi'],
    [{ userName: '', role: 'ADMIN' }, 'Admin'],
    [{ userName: '   ', role: 'OPS' }, 'Ops'],
    [{ userName: '', role: 'DRIVER' }, 'there'],
    [{ userName: '', role: 'CUSTOMER' }, 'there'],
    // a name wins over the role
    [{ userName: 'Mary', role: 'ADMIN' }, 'Mary'],
  ])('%j → %s', (over, name) => {
    expect(greetingName(session(over))).toBe(name);
  });
});

describe('the stored session', () => {
  it('is none until saved', () => {
    expect(getSession()).toBeNull();
  });

  it('round-trips a driver, and a later sign-in without a driver drops the driver id', () => {
    saveSession('tok-1', { role: 'DRIVER', name: 'Juma', email: 'juma@mchanga.test', driverId: 'D7' });
    expect(getSession()).toEqual({
      token: 'tok-1',
      role: 'DRIVER',
      userName: 'Juma',
      userEmail: 'juma@mchanga.test',
      driverId: 'D7',
      mustChangePassword: false,
    });
    saveSession('tok-2', { role: 'OPS', name: 'Ann', email: 'ann@mchanga.test', driverId: null });
    expect(getSession()).toMatchObject({ token: 'tok-2', role: 'OPS', driverId: null });
    expect(storage.getItem('driverId')).toBeNull();
  });

  it('keeps a one-time-password sign-in until a session without it is saved, and clears it on sign-out', () => {
    saveSession('tok-1', {
      role: 'FUEL',
      name: 'Ann',
      email: 'ann@mchanga.test',
      driverId: null,
      mustChangePassword: true,
    });
    expect(getSession()?.mustChangePassword).toBe(true);
    // After the password is changed the answer's session has no flag.
    saveSession('tok-2', {
      role: 'FUEL',
      name: 'Ann',
      email: 'ann@mchanga.test',
      driverId: null,
      mustChangePassword: false,
    });
    expect(getSession()?.mustChangePassword).toBe(false);
    expect(storage.getItem('mustChangePassword')).toBeNull();
    saveSession('tok-3', {
      role: 'FUEL',
      name: 'Ann',
      email: 'ann@mchanga.test',
      driverId: null,
      mustChangePassword: true,
    });
    clearSession();
    expect(storage.getItem('mustChangePassword')).toBeNull();
  });

  it('needs both a token and a role', () => {
    storage.setItem('token', 'tok');
    expect(getSession()).toBeNull();
    storage.setItem('role', 'OPS');
    expect(getSession()).toMatchObject({ token: 'tok', role: 'OPS', userName: '', driverId: null });
  });

  it('follows a change made by another tab (the same storage)', () => {
    saveSession('tok-1', { role: 'OPS', name: 'Ann', email: 'ann@mchanga.test', driverId: null });
    expect(getSession()?.token).toBe('tok-1');
    storage.setItem('token', 'tok-from-other-tab');
    expect(getSession()?.token).toBe('tok-from-other-tab');
  });

  it('clears every key it wrote and the admin-selected driver, leaving other keys', () => {
    saveSession('tok', { role: 'ADMIN', name: 'Ann', email: 'ann@mchanga.test', driverId: 'D1' });
    storage.setItem(ADMIN_SELECTED_DRIVER_KEY, 'D9');
    storage.setItem('mchanga.language', 'sw');
    clearSession();
    expect(getSession()).toBeNull();
    expect(storage.keys()).toEqual(['mchanga.language']);
  });

  it('says why the user was signed out only when the server refused the token, until dismissed or signed in', () => {
    saveSession('tok', { role: 'OPS', name: 'Ann', email: 'ann@mchanga.test', driverId: null });
    clearSession();
    expect(hasSessionExpiredNotice()).toBe(false);

    clearSession({ expired: true });
    expect(hasSessionExpiredNotice()).toBe(true);
    dismissSessionExpiredNotice();
    expect(hasSessionExpiredNotice()).toBe(false);

    clearSession({ expired: true });
    saveSession('tok', { role: 'OPS', name: 'Ann', email: 'ann@mchanga.test', driverId: null });
    expect(hasSessionExpiredNotice()).toBe(false);
  });
});
