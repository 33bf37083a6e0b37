import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, transformWithOxc } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';
import { markTopLevelCallsPure } from './scripts/pure-schemas';
import {
  API_MODULE,
  APP_MODULE,
  OPS_ROUTE,
  OPS_TABS_SOURCE,
  opsTabTable,
  routeTable,
} from './scripts/route-modules';
import { planSharedChunks, type SharedChunk } from './scripts/shared-chunks';
import { type RoutePreloads, withModulesAtLowPriority, withPreloads } from './server/route-html';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

const LANDING_MODULE = 'features/landing/LandingPage.tsx';

/** The customers' pages (and the public ones): the rest are the staff's screens. */
const CUSTOMER_PAGES =
  /\/client\/features\/(landing|articles|login|register|order|customer|password|track|not-found)\//;

/** The map's and the charts' libraries: only the screens that show a map or a chart load them. */
const LAZY_LIBRARIES = /\/node_modules\/(maplibre-gl|@maplibre|react-map-gl|@vis\.gl|@visx|d3-[\w-]+)\//;

/**
 * The browsers the client is built for (README "Supported browsers"): Chrome and Android WebView 80 (Android
 * 8–10 phones that never update their WebView still run 80–84), Safari 14, Firefox 78. Syntax newer than
 * ES2020 (`||=`, class static blocks, …) is lowered; `npm run check:target` parses every built chunk
 * as ES2020 to prove it (CI).
 */
export const BROWSER_TARGET = ['es2020', 'chrome80', 'safari14', 'firefox78', 'edge88'];

/** Filled by `sharedChunks` once the module graph is known, read by the build's chunk groups. */
const sharedChunkOf = new Map<string, SharedChunk>();

/**
 * Plans the shared chunks (scripts/shared-chunks.ts) from the client's module graph, when it is complete and
 * before the bundler makes its chunks: a screen loads a few files instead of ~40 (issue 28).
 */
function sharedChunks(): Plugin {
  return {
    name: 'mchanga:shared-chunks',
    apply: 'build',
    buildEnd() {
      if (this.environment.name !== 'client') return;
      const ids = [...this.getModuleIds()];
      const find = (module: string) => ids.find((id) => id.endsWith(`/client/${module}`)) ?? '';
      const plan = planSharedChunks(
        {
          ids,
          imports: (id) => this.getModuleInfo(id)?.importedIds ?? [],
          isLazy: (id) => (this.getModuleInfo(id)?.dynamicImporters.length ?? 0) > 0,
        },
        {
          app: find(APP_MODULE),
          landing: find(LANDING_MODULE),
          keepApart: LAZY_LIBRARIES,
          customerPages: CUSTOMER_PAGES,
        },
      );
      sharedChunkOf.clear();
      for (const [id, chunk] of plan) sharedChunkOf.set(id, chunk);
    },
  };
}

/**
 * Each screen's own chunks, so that its HTML fetches them beside the entry instead of after the entry
 * has run and the router has asked for them (a round trip and a download later on a slow phone):
 * - index.html: modulepreloads of the app (client/main.tsx and its imports), which the entry imports after
 *   the first paint (client/boot.ts).
 * - `.vite/landing.html`: index.html plus modulepreloads of the landing page's chunks. The server fills
 *   its root with the pre-rendered landing page for `/` (server/landing-html.ts).
 * - `.vite/route-preloads.json`: the same list for every other screen of client/routes.tsx (its page
 *   module and, for an API screen, client/api.tsx), which the server adds to index.html for that path.
 */
