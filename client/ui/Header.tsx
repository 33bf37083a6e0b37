import { useEffect, useState } from 'react';
import { NavLink } from 'react-router';
import { isEmployee } from '../../shared/roles';
import { useLandingT } from '../i18n/landing';
import { clearSession, getSession, greetingName, useSession } from '../session';
import { LanguageSwitch } from './LanguageSwitch';

interface NavItem {
  to: string;
  /** Its label's key in the catalog (`shell.*` of landing-en.ts; the English is the spec's). */
  label: string;
}

/** Links per spec section 2 (Header), by the signed-in role. */
export function navItems(role: string | null): NavItem[] {
  const items: NavItem[] = [
    { to: '/', label: 'shell.home' },
    { to: '/articles', label: 'shell.articles' },
    { to: '/order', label: 'shell.order' },
  ];
  if (role === 'CUSTOMER') items.push({ to: '/customer', label: 'shell.myOrders' });
  if (role === 'ADMIN') items.push({ to: '/ops', label: 'shell.admin' });
  if (role === 'OPS') items.push({ to: '/ops', label: 'shell.operations' });
  if (role === 'DRIVER' || role === 'ADMIN') items.push({ to: '/driver', label: 'shell.driver' });
  if (role === 'FUEL' || role === 'ADMIN' || role === 'OPS') items.push({ to: '/fuel', label: 'shell.fuel' });
  return items;
}

/** Entries in the device outbox (client/offline), loaded only for staff: the landing page stays small. */
function useOutboxCount(active: boolean): number {
  const [count, setCount] = useState(0);
  useEffect(() => {
    if (!active) return setCount(0);
    let unsubscribe: (() => void) | undefined;
    let live = true;
    void import('../offline/outbox').then((outbox) => {
      if (!live) return;
      const update = () => setCount(outbox.outboxEntries().length);
      unsubscribe = outbox.subscribeOutbox(update);
      void outbox.refresh(false);
    });
    return () => {
      live = false;
      unsubscribe?.();
    };
  }, [active]);
  return count;
}

/**
 * Tells the server (its action log records the sign-out). Offline or a slow server never holds the
 * logout: the device forgets its token whatever the answer.
 */
async function recordSignOut() {
  const token = getSession()?.token;
  if (!token || !navigator.onLine) return;
  await fetch('/api/auth/logout', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(3000),
  }).catch(() => undefined);
}

/** Logout: the session, and everything this user's screens kept on the device (client/offline). */
async function logout(email: string, t: (key: string, values?: { n: number }) => string) {
  const outbox = await import('../offline/outbox');
  await outbox.refresh(false);
  const waiting = outbox.outboxEntries().length;
  if (
    waiting > 0 &&
    !window.confirm(
      waiting === 1 ? t('shell.logoutConfirmOne') : t('shell.logoutConfirmMany', { n: waiting }),
    )
  )
    return;
  const { forgetDevice } = await import('../offline/persist');
  await forgetDevice(email).catch((err: unknown) => console.warn('Offline data not cleared', err));
  await recordSignOut();
  clearSession();
  // A full load of / also drops every cached answer of the previous user.
  window.location.assign('/');
}

export function Header() {
  // The landing page's own `t` (no i18next): the header is pre-rendered with it.
  const { t } = useLandingT();
  const session = useSession();
  const waiting = useOutboxCount(isEmployee(session?.role));
  const [open, setOpen] = useState(false);
  const items = navItems(session?.role ?? null);

  return (
    <header className="site-header">
      <div className="site-header__bar">
        <NavLink to="/" className="brand" onClick={() => setOpen(false)}>
          Mchanga
        </NavLink>
        {waiting > 0 ? (
          <span className="outbox-count" role="status">
            {waiting === 1 ? t('shell.waitingOne') : t('shell.waitingMany', { n: waiting })}
          </span>
        ) : null}
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="site-nav"
          onClick={() => setOpen((o) => !o)}
        >
          {t('shell.menu')}
        </button>
      </div>
      <nav
        id="site-nav"
        aria-label={t('shell.mainNav')}
        className={open ? 'site-nav site-nav--open' : 'site-nav'}
      >
        <ul>
          {items.map((item) => (
            <li key={`${item.to}-${item.label}`}>
              <NavLink to={item.to} end={item.to === '/'} onClick={() => setOpen(false)}>
                {t(item.label)}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="site-nav__account">
          <LanguageSwitch />
          {session ? (
            <>
              <span className="greeting">{t('shell.hi', { name: greetingName(session) })}</span>
              <NavLink to="/account/password" onClick={() => setOpen(false)}>
                {t('shell.password')}
              </NavLink>
              <button
                type="button"
                className="button button--ghost"
                onClick={() => void logout(session.userEmail, t)}
              >
                {t('shell.logout')}
              </button>
            </>
          ) : (
            <NavLink to="/login" onClick={() => setOpen(false)}>
              {t('shell.login')}
            </NavLink>
          )}
        </div>
      </nav>
    </header>
  );
}
