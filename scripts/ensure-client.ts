/**
 * `npm start` builds the client (and the landing page's server render) only when it is missing, older
 * than its sources or not a production build, so a fresh clone works with `npm ci && npm start` and a
 * restart costs nothing.
 *
 * The build always runs with NODE_ENV=production: `npm start` inherits its caller's environment, and a
 * caller's NODE_ENV=test (vitest, which starts the app for the browser tests) or development would
 * otherwise make Vite bundle React's development build (about 45 KB brotli more on every page) and leave
 * the service worker unregistered (`import.meta.env.PROD` false).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist', 'client', 'index.html');
// The landing page's server render, built by the same `vite build`.
const prerender = join(root, 'dist', 'ssr', 'prerender.js');
// Written by the build (vite.config.ts, buildInfo): whether it was a production build.
const buildInfo = join(root, 'dist', 'client', '.vite', 'build.json');

function isProductionBuild(): boolean {
  try {
    return (JSON.parse(readFileSync(buildInfo, 'utf8')) as { production?: unknown }).production === true;
  } catch {
    return false;
  }
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

const sources = Math.max(
  newestMtime(join(root, 'client')),
  newestMtime(join(root, 'shared')),
  statSync(join(root, 'vite.config.ts')).mtimeMs,
  statSync(join(root, 'package-lock.json')).mtimeMs,
);
if (
  !existsSync(built) ||
  !existsSync(prerender) ||
  statSync(built).mtimeMs < sources ||
  !isProductionBuild()
) {
  console.log('Building the client (vite build)…');
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
}
