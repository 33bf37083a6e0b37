/**
 * A tracking link's page (/track/{token}) with the order in it. Customers open the link cold, from an SMS
 * or WhatsApp, on a phone: the server asks the same use case the page would (core/tracking) and the build's
 * server render draws the page with the answer (client/prerender.tsx renderTracking), so the order, its
 * delivery code and its loads come with the HTML; the browser hydrates it with that answer (issue 28: the
 * page painted its order at 3.8 s on Slow 4G with a 4× slower CPU). The answer counts against the link's
 * per-address limit as the page's own request would. No answer (an unknown link, too many requests, the
 * database away) sends the page as built, which asks for itself and says why.
 */
import type { FastifyRequest } from 'fastify';
import type { TTracking } from '../shared/schemas/tracking';
import { fillTemplate, type ServerRender } from './landing-html';
import type { RenderPage } from './route-html';

/** The route of client/routes.tsx that shows a tracking link. */
export const TRACK_ROUTE = '/track/:token';

export function trackingPage(
  renderer: Pick<ServerRender, 'renderTracking'>,
  answer: (req: FastifyRequest, token: string) => Promise<TTracking>,
): RenderPage {
  return async (req, html) => {
    const { token } = req.params as { token?: string };
    if (!token) return null;
    const tracking = await answer(req, token).catch(() => null);
    if (!tracking) return null;
    return fillTemplate(html, await renderer.renderTracking(`/track/${token}`, token, tracking));
  };
}
