import { formatKes } from '../../../shared/domain/format';
import { DEFAULT_PRICING } from '../../../shared/domain/pricing';
import { PAYMENT_BANKS } from '../../../shared/payments';
import { trpc } from '../../trpc';
import { ChatWidget } from '../chat/ChatWidget';
import { GuestOrderForm } from './GuestOrderForm';
import { ProjectInsights } from './ProjectInsights';

export function LandingPage() {
  const pricing = trpc.pricing.get.useQuery(undefined, { staleTime: 5 * 60_000 });
  const p = pricing.data ?? DEFAULT_PRICING;
  const paymentOptions = pricing.data?.paymentOptions ?? PAYMENT_BANKS.map((b) => ({ ...b, account: '' }));
  const dispatch = pricing.data?.dispatch;

  return (
    <main className="page">
      <section className="hero" aria-labelledby="hero-heading">
        <h1 id="hero-heading">Sand delivered by the truck load</h1>
        <p>Coarse and smooth sand in 20-tonne loads, delivered around Thika, Juja, Ruiru and beyond.</p>
        <div className="price-cards">
          <div className="price-card">
            <span>Base price per truck</span>
            <strong>{formatKes(p.basePrice)}</strong>
            <span>up to {p.baseDistanceKm} km</span>
          </div>
          <div className="price-card">
            <span>Beyond {p.baseDistanceKm} km</span>
            <strong>+{formatKes(p.incrementAmount)}</strong>
            <span>per {p.incrementKm} km</span>
          </div>
        </div>
      </section>
      <div className="two-col">
        <GuestOrderForm paymentOptions={paymentOptions} />
        <aside>
          <section className="card" aria-labelledby="dispatch-heading">
            <h2 id="dispatch-heading">Dispatch</h2>
            <p>Dispatch hours: 06:30-19:00 daily, with overnight pours on request.</p>
            {dispatch ? (
              <ul className="contact-list">
                <li>
                  Phone: <a href={`tel:${dispatch.phone.replace(/\s+/g, '')}`}>{dispatch.phone}</a>
                </li>
                <li>
                  Email: <a href={`mailto:${dispatch.email}`}>{dispatch.email}</a>
                </li>
                <li>
                  <a href={dispatch.whatsapp} target="_blank" rel="noreferrer">
                    Chat on WhatsApp
                  </a>
                </li>
              </ul>
            ) : null}
          </section>
        </aside>
      </div>
      <ProjectInsights />
      <ChatWidget
        phone={dispatch?.phone ?? 'dispatch'}
        context={`Pricing guide: KES ${p.basePrice} per truck up to ${p.baseDistanceKm} km, KES ${p.incrementAmount} per ${p.incrementKm} km beyond.`}
      />
    </main>
  );
}
