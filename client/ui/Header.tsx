import { useState } from 'react';
import { NavLink } from 'react-router';
import { clearSession, greetingName, useSession } from '../session';

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

export function Header() {
  const session = useSession();
  const [open, setOpen] = useState(false);
  const items = navItems(session?.role ?? null);

  return (
    <header className="site-header">
      <div className="site-header__bar">
        <NavLink to="/" className="brand" onClick={() => setOpen(false)}>
          Mchanga
        </NavLink>
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
              <NavLink to={item.to} end onClick={() => setOpen(false)}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="site-nav__account">
          {session ? (
            <>
              <span className="greeting">Hi, {greetingName(session)}</span>
              <button
                type="button"
                className="button button--ghost"
                onClick={() => {
                  // A full load of / also drops every cached answer of the previous user.
                  clearSession();
                  window.location.assign('/');
                }}
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
