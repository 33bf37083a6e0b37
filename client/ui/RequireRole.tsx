import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { type AppRoute, isRouteAllowed } from '../../shared/roles';
import { useSession } from '../session';

/**
 * Spec route guard: no stored token → /login; a stored role the route does not allow → /; a session signed
 * in with an ADMIN's one-time password → the password screen, whatever address was opened or reloaded.
 */
export function RequireRole({ route, children }: { route: AppRoute; children: ReactNode }) {
  const session = useSession();
  const verdict = isRouteAllowed(route, session?.role ?? null);
  if (verdict === 'login') return <Navigate to="/login" replace />;
  if (verdict === 'home') return <Navigate to="/" replace />;
  if (session?.mustChangePassword && route !== '/account/password')
    return <Navigate to="/account/password" replace />;
  return <>{children}</>;
}
