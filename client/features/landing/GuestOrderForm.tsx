import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { TRUCK_LOAD_TONNES } from '../../../shared/constants';
import { formatKm, formatMoney } from '../../../shared/domain/format';
import type { OrderStatus, SandType } from '../../../shared/enums';
import { type TGuestOrderResult, ZGuestOrderInput } from '../../../shared/schemas/orders';
import { statusLabel } from '../../i18n/labels';
import { useLandingT } from '../../i18n/landing';
import { saveSession } from '../../session';
import { errorMessage, trpc } from '../../trpc';
import { Alert, bringIntoView, FormStatus, TextField } from '../../ui/forms';
import { PaymentOptions, type PaymentOptionView } from '../../ui/PaymentOptions';
import { useTypedBeforeHydration } from '../../ui/useTypedBeforeHydration';
import { useZodForm } from '../../ui/useZodForm';
import { LoadFields } from '../quote/LoadFields';
import { QuoteLine } from '../quote/QuoteLine';
import { useQuote } from '../quote/useQuote';

/** The M-Pesa prompt loads only once an order is placed (the landing page's first load stays small). */
const MpesaPay = lazy(() => import('../payment/MpesaPay').then((m) => ({ default: m.MpesaPay })));

/** In the order the form tells their errors: the site, then the portal login (spec section 5), then the rest. */
const EMPTY = {
  site: '',
  sandType: 'coarse' as SandType,
  trucks: 1,
  distance: '',
  email: '',
  confirm: '',
  password: '',
  name: '',
  phone: '',
  dateNeeded: '',
  overnightPour: false,
  wantsLogin: false,
};
type GuestFields = typeof EMPTY;

/** The call's input; a new portal login starts in the language the page is shown in. */
const toInput = (
  { distance, wantsLogin, password, confirm, overnightPour, ...f }: GuestFields,
  language: 'en' | 'sw',
) => ({
  ...f,
  ...(overnightPour ? { overnightPour: true } : {}),
  distanceKm: distance.trim() === '' ? undefined : distance,
  account: wantsLogin ? { password, confirmPassword: confirm, language } : undefined,
});
const FIELDS = {
  distanceKm: 'distance',
  'account.password': 'password',
  'account.confirmPassword': 'confirm',
} as const;

