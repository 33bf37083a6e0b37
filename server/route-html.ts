/**
 * The screens other than `/` (/fuel, /driver, /ops/…, /track/…) as index.html plus modulepreloads of
 * their own chunks, from the build's `.vite/route-preloads.json` (vite.config.ts). A cold load of /fuel
 * then fetches the fuel screen and the API layer beside the entry, instead of after the entry has run
 * and the router has asked for them. Each page is built once at start, in every encoding.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { htmlPage, sendPage } from './landing-html';

export interface RoutePreloads {
  /** A route path of client/routes.tsx, e.g. `/ops/:tab?` (the same syntax in Fastify). */
  path: string;
  preloads: string[];
}

/** index.html with a modulepreload of each file before `</head>`. */
export function withPreloads(template: string, files: readonly string[]): string {
  if (!template.includes('</head>')) throw new Error('index.html has no </head>.');
  const links = files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join('\n    ');
  return template.replace('</head>', `    ${links}\n  </head>`);
}

/** Registers a GET (and HEAD) route per screen; a build without the list leaves them to the fallback. */
export function registerRoutePages(app: FastifyInstance, clientDir: string): void {
  const list = join(clientDir, '.vite', 'route-preloads.json');
  if (!existsSync(list)) return;
  const template = readFileSync(join(clientDir, 'index.html'), 'utf8');
  const routes = JSON.parse(readFileSync(list, 'utf8')) as RoutePreloads[];
  for (const { path, preloads } of routes) {
    const page = htmlPage(withPreloads(template, preloads));
    app.get(path, (req, reply) => sendPage(req, reply, page));
  }
}
