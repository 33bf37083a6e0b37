import { Suspense } from 'react';
import { formatMoney } from '../../../shared/domain/format';
import { phoneLinks } from '../../../shared/domain/phone';
import { DEFAULT_PRICING } from '../../../shared/domain/pricing';
import { PAYMENT_BANKS } from '../../../shared/payments';
import { useLandingT } from '../../i18n/landing';
import { inSteps, loadOnce, preloadable } from '../../lazy';
import { useLandingPricing } from './landing-pricing';

// The parts that call the API hydrate later, from one chunk with the API layer (islands.tsx). Its
// dependencies are evaluated a step at a time (issue 28): in one go, zod and the schemas, the API layer
// (tRPC, React Query, the outbox) and the form were one task of ~100 ms on this machine, ~0.5 s on a phone
// 4× slower, the longest of the landing page.
const islands = loadOnce(() =>
  inSteps(
    [() => import('../../api'), () => import('../../../shared/schemas/orders')],
    () => import('./islands'),
  ),
);
const OrderForm = preloadable(() => islands().then((m) => m.OrderFormIsland));
const Chat = preloadable(() => islands().then((m) => m.ChatIsland));
const Insights = preloadable(() => islands().then((m) => m.InsightsIsland));

/** Loads the parts that call the API (the server render needs them before it renders). */
export async function preloadLandingIslands() {
  await Promise.all([OrderForm.preload(), Chat.preload(), Insights.preload()]);
}

/**
 * The landing page. The server renders it with the live pricing (client/prerender.tsx), so prices,
 * the form and the dispatch card show before any script; this part hydrates first, without the API
 * layer, and the form, chat and briefings hydrate when their chunk arrives.
 */
export function LandingPage() {
  const { t } = useLandingT();
  const pricing = useLandingPricing();
  const p = pricing ?? DEFAULT_PRICING;
  const paymentOptions = pricing?.paymentOptions ?? PAYMENT_BANKS.map((b) => ({ ...b, account: '' }));
  const dispatch = pricing?.dispatch;

  return (
    <main className="page">
      <section className="hero" aria-labelledby="hero-heading">
        <h1 id="hero-heading">{t('landing.heroTitle')}</h1>
        <p>{t('landing.heroText')}</p>
        <div className="price-cards">
          <div className="price-card">
            <span>{t('landing.basePrice')}</span>
            <strong>{formatMoney(p.basePrice)}</strong>
            <span>{t('landing.upTo', { km: p.baseDistanceKm })}</span>
          </div>
          <div className="price-card">
            <span>{t('landing.beyond', { km: p.baseDistanceKm })}</span>
            <strong>+{formatMoney(p.incrementAmount)}</strong>
            <span>{t('landing.per', { km: p.incrementKm })}</span>
          </div>
        </div>
      </section>
      {/* In the page on a phone (a floating button would cover the form), floating on a wide screen. */}
      <Suspense fallback={null}>
        <Chat.Component
          phone={dispatch?.phone ?? 'dispatch'}
          context={`Pricing guide: ${formatMoney(p.basePrice)} per truck up to ${p.baseDistanceKm} km, ${formatMoney(p.incrementAmount)} per ${p.incrementKm} km beyond.`}
        />
      </Suspense>
      <div className="two-col">
        <Suspense fallback={null}>
          <OrderForm.Component paymentOptions={paymentOptions} />
        </Suspense>
        <aside>
          <section className="card" aria-labelledby="dispatch-heading">
            <h2 id="dispatch-heading">{t('landing.dispatch')}</h2>
            <p>{t('landing.dispatchHours')}</p>
            {dispatch ? (
              <ul className="contact-list">
                <li>
                  {t('landing.phone')}{' '}
                  <a href={phoneLinks(dispatch.phone)?.tel ?? `tel:${dispatch.phone.replace(/[^\d+]/g, '')}`}>
                    {dispatch.phone}
                  </a>
                </li>
                <li>
                  {t('landing.email')} <a href={`mailto:${dispatch.email}`}>{dispatch.email}</a>
                </li>
                {dispatch.whatsapp ? (
                  <li>
                    <a href={dispatch.whatsapp} target="_blank" rel="noreferrer">
                      {t('landing.whatsapp')}
                    </a>
                  </li>
                ) : null}
              </ul>
            ) : null}
          </section>
        </aside>
      </div>
      <Suspense fallback={null}>
        <Insights.Component />
      </Suspense>
    </main>
  );
}
