import { tabIdsFor } from '../client/features/ops/tab-list';

/**
 * The screens of client/routes.tsx as the build and the benches see them: each route's path, the page
 * module it imports (lazy), and whether it is an API screen (`apiPage`: loaded together with client/api.tsx).
 * routes.tsx keeps one object per route with its import on the line after the path for this reason.
 */
export interface RouteModule {
  path: string;
  /** The page module, relative to client/, e.g. `features/fuel/FuelPage.tsx`. */
  module: string;
  /** Loaded with the API layer (client/api.tsx), which wraps it. */
  withApi: boolean;
}

export const API_MODULE = 'api.tsx';
/**
 * The app (relative to client/), which the page's entry (client/boot.ts) imports once the page has painted.
 * Every page preloads it and its imports (vite.config.ts): with the entry, what every page loads first.
 */
export const APP_MODULE = 'main.tsx';

export function routeTable(routesSource: string): RouteModule[] {
  return [...routesSource.matchAll(/path: '([^']+)'([^}]*?)import\('\.\/([^']+)'\)/gs)].map((m) => ({
    path: m[1]!,
    module: `${m[3]!}.tsx`,
    withApi: /\bapiPage\(/.test(m[2]!),
  }));
}

/** The workspace's tab table (client/features/ops/tabs.ts), relative to client/. */
export const OPS_TABS_SOURCE = 'features/ops/tabs.ts';
/** The route of the workspace, whose tabs each have a chunk (and a page) of their own. */
export const OPS_ROUTE = '/ops/:tab?';

export interface TabModule {
  /** The tab's address: `/ops/<id>`. */
  id: string;
  /** The tab's module, relative to client/, e.g. `features/ops-orders/OrdersTab.tsx`. */
  module: string;
}

/**
 * The workspace's tabs as tabs.ts lists their chunks (one line per tab: its id, then its import), and
 * the ones a bare /ops opens: the first tab ADMIN and OPS each have (client/features/ops/tab-list.ts).
 */
export function opsTabTable(tabsSource: string): { tabs: TabModule[]; firstTabs: TabModule[] } {
  const tabs = [...tabsSource.matchAll(/^\s+(\w+): preloadable\(\(\) => import\('\.\.\/([^']+)'\)/gm)].map(
    (m) => ({
      id: m[1]!,
      module: `features/${m[2]!}.tsx`,
    }),
  );
  const firstTabs = (['ADMIN', 'OPS'] as const).map((role) => tabs.find((t) => t.id === tabIdsFor(role)[0]));
  return { tabs, firstTabs: firstTabs.filter((t): t is TabModule => t !== undefined) };
}
