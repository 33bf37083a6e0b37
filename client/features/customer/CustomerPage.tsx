import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { needsPayment } from '../../../shared/domain/payments';
import { isClosedOrder } from '../../../shared/enums';
import { PAYMENT_BANKS } from '../../../shared/payments';
import type { TListedOrder, TPaymentOutcome } from '../../../shared/schemas/orders';
import { useTranslation } from '../../i18n';
import { useFormat } from '../../i18n/format';
import { trpc } from '../../trpc';
import { Badge, loadTone, orderTone, paymentTone } from '../../ui/Badge';
import { Alert } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { Page } from '../../ui/Page';
import { PaymentOptions, type PaymentOptionView } from '../../ui/PaymentOptions';
import { MpesaPay, useMpesaOptions } from '../payment/MpesaPay';
import { PaymentConfirmationForm } from '../payment/PaymentConfirmationForm';
import { PaymentList } from '../payment/PaymentList';
import { ReceiptLinks } from '../receipt/ReceiptLink';
import { AccountSummary } from './AccountSummary';
import { SiteRefine } from './SiteRefine';

/**
 * The payment loop of one order: how to pay, then the reference (the rules of order step 3). Once the
 * order is paid through the M-Pesa prompt while it is on the screen (`settled`), the box stays with the outcome and keeps the height it had, so nothing below it jumps (and the phone's scroll
 * anchoring keeps the view still while the payment appears above).
 */
