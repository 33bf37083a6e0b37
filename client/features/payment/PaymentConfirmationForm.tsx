import { MPESA_METHOD, PAYMENT_BANKS, PAYMENT_METHODS } from '../../../shared/payments';
import { type TPaymentOutcome, ZPaymentConfirmationInput } from '../../../shared/schemas/orders';
import { useFormat } from '../../i18n/format';
import { errorMessage, trpc } from '../../trpc';
import { Alert, FormStatus, SelectField, TextAreaField, TextField } from '../../ui/forms';
import { useZodForm } from '../../ui/useZodForm';

/**
 * The customer's payment confirmation (order step 3, and each unpaid order in My Orders): the bank or
 * M-Pesa paid through, the reference (required) and an optional message. Disabled until there is an
 * order; on success My Orders shows the order's new status at once.
 */
export function PaymentConfirmationForm({
  orderId,
  labelledBy,
  sent,
  onSent,
}: {
  orderId: number | null;
  labelledBy?: string;
  /** The outcome of a confirmation already sent from here, shown above the form. */
  sent?: TPaymentOutcome | null;
  onSent?: (outcome: TPaymentOutcome) => void;
}) {
  const { t, orderStatus } = useFormat();
  const utils = trpc.useUtils();
  const payment = useZodForm({
    schema: ZPaymentConfirmationInput,
    initial: { method: PAYMENT_BANKS[0].bank as string, reference: '', message: '' },
    toInput: (p) => ({ ...p, id: orderId ?? undefined }),
  });
  const confirm = trpc.orders.confirmPayment.useMutation({
    onSuccess: (outcome, input) => {
      utils.orders.my.setData(undefined, (orders) =>
        orders?.map((o) =>
          o.id === input.id ? { ...o, status: outcome.status, payment_status: outcome.paymentStatus } : o,
        ),
      );
      void utils.orders.my.invalidate();
      payment.reset();
      onSent?.(outcome);
    },
    onError: (error) => payment.report('error', errorMessage(error, t('payment.failed'))),
  });

  return (
    <form onSubmit={payment.submit((input) => confirm.mutate(input))} noValidate aria-labelledby={labelledBy}>
      <fieldset disabled={orderId === null || confirm.isPending} className="bare">
        <FormStatus message={payment.message} />
        {sent ? (
          <Alert tone="success">{t('payment.received', { status: orderStatus(sent.status) })}</Alert>
        ) : null}
        <SelectField label={t('payment.paidThrough')} {...payment.field('method')}>
          {PAYMENT_METHODS.map((m) => (
            <option key={m} value={m}>
              {/* Banks by their names; the M-Pesa paybill in the screen's words (the value stays the same). */}
              {m === MPESA_METHOD ? t('payOptions.mpesaPaybill') : m}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('payment.reference')}
          placeholder={t('payment.referencePlaceholder')}
          {...payment.field('reference')}
        />
        <TextAreaField label={t('payment.message')} {...payment.field('message')} />
        <button className="button" type="submit">
          {confirm.isPending ? t('payment.sending') : t('payment.send')}
        </button>
      </fieldset>
    </form>
  );
}
