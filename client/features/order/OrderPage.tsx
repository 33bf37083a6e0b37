import { useMutation } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { needsPayment } from '../../../shared/domain/payments';
import type { SandType } from '../../../shared/enums';
import { PAYMENT_BANKS } from '../../../shared/payments';
import {
  type TListedOrder,
  type TOrderCreated,
  type TOrderInput,
  type TPaymentOutcome,
  ZOrderInput,
} from '../../../shared/schemas/orders';
import { useFormat } from '../../i18n/format';
import { errorMessage, trpc } from '../../trpc';
import { Alert, bringIntoView, FormStatus, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { Page } from '../../ui/Page';
import { PaymentOptions } from '../../ui/PaymentOptions';
import { useZodForm } from '../../ui/useZodForm';
import { MpesaPay, useMpesaOptions } from '../payment/MpesaPay';
import { PaymentConfirmationForm } from '../payment/PaymentConfirmationForm';
import { LoadFields } from '../quote/LoadFields';
import { QuoteLine } from '../quote/QuoteLine';
import { useQuote } from '../quote/useQuote';

/** A listed order in the shape step 2 shows. */
const fromListed = (o: TListedOrder): TOrderCreated => ({
  id: o.id,
  status: o.status,
  perTruck: o.per_truck,
  total: o.total,
  distanceKm: o.distance_km,
  distanceSource: o.distance_source,
  truckCount: o.trucks,
  sandType: o.sand_type,
  accountRef: o.accountRef,
});

function isUnauthorized(error: unknown) {
  return error instanceof TRPCClientError && error.data?.httpStatus === 401;
}

/** /order: step 1 capture the order, step 2 payment details, step 3 share the payment confirmation. */
export function OrderPage() {
  const navigate = useNavigate();
  const { t, money, km, orderStatus, distanceSource } = useFormat();
  const utils = trpc.useUtils();
  const pricing = trpc.pricing.get.useQuery(undefined, { staleTime: 5 * 60_000 });
  const form = useZodForm({
    schema: ZOrderInput,
    initial: {
      site: '',
      sandType: 'coarse' as SandType,
      trucks: 1,
      distance: '',
      dateNeeded: '',
      overnightPour: false,
      kraPin: '',
    },
    toInput: ({ distance, overnightPour, ...f }) => ({
      ...f,
      ...(overnightPour ? { overnightPour: true } : {}),
      distanceKm: distance.trim() === '' ? undefined : distance,
    }),
    fields: { distanceKm: 'distance' },
  });
  const [placed, setPlaced] = useState<TOrderCreated | null>(null);
  const [sent, setSent] = useState<TPaymentOutcome | null>(null);
  // After a reload the customer's latest order still waiting for a payment takes step 2 and 3.
  const mine = trpc.orders.my.useQuery();
  const waiting = mine.data?.find(needsPayment);
  const order = placed ?? (waiting ? fromListed(waiting) : null);
  const paybill = useMpesaOptions().data?.paybill;
  // What is still owed: the listing knows part-payments; a just-placed order owes its total.
  const balance = (order && mine.data?.find((o) => o.id === order.id)?.balance) ?? order?.total ?? 0;
  // The customer's tracking link, from the listing (it follows a just-placed order once it refreshes).
  const trackingUrl = order ? mine.data?.find((o) => o.id === order.id)?.trackingUrl : undefined;
  const { quote, failed } = useQuote(form.values);

  // One Idempotency-Key per order the form is filled in for: a second tap, or a resend after a lost
  // answer, gets the first order back instead of making another (server/idempotency.ts).
  const attempt = useRef<{ input: string; key: string } | null>(null);
  const submitting = useRef(false);
  const keyFor = (input: TOrderInput) => {
    const json = JSON.stringify(input);
    if (attempt.current?.input !== json) attempt.current = { input: json, key: crypto.randomUUID() };
    return attempt.current.key;
  };
  const place = useMutation({
    mutationFn: (input: TOrderInput) =>
      utils.client.orders.create.mutate(input, { context: { idempotencyKey: keyFor(input) } }),
    onSuccess: (created) => {
      setPlaced(created);
      setSent(null);
      // The order is placed: the filled form goes, so another tap cannot place it twice.
      attempt.current = null;
      form.reset();
      void utils.orders.my.invalidate();
    },
    onError: (error) => {
      if (isUnauthorized(error)) {
        form.report('error', t('order.signInFirst'));
        navigate('/login');
        return;
      }
      form.report('error', errorMessage(error, t('order.failed')));
    },
  });

  // The placed order (step 2) comes into view, focused, instead of the emptied form.
  const step2 = useRef<HTMLHeadingElement>(null);
  const placedId = placed?.id;
  useEffect(() => {
    if (placedId !== undefined) bringIntoView(step2.current, 'start');
  }, [placedId]);

  return (
    <Page title={t('order.title')} subtitle={t('order.subtitle')}>
      <ol className="steps">
        <li className="card step">
          <form
            onSubmit={form.submit((input) => {
              // Taps faster than the button can turn disabled place nothing more.
              if (submitting.current) return;
              submitting.current = true;
              place.mutate(input, {
                onSettled: () => {
                  submitting.current = false;
                },
              });
            })}
            noValidate
            aria-labelledby="step1"
          >
            <h2 id="step1">{t('order.step1')}</h2>
            <FormStatus message={form.message} />
            <TextField
              label={t('order.site')}
              placeholder={t('order.sitePlaceholder')}
              {...form.field('site')}
            />
            <div className="grid">
              <LoadFields value={form.values} onChange={form.patch} />
              <TextField label={t('order.dateNeeded')} type="date" {...form.field('dateNeeded')} />
            </div>
            <label className="checkbox">
              <input
                type="checkbox"
                name="overnightPour"
                checked={form.values.overnightPour}
                onChange={(e) => form.set('overnightPour', e.target.checked)}
              />
              {t('quote.overnightPour')}
            </label>
            <TextField
              label={t('order.kraPin')}
              autoCapitalize="characters"
              placeholder="P051234567X"
              {...form.field('kraPin')}
            />
            {failed ? <Alert tone="warning">{t('order.pricingFailed')}</Alert> : null}
            {quote && !failed ? <QuoteLine quote={quote} /> : null}
            <button className="button" type="submit" disabled={place.isPending}>
              {place.isPending ? t('order.placing') : t('order.place')}
            </button>
          </form>
        </li>

        <li className="card step" aria-labelledby="step2">
          <h2 id="step2" ref={step2} tabIndex={-1} className="focus-target">
            {t('order.step2')}
          </h2>
          {order && !placed ? <p>{t('order.waiting', { id: order.id })}</p> : null}
          {order ? (
            <dl className="summary">
              <dt>{t('order.order')}</dt>
              <dd>#{order.id}</dd>
              <dt>{t('order.accountNumber')}</dt>
              <dd>
                <strong className="mono">{order.accountRef}</strong>
                {paybill ? <span className="muted"> · {t('order.paybill', { paybill })}</span> : null}
              </dd>
              <dt>{t('order.status')}</dt>
              <dd>{orderStatus(order.status)}</dd>
              {trackingUrl ? (
                <>
                  <dt>{t('order.tracking')}</dt>
                  <dd>
                    <Link to={trackingUrl}>{t('order.track')}</Link>
                  </dd>
                </>
              ) : null}
              <dt>{t('order.trucks')}</dt>
              <dd>
                {order.truckCount} × {money(order.perTruck)}
              </dd>
              <dt>{t('order.total')}</dt>
              <dd>
                <Money value={order.total} strong />
              </dd>
              <dt>{t('order.distance')}</dt>
              <dd>
                {km(order.distanceKm)} ({distanceSource(order.distanceSource)})
              </dd>
            </dl>
          ) : (
            <p className="muted">{t('order.placeFirst')}</p>
          )}
          {order && order.status === 'AWAITING_PAYMENT' ? (
            <MpesaPay orderId={order.id} accountRef={order.accountRef} balance={balance} />
          ) : null}
          <PaymentOptions
            options={pricing.data?.paymentOptions ?? PAYMENT_BANKS.map((b) => ({ ...b, account: '' }))}
            {...(order ? { orderId: order.id } : {})}
            mpesa={order && paybill ? { paybill, account: order.accountRef } : null}
          />
        </li>

        <li className={order ? 'card step' : 'card step step--disabled'}>
          <h2 id="step3">{t('order.step3')}</h2>
          <PaymentConfirmationForm
            // A new order starts a new form.
            key={order?.id ?? 'none'}
            orderId={order?.id ?? null}
            labelledBy="step3"
            sent={sent}
            onSent={(outcome) => {
              setSent(outcome);
              // The order stays in steps 2 and 3 with its new status (it no longer waits for a payment).
              if (order) setPlaced({ ...order, status: outcome.status });
            }}
          />
        </li>
      </ol>
    </Page>
  );
}