function PayForOrder({
  order,
  options,
  open,
  settled,
  onPaid,
  onSent,
}: {
  order: TListedOrder;
  options: PaymentOptionView[];
  open: boolean;
  settled: boolean;
  /** The M-Pesa prompt was paid: the box should stay where it is. */
  onPaid: () => void;
  onSent: (outcome: TPaymentOutcome) => void;
}) {
  const { t } = useTranslation();
  const headingId = `pay-${order.id}`;
  const mpesa = useMpesaOptions();
  const paybill = mpesa.data?.paybill;
  const box = useRef<HTMLElement>(null);
  const height = useRef(0);
  // The box's height as the browser last laid it out, until it settles. Observed, not read in a layout
  // effect: reading it there made every commit of My Orders lay the page out inside the app's script
  // (on the first render over the server's screen, a forced style recalculation of the whole screen).
  useEffect(() => {
    const el = box.current;
    if (settled || !el || typeof ResizeObserver === 'undefined') return;
    // The observer reports after the browser's own layout, so reading the height there costs nothing.
    const observer = new ResizeObserver(() => {
      height.current = el.offsetHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [settled]);
  return (
    <section
      ref={box}
      className="pay-box"
      aria-labelledby={headingId}
      style={settled && height.current > 0 ? { minHeight: height.current } : undefined}
    >
      <h3 id={headingId}>{t('customer.payFor', { id: order.id })}</h3>
      {order.payment_status === 'REJECTED' && !settled ? (
        <Alert tone="warning">{t('customer.rejected')}</Alert>
      ) : null}
      <MpesaPay
        orderId={order.id}
        accountRef={order.accountRef}
        balance={order.balance}
        onOrder={(paid) => {
          if (paid.status !== 'AWAITING_PAYMENT') onPaid();
        }}
      />
      {settled ? null : (
        <>
          <details className="how-to-pay" open={open}>
            <summary>{paybill ? t('customer.payPaybill') : t('customer.howToPay')}</summary>
            <PaymentOptions
              options={options}
              orderId={order.id}
              mpesa={paybill ? { paybill, account: order.accountRef } : null}
            />
          </details>
          <PaymentConfirmationForm orderId={order.id} labelledBy={headingId} onSent={onSent} />
        </>
      )}
    </section>
  );
}

/** /customer: My Orders, with every field of the spec's listed order and the payment loop of unpaid ones. */
export function CustomerPage() {
  const { t, dateTime, km, tonnes, orderStatus, paymentStatus, loadStatus, distanceSource, sandType } =
    useFormat();
  const orders = trpc.orders.my.useQuery();
  const pricing = trpc.pricing.get.useQuery(undefined, { staleTime: 5 * 60_000 });
  const options = pricing.data?.paymentOptions ?? PAYMENT_BANKS.map((b) => ({ ...b, account: '' }));
  const [sent, setSent] = useState<Record<number, TPaymentOutcome>>({});
  const paybill = useMpesaOptions().data?.paybill;
  const firstUnpaid = orders.data?.find(needsPayment)?.id;
  // Orders paid through the M-Pesa prompt on this screen: their box stays (settled) in its place.
  const [promptPaid, setPromptPaid] = useState<ReadonlySet<number>>(new Set());

  return (
    <Page title={t('customer.title')}>
      <AccountSummary paybill={paybill} />
      {orders.isLoading ? <p className="muted">{t('customer.loading')}</p> : null}
      {orders.error ? <Alert>{t('customer.failed')}</Alert> : null}
      {orders.data && orders.data.length === 0 ? (
        <div className="card">
          <p>{t('customer.none')}</p>
          <Link to="/order" className="button">
            {t('customer.first')}
          </Link>
        </div>
      ) : null}
      <div className="order-list">
        {orders.data?.map((o) => (
          <article key={o.id} className="card order-card" aria-labelledby={`order-${o.id}`}>
            <h2 id={`order-${o.id}`}>
              {t('customer.order', { id: o.id })}{' '}
              <Badge tone={orderTone(o.status)}>{orderStatus(o.status)}</Badge>
            </h2>
            {sent[o.id] ? (
              <Alert tone="success">
                {t('customer.received', { status: orderStatus(sent[o.id]!.status) })}
              </Alert>
            ) : null}
            <dl>
              <dt>{t('customer.placed')}</dt>
              <dd>{dateTime(o.created_at)}</dd>
              <dt>{t('customer.accountNumber')}</dt>
              <dd>
                <span className="mono">{o.accountRef}</span>
                {paybill ? <span className="muted"> · {t('customer.paybill', { paybill })}</span> : null}
              </dd>
              <dt>{t('customer.site')}</dt>
              <dd>{o.site}</dd>
              {o.deliveryCode && !isClosedOrder(o.status) ? (
                <>
                  <dt>{t('customer.deliveryCode')}</dt>
                  <dd>
                    <strong className="mono">{o.deliveryCode}</strong>
                    <span className="muted"> · {t('customer.giveCode')}</span>
                  </dd>
                </>
              ) : null}
              {o.trackingUrl ? (
                <>
                  <dt>{t('customer.tracking')}</dt>
                  <dd>
                    <Link to={o.trackingUrl}>{t('customer.track')}</Link>
                  </dd>
                </>
              ) : null}
              <dt>{t('customer.payment')}</dt>
              <dd>
                <Badge tone={paymentTone(o.payment_status)}>{paymentStatus(o.payment_status)}</Badge>
              </dd>
              {o.receiptUrl || o.creditNotes.length > 0 ? (
                <>
                  <dt>{t('customer.receipt')}</dt>
                  <dd>
                    <ReceiptLinks
                      receiptUrl={o.receiptUrl}
                      etimsStatus={o.etimsStatus}
                      creditNotes={o.creditNotes}
                    />
                  </dd>
                </>
              ) : null}
              <dt>{t('customer.sand')}</dt>
              <dd>{sandType(o.sand_type)}</dd>
              <dt>{t('customer.trucks')}</dt>
              <dd>{o.trucks}</dd>
              <dt>{t('customer.perTruck')}</dt>
              <dd>
                <Money value={o.per_truck} />
              </dd>
              <dt>{t('customer.total')}</dt>
              <dd>
                <Money value={o.total} strong />
              </dd>
              <dt>{t('customer.distance')}</dt>
              <dd>
                {km(o.distance_km)} ({distanceSource(o.distance_source)})
              </dd>
            </dl>
            <SiteRefine order={o} />
            <PaymentList order={o} />
            <h3>{t('customer.assignments')}</h3>
            {o.assignments.length === 0 ? (
              <p className="muted">{t('customer.noTrucks')}</p>
            ) : (
              <ul className="loads">
                {o.assignments.map((a) => (
                  <li key={a.id} className="load">
                    {a.plate ?? a.truck_id} · {tonnes(a.tonnes)} ·{' '}
                    <Badge tone={loadTone(a.status)}>{loadStatus(a.status)}</Badge>
                    {a.scheduledAt ? ` · ${dateTime(a.scheduledAt)}` : ''}
                    {a.driver ? ` · ${t('customer.driver', { name: a.driver })}` : ''}
                  </li>
                ))}
              </ul>
            )}
            {needsPayment(o) || promptPaid.has(o.id) ? (
              <PayForOrder
                order={o}
                options={options}
                open={o.id === firstUnpaid}
                settled={promptPaid.has(o.id) || !needsPayment(o)}
                onPaid={() => setPromptPaid((ids) => new Set([...ids, o.id]))}
                onSent={(outcome) => setSent((s) => ({ ...s, [o.id]: outcome }))}
              />
            ) : null}
          </article>
        ))}
      </div>
    </Page>
  );
}
