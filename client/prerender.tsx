/**
 * The landing page rendered to HTML for the server (built by `vite build` into dist/ssr). The server
 * renders it again whenever the pricing it serves changes; the browser hydrates it with the same data.
 */
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { StaticRouter } from 'react-router';
import type { Language } from '../shared/enums';
import type { FirstCall } from '../shared/first-data';
import type { TPricingInfo } from '../shared/schemas/pricing';
import type { TTracking } from '../shared/schemas/tracking';
import type { ScreenDevice, ScreenViewer } from '../shared/screen-cookie';
import { App } from './app';
import { preloadLandingIslands } from './features/landing/LandingPage';
import { setLandingPricing } from './features/landing/landing-pricing';
import { renderInLanguage } from './i18n/landing';
import { prerenderedScript } from './prerendered';
import { preloadRoute } from './routes';
import { renderAtWidth } from './ui/useMediaQuery';

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

/** The screens' i18next for a server render in `language`: the app's own (English), or a Kiswahili copy. */
let kiswahili: Promise<typeof import('./i18n').i18n> | undefined;
async function screenI18n(language: Language) {
  const { i18n } = await import('./i18n');
  if (language === 'en') return i18n;
  kiswahili ??= (async () => {
    const [{ sw }, { staffSw }, { staffEn }] = await Promise.all([
      import('./i18n/sw'),
      import('./i18n/staff-sw'),
      import('./i18n/staff-en'),
    ]);
    const copy = i18n.cloneInstance({ lng: 'sw', initAsync: false });
    copy.addResourceBundle('sw', 'translation', sw);
    copy.addResourceBundle('sw', 'staff', staffSw);
    if (!copy.hasResourceBundle('en', 'staff')) copy.addResourceBundle('en', 'staff', staffEn);
    await copy.changeLanguage('sw');
    return copy;
  })();
  kiswahili.catch(() => {
    kiswahili = undefined;
  });
  return kiswahili;
}

/**
 * A signed-in screen (/ops and its tabs, /driver, /fuel, /customer, /order) rendered with its first
 * answers, as the browser's first render draws it for this user in the device's language, for a cold
 * load: the data-led part (the orders list, My Orders, the trips report) comes with the HTML instead of
 * after ~180 KB of JavaScript has arrived and run (issue 28). The browser draws over it with the same
 * answers.
 */
export async function renderScreen(
  pathname: string,
  viewer: ScreenViewer,
  { language, width }: ScreenDevice,
  answers: { call: FirstCall; data: unknown }[],
): Promise<RenderedLanding> {
  const { renderAs } = await import('./session');
  const session = {
    ...viewer,
    token: '',
    userName: viewer.name,
    userEmail: viewer.email,
    mustChangePassword: false,
  };
  await renderAs(session, () => preloadRoute(pathname));
  if (pathname.startsWith('/ops')) {
    const { preloadWorkspaceTab } = await import('./features/ops/OpsPage');
    await preloadWorkspaceTab(viewer.role, pathname, '');
  }
  const [{ renderWithAnswers }, i18n] = await Promise.all([import('./api'), screenI18n(language)]);
  function ScreenRouter({ children }: { children: ReactNode }) {
    return <StaticRouter location={pathname}>{children}</StaticRouter>;
  }
  // One synchronous step: the landing strings' language, the answers, the session and the viewport's
  // width (lists as a table or as cards) are this render's.
  const root = await renderInLanguage(language, () =>
    renderWithAnswers(answers, () =>
      renderAs(session, () =>
        renderAtWidth(width, () =>
          renderToString(
            <I18nextProvider i18n={i18n}>
              <App Router={ScreenRouter} />
            </I18nextProvider>,
          ),
        ),
      ),
    ),
  );
  return { root, data: prerenderedScript({ screen: { email: viewer.email, answers } }) };
}

/** The staff screens' tops for the server's pages (client/staff-shell.tsx). */
export { renderStaffShells } from './staff-shell';
