import { useState } from 'react';
import { PAYMENT_BANKS, PAYMENT_METHODS } from '../../../shared/payments';
import { ZReviewPaymentInput } from '../../../shared/schemas/admin-orders';
import { type TListedOrder, ZPaymentConfirmationInput } from '../../../shared/schemas/orders';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { useConfirm } from '../../ui/ConfirmDialog';
import { Alert, FormStatus, SelectField, TextAreaField, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { PhoneLinks } from '../../ui/PhoneLinks';
import { Sheet } from '../../ui/Sheet';
import { useZodForm } from '../../ui/useZodForm';
import { useOrdersRefresh } from './useOrdersRefresh';

function OrderFacts({ order, underReview = false }: { order: TListedOrder; underReview?: boolean }) {
  const { t } = useStaffT();
  // The confirmation ops is deciding on: the customer's latest submitted payment.
  const submitted = underReview ? order.payments.filter((p) => p.status === 'SUBMITTED').at(-1) : undefined;
  return (
    <dl className="kv">
      <dt>{t('orders.customer')}</dt>
      <dd>
        {order.name}
        {order.email ? <div className="muted">{order.email}</div> : null}
        <PhoneLinks phone={order.phone} name={order.name} />
      </dd>
      {submitted ? (
        <>
          <dt>{t('payments.underReview')}</dt>
          <dd>
            {submitted.method === 'MPESA' ? 'M-Pesa' : submitted.method}{' '}
            <strong className="mono">{submitted.reference}</strong>
            {submitted.amount !== null ? (
              <>
                {' · '}
                <Money value={submitted.amount} />
              </>
            ) : null}
          </dd>
        </>
      ) : null}
      <dt>{t('orders.site')}</dt>
      <dd>{order.site}</dd>
      <dt>{t('orders.total')}</dt>
      <dd>
        <Money value={order.total} strong />
      </dd>
      <dt>{t('orders.payment')}</dt>
      <dd>{order.payment_status}</dd>
    </dl>
  );
}

/** A customer's payment confirmation: confirm it, or reject it with a reason after saying what that does. */
export function ReviewPaymentSheet({ order, onClose }: { order: TListedOrder; onClose: () => void }) {
  const { t } = useStaffT();
  const refresh = useOrdersRefresh();
  const confirm = useConfirm();
  const [error, setError] = useState<string | null>(null);
  const review = trpc.admin.orders.reviewPayment.useMutation({
    onSuccess: () => {
      refresh();
      onClose();
    },
    onError: (e) => setError(errorMessage(e, t('payments.updateFailed'))),
  });
  const reject = useZodForm({
    schema: ZReviewPaymentInput,
    initial: { note: '' },
    toInput: ({ note }) => ({ id: order.id, decision: 'reject', note }),
  });

  return (
    <Sheet title={t('payments.reviewTitle', { id: order.id })} onClose={onClose}>
      <OrderFacts order={order} underReview />
      <p className="muted">{t('payments.reviewIntro')}</p>
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
          {t('payments.confirm')}
        </button>
      </div>
      <form
        className="pay-box"
        noValidate
        onSubmit={reject.submit((input) =>
          confirm.ask({
            title: t('payments.rejectTitle'),
            body: (
              <>
                <p>{t('payments.rejectEffect', { id: order.id, name: order.name })}</p>
                <p>{t('payments.rejectKept', { note: input.note })}</p>
              </>
            ),
            confirmLabel: t('payments.reject'),
            cancelLabel: t('payments.goBack'),
            onConfirm: () => {
              setError(null);
              review.mutate(input);
            },
          }),
        )}
      >
        <FormStatus message={reject.message} />
        <TextAreaField label={t('payments.rejectReason')} {...reject.field('note')} />
        <button type="submit" className="button button--secondary" disabled={review.isPending}>
          {t('payments.reject')}
        </button>
      </form>
      {confirm.dialog}
    </Sheet>
  );
}

/** A payment made without the portal (by phone, at the office): its method and reference confirm the order. */
export function RecordPaymentSheet({ order, onClose }: { order: TListedOrder; onClose: () => void }) {
  const { t } = useStaffT();
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
    onError: (e) => form.report('error', errorMessage(e, t('payments.updateFailed'))),
  });
  return (
    <Sheet title={t('payments.recordTitle', { id: order.id })} onClose={onClose}>
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
        <p className="muted">{t('payments.recordIntro')}</p>
        <FormStatus message={form.message} />
        <SelectField label={t('payments.paidThrough')} {...form.field('method')}>
          {PAYMENT_METHODS.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('payments.reference')}
          placeholder={t('payments.referencePlaceholder')}
          {...form.field('reference')}
        />
        <TextAreaField label={t('payments.note')} {...form.field('message')} />
        <div className="sheet__actions">
          <button type="submit" className="button" disabled={review.isPending}>
            {review.isPending ? t('payments.recording') : t('payments.record')}
          </button>
        </div>
      </form>
    </Sheet>
  );
}