/** The landing page's quote and guest order form; after a successful order it shows the summary. */
export function GuestOrderForm({ paymentOptions }: { paymentOptions: PaymentOptionView[] }) {
  const { t, language } = useLandingT();
  const form = useZodForm({
    schema: ZGuestOrderInput,
    initial: EMPTY,
    toInput: (fields: GuestFields) => toInput(fields, language),
    fields: FIELDS,
  });
  const [placed, setPlaced] = useState<TGuestOrderResult | null>(null);
  // Where the order stands once a payment is known (the M-Pesa prompt paid): the summary follows it.
  const [status, setStatus] = useState<OrderStatus | null>(null);
  const mpesa = trpc.mpesa.options.useQuery(undefined, { enabled: placed !== null, staleTime: 5 * 60_000 });
  const formRef = useRef<HTMLFormElement>(null);
  // The landing page is pre-rendered: a person may have typed before this form hydrated.
  useTypedBeforeHydration(formRef, form.values, form.patch);
  const { quote, failed } = useQuote(form.values);
  // The summary replaces the long form: its top (number, total, the M-Pesa prompt) comes into view.
  const summaryHeading = useRef<HTMLHeadingElement>(null);
  const placedId = placed?.id;
  useEffect(() => {
    if (placedId !== undefined) bringIntoView(summaryHeading.current, 'start');
  }, [placedId]);
  const sending = useRef(false);
  const submit = trpc.orders.createGuest.useMutation({
    onSuccess: (result) => {
      if (result.account) saveSession(result.account.token, result.account.user);
      setPlaced(result);
    },
    onError: (error) => form.report('error', errorMessage(error, t('quote.submitFailed'))),
  });

  function reset() {
    form.reset();
    setPlaced(null);
    setStatus(null);
    submit.reset();
  }

  if (placed) {
    return (
      <section className="card" aria-labelledby="summary-heading">
        <h2 id="summary-heading" ref={summaryHeading} tabIndex={-1} className="focus-target">
          {t('quote.received', { id: placed.id })}
        </h2>
        <Alert tone="success">
          {t('quote.thanks', { status: statusLabel(t, 'order', status ?? placed.status) })}
        </Alert>
        <dl className="summary">
          <dt>{t('quote.sand')}</dt>
          <dd>{statusLabel(t, 'sand', placed.sandType)}</dd>
          <dt>{t('quote.trucksLabel')}</dt>
          <dd>
            {placed.truckCount} × {TRUCK_LOAD_TONNES} t
          </dd>
          <dt>{t('quote.perTruck')}</dt>
          <dd>{formatMoney(placed.perTruck)}</dd>
          <dt>{t('quote.total')}</dt>
          <dd>
            <strong>{formatMoney(placed.total)}</strong>
          </dd>
          <dt>{t('quote.distanceLabel')}</dt>
          <dd>
            {formatKm(placed.distanceKm)} ({statusLabel(t, 'distance', placed.distanceSource)})
          </dd>
          <dt>{t('quote.accountNumber')}</dt>
          <dd>
            <strong className="mono">{placed.accountRef}</strong>
          </dd>
          {placed.trackingUrl ? (
            <>
              <dt>{t('quote.tracking')}</dt>
              <dd>
                <Link to={placed.trackingUrl}>{t('quote.track')}</Link>
                {placed.account ? null : <span className="muted"> · {t('quote.keepLink')}</span>}
              </dd>
            </>
          ) : null}
          {placed.deliveryCode ? (
            <>
              <dt>{t('quote.deliveryCode')}</dt>
              <dd>
                <strong className="mono">{placed.deliveryCode}</strong>
                <span className="muted"> · {t('quote.giveCode')}</span>
              </dd>
            </>
          ) : null}
        </dl>
        {placed.status === 'AWAITING_PAYMENT' ? (
          <Suspense fallback={null}>
            <MpesaPay
              orderId={placed.id}
              accountRef={placed.accountRef}
              balance={placed.total}
              paymentToken={placed.paymentToken}
              onOrder={(order) => setStatus(order.status)}
            />
          </Suspense>
        ) : null}
        <h3>{t('quote.paymentOptions')}</h3>
        <PaymentOptions
          options={paymentOptions}
          orderId={placed.id}
          mpesa={mpesa.data?.paybill ? { paybill: mpesa.data.paybill, account: placed.accountRef } : null}
        />
        <h3>{t('quote.portalLogin')}</h3>
        {placed.account ? (
          <p>
            {t('quote.loginReady', { email: placed.account.user.email })}{' '}
            <Link to="/customer">{t('quote.myOrders')}</Link>.
          </p>
        ) : (
          <p>
            {t('quote.noLogin')} <Link to="/register">{t('quote.createAccount')}</Link> {t('quote.nextOrder')}
          </p>
        )}
        <button type="button" className="button button--secondary" onClick={reset}>
          {t('quote.another')}
        </button>
      </section>
    );
  }

  return (
    <form
      ref={formRef}
      // Without the script (an old phone, or scripts off) the browser posts the form to the server,
      // which places the order (server/guest-order-form.ts): never a GET with personal data in the URL.
      method="post"
      action="/order/guest"
      className="card"
      onSubmit={form.submit((input) => {
        // Taps faster than the button can turn disabled send nothing more.
        if (sending.current) return;
        sending.current = true;
        submit.mutate(input, {
          onSettled: () => {
            sending.current = false;
          },
        });
      })}
      noValidate
      aria-labelledby="quote-heading"
    >
      <h2 id="quote-heading">{t('quote.heading')}</h2>
      <FormStatus message={form.message} />
      <TextField
        label={t('quote.site')}
        placeholder={t('quote.sitePlaceholder')}
        required
        name="site"
        {...form.field('site')}
      />
      <div className="grid">
        <LoadFields value={form.values} onChange={form.patch} />
      </div>
      {failed ? <Alert tone="warning">{t('quote.refreshFailed')}</Alert> : null}
      {quote && !failed ? <QuoteLine quote={quote} /> : null}
      <div className="grid">
        <TextField label={t('quote.name')} autoComplete="name" required name="name" {...form.field('name')} />
        <TextField
          label={t('quote.phone')}
          type="tel"
          autoComplete="tel"
          placeholder="07XX..."
          required
          name="phone"
          {...form.field('phone')}
        />
        <TextField
          label={t('quote.email')}
          type="email"
          autoComplete="email"
          name="email"
          {...form.field('email')}
        />
        <TextField
          label={t('quote.dateNeeded')}
          type="date"
          required
          name="dateNeeded"
          {...form.field('dateNeeded')}
        />
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
      <label className="checkbox">
        <input
          type="checkbox"
          name="wantsLogin"
          checked={form.values.wantsLogin}
          onChange={(e) => form.set('wantsLogin', e.target.checked)}
        />
        {t('quote.wantsLogin')}
      </label>
      {form.values.wantsLogin ? (
        <div className="grid">
          <TextField
            label={t('quote.password')}
            type="password"
            autoComplete="new-password"
            hint={t('quote.passwordHint')}
            name="password"
            {...form.field('password')}
          />
          <TextField
            label={t('quote.confirm')}
            type="password"
            autoComplete="new-password"
            name="confirm"
            {...form.field('confirm')}
          />
        </div>
      ) : null}
      <button className="button" type="submit" disabled={submit.isPending}>
        {submit.isPending ? t('quote.submitting') : t('quote.submit')}
      </button>
    </form>
  );
}
