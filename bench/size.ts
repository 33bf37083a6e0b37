/**
 * What each route of the built client costs: its JavaScript (raw, gzip, brotli) read from the Vite build
 * manifest, split into what every page loads first (the entry, the app and their modulepreloads), what the route
 * adds, and what it loads later on its own (the map, the charts). The landing budget: the JavaScript
 * the landing page needs before it is interactive — the entry, the app, their modulepreloads and the landing chunk
 * (which the landing HTML modulepreloads so it can hydrate) — at most 90 KB brotli.
 *   npm run build && npm run bench:size        (reads dist/client)
 *   npm run bench:size -- <dir>                (another build's output)
 * Exits 1 when the landing budget is exceeded or the build is missing.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { APP_MODULE, OPS_ROUTE, OPS_TABS_SOURCE, opsTabTable, routeTable } from '../scripts/route-modules';

export const LANDING_BUDGET_BROTLI = 90 * 1024;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface Size {
  raw: number;
  gzip: number;
  brotli: number;
}

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const DEFAULT_DIST = join(ROOT, 'dist', 'client');

export function readManifest(dist: string): Manifest {
  const path = join(dist, '.vite', 'manifest.json');
  if (!existsSync(path)) throw new Error(`No build manifest at ${path}: run \`npm run build\` first.`);
  return JSON.parse(readFileSync(path, 'utf8')) as Manifest;
}

/** The manifest keys a chunk loads at once: itself and its static imports, transitively. */
export function staticClosure(manifest: Manifest, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest has no chunk ${key}.`);
    seen.add(key);
    for (const k of chunk.imports ?? []) visit(k);
  };
  for (const k of keys) visit(k);
  return seen;
}

/** The chunks reached only through dynamic imports from `from` (the map, the charts), not yet `loaded`. */
export function lazyClosure(manifest: Manifest, from: Set<string>, loaded: Set<string>): Set<string> {
  const lazy = new Set<string>();
  const queue = [...from].flatMap((k) => manifest[k]?.dynamicImports ?? []);
  while (queue.length > 0) {
    const key = queue.pop()!;
    if (loaded.has(key) || lazy.has(key)) continue;
    for (const k of staticClosure(manifest, [key])) {
      if (loaded.has(k) || lazy.has(k)) continue;
      lazy.add(k);
      queue.push(...(manifest[k]?.dynamicImports ?? []));
    }
  }
  return lazy;
}

/** The routes of client/routes.tsx as path → the page module's manifest key (lazy pages only). */
export function routeModules(routesSource: string): Map<string, string> {
  return new Map(routeTable(routesSource).map((r) => [r.path, r.module]));
}

export function entryKey(manifest: Manifest): string {
  const key = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!key) throw new Error('The manifest has no entry chunk.');
  return key;
}

/**
 * What every page loads first: the entry (client/boot.ts), the app it imports once the page has painted
 * (client/main.tsx, which every page preloads) and their static imports.
 */
export function appClosure(manifest: Manifest, ...modules: string[]): Set<string> {
  const app = appKey(manifest);
  return staticClosure(manifest, [entryKey(manifest), ...(app ? [app] : []), ...modules]);
}

/**
 * The app's chunk (client/main.tsx) in the manifest: keyed by its module, or, built as a chunk group with
 * its imports (vite.config.ts), the chunk the entry imports once the page has painted.
 */
export function appKey(manifest: Manifest): string | undefined {
  if (manifest[APP_MODULE]) return APP_MODULE;
  const started = manifest[entryKey(manifest)]?.dynamicImports ?? [];
  return started.length === 1 ? started[0] : undefined;
}

export function createSizer(dist: string) {
  const cache = new Map<string, Size>();
  const fileSize = (file: string): Size => {
    let size = cache.get(file);
    if (!size) {
      const bytes = readFileSync(join(dist, file));
      size = {
        raw: bytes.length,
        gzip: gzipSync(bytes, { level: 9 }).length,
        brotli: brotliCompressSync(bytes, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
        }).length,
      };
      cache.set(file, size);
    }
    return size;
  };
  return (manifest: Manifest, keys: Iterable<string>): Size => {
    const total = { raw: 0, gzip: 0, brotli: 0 };
    const files = new Set([...keys].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js')));
    for (const f of files) {
      const s = fileSize(f);
      total.raw += s.raw;
      total.gzip += s.gzip;
      total.brotli += s.brotli;
    }
    return total;
  };
}

export interface RouteReport {
  path: string;
  module: string | null;
  /** What the route adds to the entry before it renders. */
  own: Size;
  /** Entry plus the route: everything a cold load of the route runs before its first render. */
  firstLoad: Size;
  /** Loaded later by the route on its own (dynamic imports below it). */
  later: Size;
}

export interface SizeReport {
  entry: Size;
  landing: Size;
  routes: RouteReport[];
}

/**
 * `tabsSource` (client/features/ops/tabs.ts) adds a row per workspace tab: the workspace page and that
 * tab's chunk (a build whose tabs have no chunks of their own has no such rows).
 */
export function sizeReport(dist: string, routesSource: string, tabsSource?: string): SizeReport {
  const manifest = readManifest(dist);
  const size = createSizer(dist);
  const entryKeys = appClosure(manifest);
  const routes = routeModules(routesSource);
  const tabs = tabsSource ? opsTabTable(tabsSource).tabs.filter((t) => manifest[t.module]) : [];
  const reports: RouteReport[] = [];
  const report = (path: string, modules: string[]) => {
    const own = staticClosure(manifest, modules);
    for (const k of entryKeys) own.delete(k);
    const loaded = new Set([...entryKeys, ...own]);
    reports.push({
      path,
      module: modules.join(' + '),
      own: size(manifest, own),
      firstLoad: size(manifest, loaded),
      later: size(manifest, lazyClosure(manifest, own, loaded)),
    });
  };
  for (const [path, module] of routes) {
    report(path, [module]);
    if (path === OPS_ROUTE) for (const t of tabs) report(`/ops/${t.id}`, [module, t.module]);
  }
  const landingModule = routes.get('/');
  const landing = landingModule ? appClosure(manifest, landingModule) : entryKeys;
  return { entry: size(manifest, entryKeys), landing: size(manifest, landing), routes: reports };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const sizeCells = (s: Size) => `${kb(s.raw)} | ${kb(s.gzip)} | ${kb(s.brotli)}`;

function main() {
  const dist = resolve(process.argv[2] ?? DEFAULT_DIST);
  const report = sizeReport(
    dist,
    readFileSync(join(ROOT, 'client', 'routes.tsx'), 'utf8'),
    readFileSync(join(ROOT, 'client', OPS_TABS_SOURCE), 'utf8'),
  );
  console.log(`Client JavaScript in ${dist} (gzip -9, brotli q11)\n`);
  const e = report.entry;
  console.log(`Entry and its modulepreloads: ${kb(e.raw)} raw, ${kb(e.gzip)} gzip, ${kb(e.brotli)} brotli`);
  console.log('\n| route | adds raw | gzip | brotli | first load brotli | later (map, charts) brotli |');
  console.log('|---|---|---|---|---|---|');
  for (const r of report.routes)
    console.log(
      `| \`${r.path}\` | ${sizeCells(r.own)} | ${kb(r.firstLoad.brotli)} | ${kb(r.later.brotli)} |`,
    );
  if (report.routes.length === 0) console.log('| (no lazy routes: every screen is in the entry) | | | | | |');
  const ok = report.landing.brotli <= LANDING_BUDGET_BROTLI;
  console.log(
    `\nLanding before it is interactive (entry + app + modulepreloads + landing chunk): ${kb(report.landing.raw)} raw, ${kb(report.landing.gzip)} gzip, ${kb(report.landing.brotli)} brotli — budget ${kb(LANDING_BUDGET_BROTLI)} brotli: ${ok ? 'ok' : 'EXCEEDED'} (${(report.landing.brotli / LANDING_BUDGET_BROTLI).toFixed(2)}× the budget)`,
  );
  if (!ok) process.exitCode = 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
