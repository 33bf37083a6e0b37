import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { MESSAGES, PASSWORD_MIN_LENGTH } from '../../../shared/constants';
import { formatKes, formatKm, orderStatusLabel } from '../../../shared/domain/format';
import { distanceSourceLabel } from '../../../shared/domain/pricing';
import { ORDER_MESSAGES, type TGuestOrderResult } from '../../../shared/schemas/orders';
import { saveSession } from '../../session';
import { errorMessage, trpc } from '../../trpc';
import { Alert, TextField } from '../../ui/forms';
import { PaymentOptions, type PaymentOptionView } from '../../ui/PaymentOptions';
import { LoadFields } from '../quote/LoadFields';
import { QuoteLine } from '../quote/QuoteLine';
import { useQuote } from '../quote/useQuote';

const EMPTY = {
  name: '',
  phone: '',
  email: '',
  site: '',
  sandType: 'coarse' as 'coarse' | 'smooth',
  trucks: 1,
  distance: '',
  dateNeeded: '',
  wantsLogin: false,
  password: '',
  confirm: '',
};

/** The landing page's quote and guest order form; after a successful order it shows the summary. */
export function GuestOrderForm({ paymentOptions }: { paymentOptions: PaymentOptionView[] }) {
  const [form, setForm] = useState(EMPTY);
  const [localError, setLocalError] = useState<string | null>(null);
  const [placed, setPlaced] = useState<TGuestOrderResult | null>(null);
  const { quote, failed } = useQuote(form);
  const submit = trpc.orders.createGuest.useMutation({
    onSuccess: (result) => {
      if (result.account) saveSession(result.account.token, result.account.user);
      setPlaced(result);
    },
  });

  const set =
    <K extends keyof typeof EMPTY>(key: K) =>
    (value: (typeof EMPTY)[K]) =>
      setForm((f) => ({ ...f, [key]: value }));

  function onSubmit(e: FormEvent) {
    e.preventDefault();
    setLocalError(null);
    if (!form.site.trim()) return setLocalError(ORDER_MESSAGES.siteRequired);
    if (form.wantsLogin) {
      if (!form.email.trim()) return setLocalError(ORDER_MESSAGES.portalEmailRequired);
      if (form.password !== form.confirm) return setLocalError(MESSAGES.passwordsDoNotMatch);
      if (form.password.trim().length < PASSWORD_MIN_LENGTH) return setLocalError(MESSAGES.passwordTooShort);
    }
    const distance = form.distance.trim() === '' ? undefined : Number(form.distance);
    submit.mutate({
      name: form.name,
      phone: form.phone,
      email: form.email,
      site: form.site,
      sandType: form.sandType,
      trucks: form.trucks,
      ...(distance !== undefined ? { distanceKm: distance } : {}),
      dateNeeded: form.dateNeeded,
      ...(form.wantsLogin ? { account: { password: form.password, confirmPassword: form.confirm } } : {}),
    });
  }

  function reset() {
    setForm(EMPTY);
    setPlaced(null);
    setLocalError(null);
    submit.reset();
  }

  if (placed) {
    return (
      <section className="card" aria-labelledby="summary-heading">
        <h2 id="summary-heading">Order #{placed.id} received</h2>
        <Alert tone="success">Thank you! Your order is in. Status: {orderStatusLabel(placed.status)}.</Alert>
        <dl className="summary">
          <dt>Sand</dt>
          <dd>{placed.sandType === 'coarse' ? 'Coarse' : 'Smooth'}</dd>
          <dt>Trucks</dt>
          <dd>{placed.truckCount} × 20 t</dd>
          <dt>Per truck</dt>
          <dd>{formatKes(placed.perTruck)}</dd>
          <dt>Total</dt>
          <dd>
            <strong>{formatKes(placed.total)}</strong>
          </dd>
          <dt>Distance</dt>
          <dd>
            {formatKm(placed.distanceKm)} ({distanceSourceLabel(placed.distanceSource)})
          </dd>
        </dl>
        <h3>Payment options</h3>
        <PaymentOptions options={paymentOptions} orderId={placed.id} />
        <h3>Portal login</h3>
        {placed.account ? (
          <p>
            Your portal login is ready and you are signed in as {placed.account.user.email}. Share your
            payment reference and follow this order in <Link to="/customer">My Orders</Link>.
          </p>
        ) : (
          <p>
            No portal login was created for this order. Dispatch will confirm your payment by phone, or{' '}
            <Link to="/register">create an account</Link> for your next order.
          </p>
        )}
        <button type="button" className="button button--secondary" onClick={reset}>
          Place another order
        </button>
      </section>
    );
  }

  const error =
    localError ??
    (submit.error ? errorMessage(submit.error, 'Failed to submit order. Please try again.') : null);
  return (
    <form className="card" onSubmit={onSubmit} noValidate aria-labelledby="quote-heading">
      <h2 id="quote-heading">Get a quote and order</h2>
      {error ? <Alert>{error}</Alert> : null}
      <TextField
        label="Delivery site"
        placeholder="e.g. Membley estate, Ruiru"
        required
        value={form.site}
        onChange={(e) => set('site')(e.target.value)}
      />
      <div className="grid">
        <LoadFields value={form} onChange={(patch) => setForm((f) => ({ ...f, ...patch }))} />
      </div>
      {failed ? <Alert tone="warning">Could not refresh quote right now.</Alert> : null}
      {quote && !failed ? <QuoteLine quote={quote} /> : null}
      <div className="grid">
        <TextField
          label="Your name"
          autoComplete="name"
          required
          value={form.name}
          onChange={(e) => set('name')(e.target.value)}
        />
        <TextField
          label="Phone"
          type="tel"
          autoComplete="tel"
          placeholder="07XX..."
          required
          value={form.phone}
          onChange={(e) => set('phone')(e.target.value)}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          value={form.email}
          onChange={(e) => set('email')(e.target.value)}
        />
        <TextField
          label="Date needed"
          type="date"
          required
          value={form.dateNeeded}
          onChange={(e) => set('dateNeeded')(e.target.value)}
        />
      </div>
      <label className="checkbox">
        <input
          type="checkbox"
          checked={form.wantsLogin}
          onChange={(e) => set('wantsLogin')(e.target.checked)}
        />
        Create a portal login to track this order
      </label>
      {form.wantsLogin ? (
        <div className="grid">
          <TextField
            label="Portal password"
            type="password"
            autoComplete="new-password"
            hint="At least 8 characters."
            value={form.password}
            onChange={(e) => set('password')(e.target.value)}
          />
          <TextField
            label="Confirm portal password"
            type="password"
            autoComplete="new-password"
            value={form.confirm}
            onChange={(e) => set('confirm')(e.target.value)}
          />
        </div>
      ) : null}
      <button className="button" type="submit" disabled={submit.isPending}>
        {submit.isPending ? 'Submitting…' : 'Place order'}
      </button>
    </form>
  );
}
