import { useEffect, useState } from 'react';
import { NavLink } from 'react-router';
import { clearSession, greetingName, useSession } from '../session';
import { LanguageSwitch } from './LanguageSwitch';

interface NavItem {
  to: string;
  label: string;
}

/** Links per spec section 2 (Header), by the signed-in role. */
export function navItems(role: string | null): NavItem[] {
  const items: NavItem[] = [
    { to: '/', label: 'Home' },
    { to: '/articles', label: 'Articles' },
    { to: '/order', label: 'Order' },
  ];
  if (role === 'CUSTOMER') items.push({ to: '/customer', label: 'My Orders' });
  if (role === 'ADMIN') items.push({ to: '/ops', label: 'Admin' });
  if (role === 'OPS') items.push({ to: '/ops', label: 'Operations' });
  if (role === 'DRIVER' || role === 'ADMIN') items.push({ to: '/driver', label: 'Driver' });
  if (role === 'FUEL' || role === 'ADMIN' || role === 'OPS') items.push({ to: '/fuel', label: 'Fuel' });
  return items;
}

const STAFF_ROLES = ['ADMIN', 'OPS', 'DRIVER', 'FUEL'];

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

/** Logout: the session, and everything this user's screens kept on the device (client/offline). */
async function logout(email: string) {
  const outbox = await import('../offline/outbox');
  await outbox.refresh(false);
  const waiting = outbox.outboxEntries().length;
  if (
    waiting > 0 &&
    !window.confirm(
      `${waiting} ${waiting === 1 ? 'entry is' : 'entries are'} not sent yet. Logging out deletes ${waiting === 1 ? 'it' : 'them'} from this phone.`,
    )
  )
    return;
  const { forgetDevice } = await import('../offline/persist');
  await forgetDevice(email).catch((err: unknown) => console.warn('Offline data not cleared', err));
  clearSession();
  // A full load of / also drops every cached answer of the previous user.
  window.location.assign('/');
}

export function Header() {
  const session = useSession();
  const waiting = useOutboxCount(Boolean(session && STAFF_ROLES.includes(session.role)));
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
            {waiting} waiting to send
          </span>
        ) : null}
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="site-nav"
          onClick={() => setOpen((o) => !o)}
        >
          Menu
        </button>
      </div>
      <nav id="site-nav" aria-label="Main" className={open ? 'site-nav site-nav--open' : 'site-nav'}>
        <ul>
          {items.map((item) => (
            <li key={`${item.to}-${item.label}`}>
              <NavLink to={item.to} end={item.to === '/'} onClick={() => setOpen(false)}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="site-nav__account">
          <LanguageSwitch />
          {session ? (
            <>
              <span className="greeting">Hi, {greetingName(session)}</span>
              <button
                type="button"
                className="button button--ghost"
                onClick={() => void logout(session.userEmail)}
              >
                Logout
              </button>
            </>
          ) : (
            <NavLink to="/login" onClick={() => setOpen(false)}>
              Login
            </NavLink>
          )}
        </div>
      </nav>
    </header>
  );
}
