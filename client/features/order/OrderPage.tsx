import { TRPCClientError } from '@trpc/client';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { formatKes, formatKm, orderStatusLabel } from '../../../shared/domain/format';
import { distanceSourceLabel } from '../../../shared/domain/pricing';
import { PAYMENT_BANKS, PAYMENT_METHODS } from '../../../shared/payments';
import { ORDER_MESSAGES, type TOrderCreated } from '../../../shared/schemas/orders';
import { errorMessage, trpc } from '../../trpc';
import { Alert, SelectField, TextAreaField, TextField } from '../../ui/forms';
import { Page } from '../../ui/Page';
import { PaymentOptions } from '../../ui/PaymentOptions';
import { LoadFields } from '../quote/LoadFields';
import { QuoteLine } from '../quote/QuoteLine';
import { useQuote } from '../quote/useQuote';

const SIGN_IN_FIRST = 'Please sign in as a customer first.';

function isUnauthorized(error: unknown) {
  return error instanceof TRPCClientError && error.data?.httpStatus === 401;
}

/** /order: step 1 capture the order, step 2 payment details, step 3 share the payment confirmation. */
export function OrderPage() {
  const navigate = useNavigate();
  const utils = trpc.useUtils();
  const pricing = trpc.pricing.get.useQuery(undefined, { staleTime: 5 * 60_000 });
  const [form, setForm] = useState({
    site: '',
    sandType: 'coarse' as 'coarse' | 'smooth',
    trucks: 1,
    distance: '',
    dateNeeded: '',
  });
  const [order, setOrder] = useState<TOrderCreated | null>(null);
  const [orderError, setOrderError] = useState<string | null>(null);
  const [payment, setPayment] = useState({
    method: PAYMENT_BANKS[0].bank as string,
    reference: '',
    message: '',
  });
  const [paymentError, setPaymentError] = useState<string | null>(null);
  const [paidStatus, setPaidStatus] = useState<string | null>(null);
  const { quote, failed } = useQuote(form);

  const place = trpc.orders.create.useMutation({
    onSuccess: (created) => {
      setOrder(created);
      setPaidStatus(null);
      void utils.orders.my.invalidate();
    },
    onError: (error) => {
      if (isUnauthorized(error)) {
        setOrderError(SIGN_IN_FIRST);
        navigate('/login');
        return;
      }
      setOrderError(errorMessage(error, 'Failed to place order.'));
    },
  });
  const confirm = trpc.orders.confirmPayment.useMutation({
    onSuccess: (res) => {
      setPaidStatus(res.status);
      setOrder((o) => (o ? { ...o, status: res.status } : o));
      void utils.orders.my.invalidate();
    },
    onError: (error) => setPaymentError(errorMessage(error, 'Could not register payment confirmation.')),
  });

  function submitOrder(e: FormEvent) {
    e.preventDefault();
    setOrderError(null);
    if (!form.site.trim()) return setOrderError(ORDER_MESSAGES.siteRequired);
    const distance = form.distance.trim() === '' ? undefined : Number(form.distance);
    place.mutate({
      site: form.site,
      sandType: form.sandType,
      trucks: form.trucks,
      ...(distance !== undefined ? { distanceKm: distance } : {}),
      ...(form.dateNeeded ? { dateNeeded: form.dateNeeded } : {}),
    });
  }

  function submitPayment(e: FormEvent) {
    e.preventDefault();
    setPaymentError(null);
    if (!order) return;
    if (!payment.reference.trim()) return setPaymentError(ORDER_MESSAGES.referenceRequired);
    confirm.mutate({
      id: order.id,
      method: payment.method,
      reference: payment.reference,
      message: payment.message,
    });
  }

  return (
    <Page title="Order sand" subtitle="Three steps: your order, how to pay, and your payment confirmation.">
      <ol className="steps">
        <li className="card step">
          <form onSubmit={submitOrder} noValidate aria-labelledby="step1">
            <h2 id="step1">1. Your order</h2>
            {orderError ? <Alert>{orderError}</Alert> : null}
            <TextField
              label="Delivery site"
              placeholder="e.g. Kamakis, Ruiru"
              value={form.site}
              onChange={(e) => setForm((f) => ({ ...f, site: e.target.value }))}
            />
            <div className="grid">
              <LoadFields value={form} onChange={(patch) => setForm((f) => ({ ...f, ...patch }))} />
              <TextField
                label="Date needed (optional)"
                type="date"
                value={form.dateNeeded}
                onChange={(e) => setForm((f) => ({ ...f, dateNeeded: e.target.value }))}
              />
            </div>
            {failed ? <Alert tone="warning">Could not refresh pricing.</Alert> : null}
            {quote && !failed ? <QuoteLine quote={quote} /> : null}
            <button className="button" type="submit" disabled={place.isPending}>
              {place.isPending ? 'Placing order…' : 'Place order'}
            </button>
          </form>
        </li>

        <li className="card step" aria-labelledby="step2">
          <h2 id="step2">2. Payment details</h2>
          {order ? (
            <dl className="summary">
              <dt>Order</dt>
              <dd>#{order.id}</dd>
              <dt>Status</dt>
              <dd>{orderStatusLabel(order.status)}</dd>
              <dt>Trucks</dt>
              <dd>
                {order.truckCount} × {formatKes(order.perTruck)}
              </dd>
              <dt>Total</dt>
              <dd>
                <strong>{formatKes(order.total)}</strong>
              </dd>
              <dt>Distance</dt>
              <dd>
                {formatKm(order.distanceKm)} ({distanceSourceLabel(order.distanceSource)})
              </dd>
            </dl>
          ) : (
            <p className="muted">Place your order first; its total and reference appear here.</p>
          )}
          <PaymentOptions
            options={pricing.data?.paymentOptions ?? PAYMENT_BANKS.map((b) => ({ ...b, account: '' }))}
            {...(order ? { orderId: order.id } : {})}
          />
        </li>

        <li className={order ? 'card step' : 'card step step--disabled'}>
          <form onSubmit={submitPayment} noValidate aria-labelledby="step3">
            <h2 id="step3">3. Share your payment confirmation</h2>
            <fieldset disabled={!order || confirm.isPending} style={{ border: 0, padding: 0, margin: 0 }}>
              {paymentError ? <Alert>{paymentError}</Alert> : null}
              {paidStatus ? (
                <Alert tone="success">
                  Payment confirmation received. Order status: {orderStatusLabel(paidStatus)}.
                </Alert>
              ) : null}
              <SelectField
                label="Paid through"
                value={payment.method}
                onChange={(e) => setPayment((p) => ({ ...p, method: e.target.value }))}
              >
                {PAYMENT_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </SelectField>
              <TextField
                label="Payment reference"
                placeholder="e.g. QJK4XYZ123"
                value={payment.reference}
                onChange={(e) => setPayment((p) => ({ ...p, reference: e.target.value }))}
              />
              <TextAreaField
                label="Message (optional)"
                value={payment.message}
                onChange={(e) => setPayment((p) => ({ ...p, message: e.target.value }))}
              />
              <button className="button" type="submit">
                {confirm.isPending ? 'Sending…' : 'Send payment confirmation'}
              </button>
            </fieldset>
          </form>
        </li>
      </ol>
    </Page>
  );
}