function routeTemplates(): Plugin {
  return {
    name: 'mchanga:route-templates',
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return;
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const chunkOf = (module: string) => {
        // A module of a chunk group (client/main.tsx: build.rolldownOptions) is not its chunk's facade.
        const chunk =
          chunks.find((c) => c.facadeModuleId?.endsWith(`/client/${module}`)) ??
          chunks.find((c) => c.moduleIds.some((id) => id.endsWith(`/client/${module}`)));
        if (!chunk) this.error(`route templates: no chunk for client/${module}`);
        return chunk.fileName;
      };
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) this.error('route templates: no entry chunk');
      const closure = (files: string[]) => {
        const loaded = new Set<string>();
        const visit = (file: string) => {
          if (loaded.has(file)) return;
          loaded.add(file);
          for (const dep of byName.get(file)?.imports ?? []) visit(dep);
        };
        for (const file of files) visit(file);
        return loaded;
      };
      // The app itself (client/main.tsx), which the entry (client/boot.ts) imports once the page has painted:
      // every page preloads it, so it downloads beside the HTML as the entry's own imports do.
      const entryOwn = closure([entry.fileName]);
      const app = [...closure([chunkOf(APP_MODULE)])].filter((f) => !entryOwn.has(f));
      html.source = withPreloads(withModulesAtLowPriority(String(html.source)), app);
      const inEntry = new Set([...entryOwn, ...app]);
      const preloadsOf = (modules: string[]) =>
        [...closure(modules.map(chunkOf))].filter((f) => !inEntry.has(f));

      this.emitFile({
        type: 'asset',
        fileName: '.vite/landing.html',
        source: withPreloads(String(html.source), preloadsOf([LANDING_MODULE])),
      });
      const routes = routeTable(await readFile(resolve(ROOT, 'client/routes.tsx'), 'utf8'));
      const workspace = opsTabTable(await readFile(resolve(ROOT, 'client', OPS_TABS_SOURCE), 'utf8'));
      const pages: RoutePreloads[] = routes
        .filter((r) => r.path !== '/' && r.path !== '*')
        .flatMap((r) => {
          const own = r.withApi ? [API_MODULE, r.module] : [r.module];
          if (r.path !== OPS_ROUTE) return [{ path: r.path, preloads: preloadsOf(own) }];
          // The workspace: each tab's page preloads that tab; a bare /ops the tab each role opens first.
          return [
            { path: r.path, preloads: preloadsOf([...own, ...workspace.firstTabs.map((t) => t.module)]) },
            ...workspace.tabs.map((t) => ({
              path: `/ops/${t.id}`,
              screen: r.path,
              preloads: preloadsOf([...own, t.module]),
            })),
          ];
        });
      this.emitFile({
        type: 'asset',
        fileName: '.vite/route-preloads.json',
        source: JSON.stringify(pages, null, 2),
      });
    },
  };
}

/**
 * Writes `.vite/build.json`: whether this was a production build. `npm start` (scripts/ensure-client.ts)
 * rebuilds a client that was not, e.g. one built under NODE_ENV=test with React's development build.
 */
function buildInfo(): Plugin {
  let production = false;
  return {
    name: 'mchanga:build-info',
    apply: 'build',
    configResolved(config) {
      production = config.isProduction;
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: '.vite/build.json', source: JSON.stringify({ production }) });
    },
  };
}

/**
 * Writes `sw.js.br` and `sw.js.gz` beside the service worker, which vite-plugin-pwa builds when the
 * bundle is closed, after vite-plugin-compression2 has compressed the rest of the build.
 */
function compressServiceWorker(): Plugin {
  let outDir = '';
  return {
    name: 'mchanga:compress-sw',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const file = join(outDir, 'sw.js');
        const raw = await readFile(file);
        const br = await promisify(brotliCompress)(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        await writeFile(`${file}.br`, br);
        await writeFile(`${file}.gz`, await promisify(gzip)(raw, { level: 9 }));
      },
    },
  };
}

/**
 * Lowers the module workers copied as they are (`?url` imports: maplibre's worker) to the browser target,
 * as the bundled chunks are: otherwise the map's worker alone would need Chrome 94.
 */
