/**
 * A signed-in screen's page (/ops and its tabs, /driver, /fuel, /customer, /order) drawn with its data for
 * a cold load (issue 28). The request carries the screen cookie (shared/screen-cookie.ts): the server checks
 * its token as it checks an API call's, asks the screen's first calls (shared/first-data.ts) through the
 * same procedures, as that user, and the build's server render draws the screen with the answers in the
 * device's language (client/prerender.tsx renderScreen). The answers go beside it; the app draws over it with them
 * (client/main.tsx, client/api.tsx), so the data-led part of the screen paints with the HTML instead of
 * after the app code (2.5–3 s on Slow 4G with a 4× slower CPU).
 *
 * Anything else sends the page as built, which fills itself as before: no cookie or a malformed one, a
 * token that is expired, revoked or of a disabled account, a session that may only change its password,
 * a screen the role has no first calls for, a call that fails or answers later than SCREEN_RENDER_DEADLINE_MS, or a render that fails.
 */
import type { FastifyRequest } from 'fastify';
import { firstDataFor } from '../shared/first-data';
import { parseScreenCookie, SCREEN_COOKIE } from '../shared/screen-cookie';
import { type AppDeps, createRequestContext } from './context';
import { fillTemplate, type ServerRender } from './landing-html';
import { resolveProcedure } from './rest';
import type { RenderPage } from './route-html';
import { createCaller } from './router';

/**
 * How long the page waits for the screen's answers: past it, the page goes out as built (and fills itself)
 * rather than hold the HTML on a slow database.
 */
export const SCREEN_RENDER_DEADLINE_MS = 1_500;

const LATE = Symbol('late');

/** The root's attributes while it shows the server's screen: inert and busy until the app draws over it. */
const ROOT_ATTRIBUTES = ' data-shell="" inert="" aria-busy="true"';

/** The answers of the screen's first calls as the app receives them (JSON), or null for none. */
async function firstAnswers(deps: AppDeps, req: FastifyRequest, token: string, pathname: string) {
  const ctx = await createRequestContext(deps, {
    headers: { authorization: `Bearer ${token}`, 'user-agent': req.headers['user-agent'] },
    ip: req.ip,
  });
  const user = ctx.user;
  if (!user || user.mustChangePassword) return null;
  const entry = firstDataFor(user.role, pathname);
  if (!entry) return null;
  const caller = createCaller(ctx);
  const answers = await Promise.all(
    entry.calls.map(async (call) => {
      const data: unknown = await resolveProcedure(caller, call.path)(call.input);
      // As the wire has it (dates as strings): the app's first render reads the same.
      return data === undefined ? [] : [{ call, data: JSON.parse(JSON.stringify(data)) as unknown }];
    }),
  );
  return {
    viewer: { role: user.role, name: user.name, email: user.email, driverId: user.driverId },
    answers: answers.flat(),
  };
}

export function screenPage(renderer: Pick<ServerRender, 'renderScreen'>, deps: AppDeps): RenderPage {
  return async (req, html) => {
    const cookie = parseScreenCookie(req.cookies[SCREEN_COOKIE]);
    if (!cookie) return null;
    const pathname = req.url.split('?')[0]!;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<typeof LATE>((resolve) => {
      timer = setTimeout(() => resolve(LATE), SCREEN_RENDER_DEADLINE_MS);
    });
    const first = await Promise.race([
      firstAnswers(deps, req, cookie.token, pathname).catch((err: unknown) => {
        // A refused session answers null (the app signs out); a call that throws is worth a line.
        req.log.warn({ err, path: pathname }, 'screen not drawn with its data: a first call failed');
        return null;
      }),
      late,
    ]).finally(() => clearTimeout(timer));
    if (first === LATE) {
      req.log.warn(
        { path: pathname, deadlineMs: SCREEN_RENDER_DEADLINE_MS },
        'screen not drawn with its data: its first calls answered too late',
      );
      return null;
    }
    if (!first) return null;
    const device = { language: cookie.language, width: cookie.width };
    const rendered = await renderer.renderScreen(pathname, first.viewer, device, first.answers);
    const page = fillTemplate(html, rendered, ROOT_ATTRIBUTES);
    return cookie.language === 'en'
      ? page
      : page.replace('<html lang="en">', `<html lang="${cookie.language}">`);
  };
}
