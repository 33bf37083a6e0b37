import { type ComponentType, Suspense } from 'react';
import { matchPath, Route, Routes } from 'react-router';
import { type AppRoute, isRouteAllowed } from '../shared/roles';
import { type Preloadable, preloadable } from './lazy';
import { getSession } from './session';
import { RequireRole } from './ui/RequireRole';

type LazyPage = Preloadable<object>;
const lazyPage = (load: () => Promise<ComponentType>): LazyPage => preloadable(load);

/**
 * A screen that calls the API: loaded together with the API layer, which wraps it, and ready once the
 * API layer has put back the screens kept on the device (so its first render does not suspend) and the
 * device's language is loaded (so it does not draw English first on a Kiswahili phone).
 */
function apiPage<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
  /** What the page's first render needs besides its module (the workspace's open tab). */
  ready?: (module: M) => Promise<void>,
): LazyPage {
  return lazyPage(() =>
    Promise.all([import('./api'), load(), import('./i18n')]).then(async ([api, m, i18n]) => {
      // The screen's module has run: its catalogs' namespaces are known to i18n.
      await Promise.all([api.apiReady(), ready?.(m), i18n.languageReady()]);
      return api.withApi(pick(m));
    }),
  );
}

interface PageRoute {
  path: string;
  /** The spec's route guard, for the signed-in screens. */
  guard?: AppRoute;
  page: LazyPage;
}

// One object per route with its import on the line after the path: bench/size.ts reads them from here.
export const ROUTES: PageRoute[] = [
  {
    path: '/',
    page: lazyPage(() => import('./features/landing/LandingPage').then((m) => m.LandingPage)),
  },
  {
    path: '/articles',
    page: apiPage(
      () => import('./features/articles/ArticlesPage'),
      (m) => m.ArticlesPage,
    ),
  },
  {
    path: '/login',
    page: apiPage(
      () => import('./features/login/LoginPage'),
      (m) => m.LoginPage,
    ),
  },
  {
    path: '/register',
    page: apiPage(
      () => import('./features/register/RegisterPage'),
      (m) => m.RegisterPage,
    ),
  },
  {
    path: '/order',
    guard: '/order',
    page: apiPage(
      () => import('./features/order/OrderPage'),
      (m) => m.OrderPage,
    ),
  },
  {
    path: '/customer',
    guard: '/customer',
    page: apiPage(
      () => import('./features/customer/CustomerPage'),
      (m) => m.CustomerPage,
    ),
  },
  {
    path: '/ops/:tab?',
    guard: '/ops',
    page: apiPage(
      () => import('./features/ops/OpsPage'),
      (m) => m.OpsPage,
      // A server render preloads the tab it draws itself (client/prerender.tsx renderScreen).
      (m) =>
        typeof window === 'undefined'
          ? Promise.resolve()
          : m.preloadWorkspaceTab(getSession()?.role, window.location.pathname, window.location.hash),
    ),
  },
  {
    path: '/driver',
    guard: '/driver',
    page: apiPage(
      () => import('./features/driver/DriverPage'),
      (m) => m.DriverPage,
    ),
  },
  {
    path: '/fuel',
    guard: '/fuel',
    page: apiPage(
      () => import('./features/fuel/FuelPage'),
      (m) => m.FuelPage,
    ),
  },
  {
    path: '/account/password',
    guard: '/account/password',
    page: apiPage(
      () => import('./features/password/PasswordPage'),
      (m) => m.PasswordPage,
    ),
  },
  {
    path: '/forgot-password',
    page: apiPage(
      () => import('./features/password/ForgotPasswordPage'),
      (m) => m.ForgotPasswordPage,
    ),
  },
  {
    path: '/reset-password',
    page: apiPage(
      () => import('./features/password/ResetPasswordPage'),
      (m) => m.ResetPasswordPage,
    ),
  },
  {
    path: '/track/:token',
    page: apiPage(
      () => import('./features/track/TrackPage'),
      (m) => m.TrackPage,
    ),
  },
  {
    path: '*',
    page: lazyPage(() => import('./features/not-found/NotFoundPage').then((m) => m.NotFoundPage)),
  },
];

/**
 * Loads the chunk of the screen that `pathname` shows (before hydrating a pre-rendered page, and beside
 * the first render). Not for a guarded screen the stored session may not open: that one redirects.
 */
export function preloadRoute(pathname: string): Promise<void> {
  const route = ROUTES.find((r) => r.path === '*' || matchPath(r.path, pathname));
  if (!route) return Promise.resolve();
  if (route.guard && isRouteAllowed(route.guard, getSession()?.role ?? null) !== 'ok')
    return Promise.resolve();
  return route.page.preload();
}

/** Shown while a screen's chunk loads on a cold visit (navigations keep the last screen meanwhile). */
function PageLoading() {
  return <main className="page" aria-busy="true" />;
}

export function AppRoutes() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        {ROUTES.map(({ path, guard, page: { Component } }) => (
          <Route
            key={path}
            path={path}
            element={
              guard ? (
                <RequireRole route={guard}>
                  <Component />
                </RequireRole>
              ) : (
                <Component />
              )
            }
          />
        ))}
      </Routes>
    </Suspense>
  );
}
