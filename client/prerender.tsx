/**
 * The landing page rendered to HTML for the server (built by `vite build` into dist/ssr). The server
 * renders it again whenever the pricing it serves changes; the browser hydrates it with the same data.
 */
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { TPricingInfo } from '../shared/schemas/pricing';
import type { TTracking } from '../shared/schemas/tracking';
import { App } from './app';
import { preloadLandingIslands } from './features/landing/LandingPage';
import { setLandingPricing } from './features/landing/landing-pricing';
import { prerenderedScript } from './prerendered';
import { preloadRoute } from './routes';

function LandingRouter({ children }: { children: ReactNode }) {
  return <StaticRouter location="/">{children}</StaticRouter>;
}

export interface RenderedLanding {
  /** The HTML inside `<div id="root">`. */
  root: string;
  /** The data it was rendered from, as a JSON script element to place after the root. */
  data: string;
}

export async function renderLanding(pricing: TPricingInfo): Promise<RenderedLanding> {
  await Promise.all([preloadRoute('/'), preloadLandingIslands()]);
  // Set and rendered in one synchronous step, so concurrent renders cannot mix their pricing.
  setLandingPricing(pricing);
  const root = renderToString(<App Router={LandingRouter} />);
  return { root, data: prerenderedScript({ pricing }) };
}

/**
 * A tracking link's page (/track/{token}) rendered with the server's answer for it, in English: the
 * customer opens it cold from an SMS or WhatsApp on a phone, and sees the order, its delivery code and its
 * loads with the HTML instead of after the app code (issue 28: 3.8 s on Slow 4G with a 4× slower CPU).
 * The browser hydrates it with the same answer (client/api.tsx); a device set to Kiswahili renders over it.
 */
export async function renderTracking(
  pathname: string,
  token: string,
  answer: TTracking,
): Promise<RenderedLanding> {
  await preloadRoute(pathname);
  const { renderWithTracking } = await import('./api');
  function TrackingRouter({ children }: { children: ReactNode }) {
    return <StaticRouter location={pathname}>{children}</StaticRouter>;
  }
  const root = renderWithTracking(token, answer, () => renderToString(<App Router={TrackingRouter} />));
  return { root, data: prerenderedScript({ tracking: { token, answer } }) };
}

/** The staff screens' tops for the server's pages (client/staff-shell.tsx). */
export { renderStaffShells } from './staff-shell';
