import { useState } from 'react';
import { PAYMENT_BANKS, PAYMENT_METHODS } from '../../../shared/payments';
import { ZReviewPaymentInput } from '../../../shared/schemas/admin-orders';
import { type TListedOrder, ZPaymentConfirmationInput } from '../../../shared/schemas/orders';
import { errorMessage, trpc } from '../../trpc';
import { useConfirm } from '../../ui/ConfirmDialog';
import { Alert, FormStatus, SelectField, TextAreaField, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { Sheet } from '../../ui/Sheet';
import { useZodForm } from '../../ui/useZodForm';
import { useOrdersRefresh } from './LoadList';

function OrderFacts({ order }: { order: TListedOrder }) {
  return (
    <dl className="kv">
      <dt>Customer</dt>
      <dd>
        {order.name}
        {order.email ? <div className="muted">{order.email}</div> : null}
      </dd>
      <dt>Site</dt>
      <dd>{order.site}</dd>
      <dt>Total</dt>
      <dd>
        <Money value={order.total} strong />
      </dd>
      <dt>Payment</dt>
      <dd>{order.payment_status}</dd>
    </dl>
  );
}

/** A customer's payment confirmation: confirm it, or reject it with a reason after saying what that does. */
export function ReviewPaymentSheet({ order, onClose }: { order: TListedOrder; onClose: () => void }) {
  const refresh = useOrdersRefresh();
  const confirm = useConfirm();
  const [error, setError] = useState<string | null>(null);
  const review = trpc.admin.orders.reviewPayment.useMutation({
    onSuccess: () => {
      refresh();
      onClose();
    },
    onError: (e) => setError(errorMessage(e, 'Failed to update payment.')),
  });
  const reject = useZodForm({
    schema: ZReviewPaymentInput,
    initial: { note: '' },
    toInput: ({ note }) => ({ id: order.id, decision: 'reject', note }),
  });

  return (
    <Sheet title={`Review payment · order #${order.id}`} onClose={onClose}>
      <OrderFacts order={order} />
      <p className="muted">
        Find the payment on the bank or M-Pesa statement first. Confirming moves the order to Received, ready
        for trucks.
      </p>
      {error ? <Alert>{error}</Alert> : null}
      <div className="sheet__actions">
        <button
          type="button"
          className="button"
          disabled={review.isPending}
          onClick={() => {
            setError(null);
            review.mutate({ id: order.id, decision: 'confirm' });
          }}
        >
          Confirm payment
        </button>
      </div>
      <form
        className="pay-box"
        noValidate
        onSubmit={reject.submit((input) =>
          confirm.ask({
            title: 'Reject this payment?',
            body: (
              <>
                <p>
                  Order #{order.id} goes back to Awaiting Payment and {order.name} is asked to send the
                  payment confirmation again.
                </p>
                <p>Your reason is kept with the order: “{input.note}”.</p>
              </>
            ),
            confirmLabel: 'Reject payment',
            cancelLabel: 'Go back',
            onConfirm: () => {
              setError(null);
              review.mutate(input);
            },
          }),
        )}
      >
        <FormStatus message={reject.message} />
        <TextAreaField label="Reason for rejecting" {...reject.field('note')} />
        <button type="submit" className="button button--secondary" disabled={review.isPending}>
          Reject payment
        </button>
      </form>
      {confirm.dialog}
    </Sheet>
  );
}

/** A payment made without the portal (by phone, at the office): its method and reference confirm the order. */
export function RecordPaymentSheet({ order, onClose }: { order: TListedOrder; onClose: () => void }) {
  const refresh = useOrdersRefresh();
  const form = useZodForm({
    schema: ZPaymentConfirmationInput,
    initial: { method: PAYMENT_BANKS[0].bank as string, reference: '', message: '' },
    toInput: (v) => ({ ...v, id: order.id }),
  });
  const review = trpc.admin.orders.reviewPayment.useMutation({
    onSuccess: () => {
      refresh();
      onClose();
    },
    onError: (e) => form.report('error', errorMessage(e, 'Failed to update payment.')),
  });
  return (
    <Sheet title={`Record payment · order #${order.id}`} onClose={onClose}>
      <OrderFacts order={order} />
      <form
        noValidate
        onSubmit={form.submit(({ method, reference, message }) =>
          review.mutate({
            id: order.id,
            decision: 'confirm',
            method,
            reference,
            ...(message ? { note: message } : {}),
          }),
        )}
      >
        <p className="muted">Recording the payment moves the order to Received, ready for trucks.</p>
        <FormStatus message={form.message} />
        <SelectField label="Paid through" {...form.field('method')}>
          {PAYMENT_METHODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </SelectField>
        <TextField label="Payment reference" placeholder="e.g. QJK4XYZ123" {...form.field('reference')} />
        <TextAreaField label="Note (optional)" {...form.field('message')} />
        <div className="sheet__actions">
          <button type="submit" className="button" disabled={review.isPending}>
            {review.isPending ? 'Recording…' : 'Record payment'}
          </button>
        </div>
      </form>
    </Sheet>
  );
}
