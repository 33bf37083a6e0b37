/**
 * The landing page `/` as HTML that already shows the live pricing, the quote form and the dispatch
 * card: the build's landing template (index.html plus the landing chunk's modulepreloads) with the page
 * rendered by the client's own components (dist/ssr/prerender.js, built from client/prerender.tsx) and
 * the data it was rendered from, which the browser hydrates with. Rendered again only when the pricing
 * it is given changes, and kept compressed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip as gzipCallback, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FirstCall } from '../shared/first-data';
import type { TPricingInfo } from '../shared/schemas/pricing';
import type { TTracking } from '../shared/schemas/tracking';
import type { ScreenDevice, ScreenViewer } from '../shared/screen-cookie';
import type { ShellFacts } from '../shared/staff-shell';

export interface RenderedLanding {
  /** The HTML inside `<div id="root">`. */
  root: string;
  /** The data it was rendered from: a JSON script element placed after the root. */
  data: string;
}
export type RenderLanding = (pricing: TPricingInfo) => Promise<RenderedLanding>;

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCallback);

/**
 * The page with the app's stylesheet (the build's `/assets/*.css` links in its head) written into it:
 * a cold load on a slow phone paints with the HTML instead of waiting for the stylesheet, which queues
 * behind the screen's modules for HTTP/1.1's 6 connections (issue 28: /track painted at 1.3 s with the
 * HTML in at 0.2 s). About 5 KB brotli more per page; a page is revalidated by its ETag, and the service
 * worker keeps it. A stylesheet that is missing, or would close the element early, stays a link.
 */
export function inlineStylesheets(html: string, clientDir: string): string {
  return html.replace(
    /<link rel="stylesheet"(?: crossorigin)? href="\/(assets\/[\w.-]+\.css)">/g,
    (link, file: string) => {
      const path = join(clientDir, file);
      if (!existsSync(path)) return link;
      const css = readFileSync(path, 'utf8');
      if (/<\/style/i.test(css)) return link;
      // The link stays beside it, disabled (never fetched nor applied): the app's code, on its first lazy
      // import, looks for the stylesheets the page already has among its links (Vite's preload helper), and
      // would otherwise add the same stylesheet again, fetch it, wait for it before showing the imported
      // screen, and restyle the whole page with every rule twice.
      return `<style>${css}</style><link rel="stylesheet" href="/${file}" disabled>`;
    },
  );
}

/** The root of the build's index.html before anything is put in or after it. */
export const EMPTY_ROOT = '<div id="root"></div>';

/** The template with the rendered page in its root and the page's data after it. */
export function fillTemplate(template: string, rendered: RenderedLanding, rootAttributes = ''): string {
  const at = template.indexOf(EMPTY_ROOT);
  if (at < 0) throw new Error(`The landing template has no ${EMPTY_ROOT}.`);
  return `${template.slice(0, at)}<div id="root"${rootAttributes}>${rendered.root}</div>${rendered.data}${template.slice(at + EMPTY_ROOT.length)}`;
}

export type Encoding = 'br' | 'gzip' | 'identity';

/** The encoding to send for an Accept-Encoding header: brotli, else gzip, else none (q=0 refuses). */
export function pickEncoding(acceptEncoding: string | undefined): Encoding {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return 'identity';
}

/** A page kept in memory in every encoding it may go out in, with its ETag. */
export interface HtmlPage {
  etag: string;
  body: Record<Encoding, Buffer>;
}

export function htmlPage(html: string): HtmlPage {
  const raw = Buffer.from(html);
  return {
    // Weak: the same page goes out in three encodings.
    etag: `W/"${createHash('sha256').update(raw).digest('base64url').slice(0, 27)}"`,
    body: {
      identity: raw,
      br: brotliCompressSync(raw, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
      }),
      gzip: gzipSync(raw, { level: 9 }),
    },
  };
}

/**
 * The landing page for a pricing: rendered once per distinct pricing (the last one is kept; pricing
 * changes seldom), concurrent requests for the same pricing sharing one render.
 */