function lowerCopiedWorkers(): Plugin {
  return {
    name: 'mchanga:lower-copied-workers',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      async handler(_options, bundle) {
        for (const asset of Object.values(bundle)) {
          if (asset.type !== 'asset' || !asset.fileName.endsWith('.mjs')) continue;
          const source =
            typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
          const lowered = await transformWithOxc(source, asset.fileName, {
            lang: 'js',
            target: BROWSER_TARGET,
            sourcemap: false,
          });
          asset.source = lowered.code;
        }
      },
    },
  };
}

/**
 * The shared schema modules' top-level schemas, marked pure (scripts/pure-schemas.ts): the build drops the
 * ones the client does not use instead of building them all while the app's code is evaluated. After
 * TypeScript is stripped (`enforce: 'post'`).
 */
function pureSchemas(): Plugin {
  return {
    name: 'mchanga:pure-schemas',
    apply: 'build',
    enforce: 'post',
    transform: {
      filter: { id: /\/shared\/schemas\/[\w-]+\.ts$/ },
      handler(code) {
        const marked = markTopLevelCallsPure(code);
        return marked === null ? null : { code: marked, map: null };
      },
    },
  };
}

/** Plugins for the browser build only (not the landing page's server render). */
function clientOnly(plugins: (Plugin | Plugin[])[]): Plugin[] {
  return plugins
    .flat()
    .map((p) => ({ ...p, applyToEnvironment: (environment) => environment.name === 'client' }));
}

export default defineConfig({
  root: 'client',
  plugins: [
    sharedChunks(),
    react(),
    pureSchemas(),
    ...clientOnly([
      lowerCopiedWorkers(),
      routeTemplates(),
      buildInfo(),
      VitePWA({
        strategies: 'injectManifest',
        srcDir: '.',
        filename: 'sw.ts',
        injectRegister: false,
        manifest: false,
        injectManifest: {
          rollupFormat: 'iife',
          globPatterns: ['**/*.{js,css,html,svg,png,ico,webmanifest}'],
          // The map (over 300 KB brotli, on three staff screens) is cached when first used instead.
          globIgnores: [
            '**/node_modules/**',
            'sw.js',
            'workbox-*.js',
            'assets/FleetMap-*',
            'assets/maplibre-*',
          ],
        },
      }),
      // index.html too: the server sends it for every client route (precompressed, with @fastify/static).
      compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.vite\//], threshold: 512 }),
      compressServiceWorker(),
    ]),
  ],
  build: {
    target: BROWSER_TARGET,
    outDir: '../dist/client',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // The app (client/main.tsx) with every module it imports, in one chunk: by default its imports
          // that a screen imports too (React, the session, the language, the enums) were chunks of their
          // own, each one more request that every page preloads and that the browser starts before its
          // first paint (~8 ms of main thread each at 4× CPU: bench/README). Every screen loads after the
          // app, so none loads more for it.
          // Vite's preload helper stays out of it: the entry imports it too, and must not import the app
          // (client/boot.ts starts it after the first paint).
          groups: [
            { name: 'preload-helper', test: /vite\/preload-helper/, priority: 2 },
            { name: 'main', test: /\/client\/main\.tsx$/, priority: 1 },
            // The screens' shared modules in one chunk, the landing page's in another (sharedChunks).
            { name: (id: string) => sharedChunkOf.get(id) ?? null, includeDependenciesRecursively: false },
          ],
        },
      },
    },
  },
  environments: {
    ssr: {
      build: {
        outDir: '../dist/ssr',
        manifest: false,
        // client/public (icons, manifest) belongs to the browser's build only.
        copyPublicDir: false,
        rollupOptions: {
          input: fileURLToPath(new URL('client/prerender.tsx', import.meta.url)),
          // One file: the server imports it once at start.
          output: { codeSplitting: false },
        },
      },
    },
  },
  // `vite build` builds both: the browser's client and the landing page's server render.
  builder: {
    async buildApp(builder) {
      await builder.build(builder.environments.client!);
      await builder.build(builder.environments.ssr!);
    },
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/trpc': 'http://localhost:3000',
    },
  },
});
