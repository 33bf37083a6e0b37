/**
 * The screens other than `/` (/fuel, /driver, /ops/…, /track/…) as index.html plus modulepreloads of
 * their own chunks, from the build's `.vite/route-preloads.json` (vite.config.ts). A cold load of /fuel
 * then fetches the fuel screen and the API layer beside the entry, instead of after the entry has run
 * and the router has asked for them. The staff screens' pages also start their first data request
 * (withFirstData). Each page is built once at start, in every encoding.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { firstDataScript } from '../shared/first-data';
import { staffShellScript } from '../shared/staff-shell';
import { EMPTY_ROOT, htmlPage, inlineStylesheets, sendFreshPage, sendPage } from './landing-html';

/** The staff screens whose HTML starts their first data request (shared/first-data.ts, issue 28). */
export const FIRST_DATA_ROUTES: ReadonlySet<string> = new Set([
  '/ops/:tab?',
  '/driver',
  '/fuel',
  '/customer',
  '/order',
]);
/** The content security policy's source for exactly this inline script (no 'unsafe-inline'). */
const hashSource = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** The inline script, the same text on every page that carries it. */
export const FIRST_DATA_SCRIPT = firstDataScript();
export const FIRST_DATA_SCRIPT_SRC = hashSource(FIRST_DATA_SCRIPT);

/** The inline script that writes a staff screen's top into the root (shared/staff-shell.ts). */
export const STAFF_SHELL_SCRIPT = staffShellScript();
export const STAFF_SHELL_SCRIPT_SRC = hashSource(STAFF_SHELL_SCRIPT);

/**
 * index.html with the screen's tops (`shell`: the JSON element of client/staff-shell.tsx) and the script
 * that shows the signed-in user's right after the empty root: it runs as the root is parsed, before the
 * stylesheet has loaded, so the first paint already has it.
 */
export function withStaffShell(template: string, shell: string): string {
  const at = template.indexOf(EMPTY_ROOT);
  if (at < 0) throw new Error(`index.html has no ${EMPTY_ROOT}.`);
  const end = at + EMPTY_ROOT.length;
  return `${template.slice(0, end)}${shell}<script>${STAFF_SHELL_SCRIPT}</script>${template.slice(end)}`;
}

/**
 * index.html with the first-data script right after `<meta charset>`: before the stylesheet, which an
 * inline script placed after it would wait for, and before the entry script.
 */
export function withFirstData(template: string): string {
  const charset = /<meta charset[^>]*>/i.exec(template);
  if (!charset) throw new Error('index.html has no <meta charset>.');
  const at = charset.index + charset[0].length;
  return `${template.slice(0, at)}\n    <script>${FIRST_DATA_SCRIPT}</script>${template.slice(at)}`;
}

/**
 * A screen's page rendered for one request with its data in it (server/track-html.ts): the built page
 * (`html`, with its root empty) filled, or null to send the built page as it is.
 */
export type RenderPage = (req: FastifyRequest, html: string) => Promise<string | null>;

export interface RoutePreloads {
  /** A route path of client/routes.tsx, e.g. `/ops/:tab?` (the same syntax in Fastify), or a workspace tab's. */
  path: string;
  /** The route of client/routes.tsx that shows it when not `path` itself (`/ops/:tab?` for `/ops/orders`). */
  screen?: string;
  preloads: string[];
}

/**
 * The app's code is not what a page first shows: the server or the service worker draws the screen, and the
 * entry starts the app only after that paint (client/boot.ts). At the browser's high priority for scripts,
 * Lighthouse's simulation took the modules for scripts the first paint waits for (unthrottled, they end just
 * before it) and put the whole download before the paint (/ops/finance 93–94). So every module script and
 * modulepreload asks for low priority: still requested with the HTML, behind only the first data request.
 * On Slow 4G the app is live no later for it (bench:lcp `app rendered`, issue 28).
 */
export const MODULE_PRIORITY = 'fetchpriority="low"';

/** The page's module scripts and modulepreloads (the ones Vite writes) at MODULE_PRIORITY. */
export function withModulesAtLowPriority(html: string): string {
  return html.replace(
    /<(script type="module"|link rel="modulepreload")([^>]*)>/g,
    (tag, kind: string, rest: string) =>
      rest.includes('fetchpriority') ? tag : `<${kind}${rest} ${MODULE_PRIORITY}>`,
  );
}

/** index.html with a modulepreload of each file before `</head>`. */
export function withPreloads(template: string, files: readonly string[]): string {
  if (!template.includes('</head>')) throw new Error('index.html has no </head>.');
  const links = files
    .map((f) => `<link rel="modulepreload" crossorigin href="/${f}" ${MODULE_PRIORITY}>`)
    .join('\n    ');
  return template.replace('</head>', `    ${links}\n  </head>`);
}

/**
 * Registers a GET (and HEAD) route per screen; a build without the list leaves them to the fallback.
 * `shells` (by route path or workspace tab page, from the build's server render) puts a staff screen's
 * top into its page; `rendered` (by route path) renders a page for each request instead, with its data
 * (from the page without the first request and the top), or sends the page as built when it cannot.
 * True when the screens have routes of their own (so any other path is not a screen).
 */
export function registerRoutePages(
  app: FastifyInstance,
  clientDir: string,
  shells: Readonly<Record<string, string>> = {},
  rendered: Readonly<Record<string, RenderPage>> = {},
): boolean {
  const list = join(clientDir, '.vite', 'route-preloads.json');
  if (!existsSync(list)) return false;
  const template = inlineStylesheets(readFileSync(join(clientDir, 'index.html'), 'utf8'), clientDir);
  const routes = JSON.parse(readFileSync(list, 'utf8')) as RoutePreloads[];
  for (const { path, screen = path, preloads } of routes) {
    // What a page rendered for its request fills: its data replaces the first request and the top.
    const base = withPreloads(template, preloads);
    let html = base;
    if (FIRST_DATA_ROUTES.has(screen)) html = withFirstData(html);
    const shell = shells[path] ?? shells[screen];
    if (shell) html = withStaffShell(html, shell);
    const page = htmlPage(html);
    const render = rendered[path] ?? rendered[screen];
    if (!render) {
      app.get(path, (req, reply) => sendPage(req, reply, page));
      continue;
    }
    app.get(path, async (req, reply) => {
      const filled = await render(req, base).catch((err: unknown) => {
        req.log.warn({ err, path }, 'page not rendered with its data: the browser renders it');
        return null;
      });
      return filled === null ? sendPage(req, reply, page) : sendFreshPage(req, reply, filled);
    });
  }
  return true;
}
