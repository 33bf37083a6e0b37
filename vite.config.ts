import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { VitePWA } from 'vite-plugin-pwa';

const LANDING_MODULE = 'features/landing/LandingPage.tsx';

/**
 * Writes `.vite/landing.html`: index.html plus modulepreloads of the landing page's own chunks. The
 * server fills its root with the pre-rendered landing page for `/` (server/landing-html.ts), so the
 * chunk that page hydrates with is fetched beside the entry instead of after it.
 */
function landingTemplate(): Plugin {
  return {
    name: 'mchanga:landing-template',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return;
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const landing = chunks.find((c) => c.facadeModuleId?.endsWith(`/client/${LANDING_MODULE}`));
      const entry = chunks.find((c) => c.isEntry);
      if (!landing || !entry) this.error(`landing template: no chunk for ${LANDING_MODULE} or no entry`);
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const loaded = new Set<string>();
      const visit = (file: string) => {
        if (loaded.has(file)) return;
        loaded.add(file);
        for (const dep of byName.get(file)?.imports ?? []) visit(dep);
      };
      visit(entry.fileName);
      const before = new Set(loaded);
      visit(landing.fileName);
      const links = [...loaded]
        .filter((f) => !before.has(f))
        .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`)
        .join('\n    ');
      this.emitFile({
        type: 'asset',
        fileName: '.vite/landing.html',
        source: String(html.source).replace('</head>', `    ${links}\n  </head>`),
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

/** Plugins for the browser build only (not the landing page's server render). */
function clientOnly(plugins: (Plugin | Plugin[])[]): Plugin[] {
  return plugins
    .flat()
    .map((p) => ({ ...p, applyToEnvironment: (environment) => environment.name === 'client' }));
}

export default defineConfig({
  root: 'client',
  plugins: [
    react(),
    ...clientOnly([
      landingTemplate(),
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
    outDir: '../dist/client',
    emptyOutDir: true,
    manifest: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
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
