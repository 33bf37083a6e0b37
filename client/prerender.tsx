/**
 * The landing page rendered to HTML for the server (built by `vite build` into dist/ssr). The server
 * renders it again whenever the pricing it serves changes; the browser hydrates it with the same data.
 */
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import type { TPricingInfo } from '../shared/schemas/pricing';
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

/** The staff screens' tops for the server's pages (client/staff-shell.tsx). */
export { renderStaffShells } from './staff-shell';