export function createLandingPages(template: string, render: RenderLanding) {
  let last: { key: string; page: Promise<HtmlPage> } | undefined;
  return (pricing: TPricingInfo): Promise<HtmlPage> => {
    const key = JSON.stringify(pricing);
    if (last?.key !== key) {
      const page = render(pricing).then((rendered) => htmlPage(fillTemplate(template, rendered)));
      last = { key, page };
      // A failed render is not kept: the next request tries again.
      page.catch(() => {
        if (last?.page === page) last = undefined;
      });
    }
    return last.page;
  };
}

/** What the build's server render (dist/ssr/prerender.js, from client/prerender.tsx) exports. */
export interface ServerRender {
  renderLanding: RenderLanding;
  renderStaffShells: (facts: ShellFacts) => Promise<Record<string, string>>;
  renderTracking: (pathname: string, token: string, answer: TTracking) => Promise<RenderedLanding>;
  renderScreen: (
    pathname: string,
    viewer: ScreenViewer,
    device: ScreenDevice,
    answers: { call: FirstCall; data: unknown }[],
  ) => Promise<RenderedLanding>;
}

/** The build's server render beside the client, or null when the build has none. */
export async function serverRender(clientDir: string): Promise<ServerRender | null> {
  const renderer = join(clientDir, '..', 'ssr', 'prerender.js');
  if (!existsSync(renderer)) return null;
  return (await import(pathToFileURL(renderer).href)) as ServerRender;
}

/**
 * The staff screens' tops (client/staff-shell.tsx) by route path (and workspace tab page), rendered once
 * at start; none without the build's server render (the screens then render their top themselves).
 */
export async function renderStaffShells(
  clientDir: string,
  facts: ShellFacts,
): Promise<Record<string, string>> {
  const renderer = await serverRender(clientDir);
  return renderer ? renderer.renderStaffShells(facts) : {};
}

/**
 * Serves `/` pre-rendered when the build has the landing render (dist/ssr/prerender.js beside the
 * client). When it cannot be rendered (no pricing: the database is away) the plain index.html goes out
 * and the browser renders the page itself.
 */
export async function registerLandingPage(
  app: FastifyInstance,
  clientDir: string,
  pricing: () => Promise<TPricingInfo>,
): Promise<void> {
  const renderer = await serverRender(clientDir);
  if (!renderer) return;
  const { renderLanding } = renderer;
  const built = join(clientDir, '.vite', 'landing.html');
  const template = inlineStylesheets(
    readFileSync(existsSync(built) ? built : join(clientDir, 'index.html'), 'utf8'),
    clientDir,
  );
  const pages = createLandingPages(template, renderLanding);

  app.get('/', async (req, reply) => {
    let page: HtmlPage;
    try {
      page = await pages(await pricing());
    } catch (err) {
      req.log.warn({ err }, 'landing page not pre-rendered');
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return sendPage(req, reply, page);
  });
}

/**
 * A page made for this request alone (it holds that request's data, e.g. a tracking link's order): no
 * cache keeps it (the service worker neither: client/sw.ts), compressed as it goes out.
 */
export async function sendFreshPage(req: FastifyRequest, reply: FastifyReply, html: string) {
  reply.header('cache-control', 'private, no-store').header('vary', 'accept-encoding');
  const raw = Buffer.from(html);
  const encoding = pickEncoding(req.headers['accept-encoding']);
  // Quality 5 (not the built pages' 11): a few ms for the page's ~20 KB, within 10% of 11's size.
  const body =
    encoding === 'br'
      ? await brotli(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        })
      : encoding === 'gzip'
        ? await gzip(raw, { level: 6 })
        : raw;
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.type('text/html; charset=utf-8').send(body);
}

/** An HTML page that is always revalidated: 304 for the ETag the browser holds, else the best encoding. */
export function sendPage(req: FastifyRequest, reply: FastifyReply, page: HtmlPage) {
  reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').header('etag', page.etag);
  const known = (req.headers['if-none-match'] ?? '').split(',').map((t) => t.trim());
  if (known.includes(page.etag)) return reply.code(304).send();
  const encoding = pickEncoding(req.headers['accept-encoding']);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.type('text/html; charset=utf-8').send(page.body[encoding]);
}
