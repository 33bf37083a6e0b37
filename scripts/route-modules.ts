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

export function routeTable(routesSource: string): RouteModule[] {
  return [...routesSource.matchAll(/path: '([^']+)'([^}]*?)import\('\.\/([^']+)'\)/gs)].map((m) => ({
    path: m[1]!,
    module: `${m[3]!}.tsx`,
    withApi: /\bapiPage\(/.test(m[2]!),
  }));
}
