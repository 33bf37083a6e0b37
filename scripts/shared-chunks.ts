/**
 * Which shared chunk a module of the browser's build goes into (issue 28).
 *
 * By default the bundler gives every set of screens that share modules a chunk of its own: a staff screen
 * came as ~40 files (/ops/orders 40, /driver 40, /login 23), most of them 1–3 KB. A phone on Slow 4G speaks
 * HTTP/1.1 to the server, six connections at a time, so each file is a round trip (150 ms) of its own, and
 * the browser starts every preloaded request on its main thread before it goes on parsing the page (~1.3 ms
 * each on this machine's CPU, ×4 on a cheap phone; bench/README). So:
 *
 * - a module that two or more lazily loaded modules (screens, tabs, the landing page's islands) import
 *   goes into one of two chunks: `shared` when a customer's page (sign-in, My Orders, a tracking link, the
 *   articles…) imports it (the API layer, the catalogs, the forms), `screens` when only the staff's
 *   screens do (their lists, sheets, charts' frames), so a customer's phone does not download the staff
 *   screens' code;
 * - and what the landing page's first load imports goes into `landing-shared`, so the landing page does
 *   not download the screens' modules with it (its first load has a budget of 90 KB brotli);
 * - the app itself (client/main.tsx and its imports) has its own group already, and the map's and the
 *   charts' libraries stay as they are: only the screens that show a map or a chart load them.
 *
 * A screen now loads a few files instead of dozens, at about the same number of bytes (bench:size).
 */

/** What the planner reads of the module graph (a Rolldown plugin context's `getModuleInfo`). */
export interface ModuleGraph {
  ids: readonly string[];
  /** The modules `id` imports statically. */
  imports(id: string): readonly string[];
  /** Whether some module imports `id` with `import()`. */
  isLazy(id: string): boolean;
}

export interface SharedChunkOptions {
  /** The app's module (client/main.tsx): it and what it imports are the app's group. */
  app: string;
  /** The landing page's module: what it imports statically is its first load. */
  landing: string;
  /** Libraries left to the bundler's default splitting (the map, the charts). */
  keepApart: RegExp;
  /** The lazily loaded modules that are customers' pages (anything else is the staff's). */
  customerPages: RegExp;
}

export type SharedChunk = 'shared' | 'screens' | 'landing-shared';

/** Every module `start` imports statically, directly or not, and `start` itself. */
function closure(graph: ModuleGraph, start: string): Set<string> {
  const seen = new Set<string>();
  const stack = [start];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    stack.push(...graph.imports(id));
  }
  return seen;
}

/** The shared chunk of each module that goes into one; a module not in the map is left to the bundler. */
export function planSharedChunks(graph: ModuleGraph, options: SharedChunkOptions): Map<string, SharedChunk> {
  const inApp = graph.ids.includes(options.app) ? closure(graph, options.app) : new Set<string>();
  const landingFirst = graph.ids.includes(options.landing)
    ? closure(graph, options.landing)
    : new Set<string>();
  // How many lazily loaded modules import each module, statically, directly or not, and whether a
  // customer's page is one of them.
  const users = new Map<string, { count: number; customers: boolean }>();
  for (const id of graph.ids) {
    if (!graph.isLazy(id)) continue;
    const customers = options.customerPages.test(id);
    for (const m of closure(graph, id)) {
      const user = users.get(m) ?? { count: 0, customers: false };
      users.set(m, { count: user.count + 1, customers: user.customers || customers });
    }
  }
  const plan = new Map<string, SharedChunk>();
  for (const [id, user] of users) {
    if (user.count < 2 || inApp.has(id) || options.keepApart.test(id)) continue;
    plan.set(id, landingFirst.has(id) ? 'landing-shared' : user.customers ? 'shared' : 'screens');
  }
  return plan;
}
