import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { toCents } from '../../../shared/domain/money';
import { normaliseMsisdn, splitAmount, stkAmountKes } from '../../../shared/domain/mpesa';
import { MPESA_MESSAGES, type TOrderMoney, type TStkPushAccepted } from '../../../shared/schemas/mpesa';
import { en } from '../../i18n/en';
import { useFormat } from '../../i18n/format';
import { errorMessage, trpc } from '../../trpc';
import { Alert, TextField } from '../../ui/forms';
import { ReceiptLinks } from '../receipt/ReceiptLink';

/** How often the screen asks where the prompt stands, and for how long before it stops asking. */
const POLL_MS = 2_000;
const GIVE_UP_MS = 3 * 60_000;

/**
 * The catalog key of a message the server wrote in English (its MPESA_MESSAGES, and each result code's
 * message of STK_RESULTS, which the English catalog holds word for word): the screen shows it in its
 * language. Anything else is shown as the server wrote it.
 */
const MESSAGE_KEYS = new Map<string, string>([
  ...Object.entries(en.mpesa.messages).map(([key, text]): [string, string] => [
    text,
    `mpesa.messages.${key}`,
  ]),
  ...Object.entries(en.mpesa.result).map(([key, text]): [string, string] => [text, `mpesa.result.${key}`]),
]);

/** The M-Pesa settings the screens follow: the paybill, and whether the phone prompt is offered. */
export function useMpesaOptions() {
  return trpc.mpesa.options.useQuery(undefined, { staleTime: 5 * 60_000 });
}

/**
 * Pay by M-Pesa prompt (STK push): the customer's phone gets the payment request for the order's balance
 * (KES 250,000 at most a prompt), enters the PIN there, and this follows the result until it is known.
 * Hidden when the server does not offer the prompt or nothing is owed. A guest passes the order's
 * paymentToken.
 */
export function MpesaPay({
  orderId,
  accountRef,
  balance,
  paymentToken,
  defaultPhone = '',
  onOrder,
}: {
  orderId: number;
  accountRef: string;
  /** KES still owed. */
  balance: number;
  paymentToken?: string | undefined;
  defaultPhone?: string;
  /** Where the order stands once a prompt's result is known (paid, part-paid or failed). */
  onOrder?: (order: TOrderMoney) => void;
}) {
  const { t, money } = useFormat();
  const said = (message: string) => {
    const key = MESSAGE_KEYS.get(message);
    return key ? t(key) : message;
  };
  const headingId = useId();
  const options = useMpesaOptions();
  const utils = trpc.useUtils();
  const [phone, setPhone] = useState(defaultPhone);
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [prompt, setPrompt] = useState<TStkPushAccepted | null>(null);
  const [gaveUp, setGaveUp] = useState(false);
  const push = trpc.mpesa.stkPush.useMutation({
    onSuccess: (accepted) => {
      setGaveUp(false);
      setPrompt(accepted);
    },
  });
  useEffect(() => {
    if (!prompt) return;
    const timer = setTimeout(() => setGaveUp(true), GIVE_UP_MS);
    return () => clearTimeout(timer);
  }, [prompt]);
  const status = trpc.mpesa.stkStatus.useQuery(
    { id: orderId, checkoutRequestId: prompt?.checkoutRequestId ?? '', paymentToken },
    {
      enabled: prompt !== null,
      refetchInterval: (q) =>
        !gaveUp && (!q.state.data || q.state.data.status === 'PENDING') ? POLL_MS : false,
    },
  );
  const result = prompt && status.data?.checkoutRequestId === prompt.checkoutRequestId ? status.data : null;
  const settled = result?.status === 'PAID';
  const announced = useRef<string | null>(null);
  // Before the result is painted: a screen that rearranges itself for a paid order (My Orders folds the
  // ways to pay away) does so in the same frame, so nothing under the prompt moves first.
  useLayoutEffect(() => {
    // The order lists follow a payment as soon as it is known.
    if (result && result.status !== 'PENDING' && announced.current !== result.checkoutRequestId) {
      announced.current = result.checkoutRequestId;
      onOrder?.(result.order);
      void utils.orders.my.invalidate();
    }
  }, [result, utils, onOrder]);

  if (!options.data?.stk) return null;
  const owed = result ? result.order.balance : balance;
  if (owed <= 0 && !settled) return null;

  const send = () => {
    const msisdn = normaliseMsisdn(phone);
    if (!msisdn) {
      setPhoneError(t('mpesa.messages.phoneInvalid'));
      return;
    }
    setPhoneError(null);
    push.mutate({ id: orderId, phone, ...(paymentToken ? { paymentToken } : {}) });
  };
  const waiting = prompt !== null && (!result || result.status === 'PENDING') && !gaveUp;
  const canSend = !waiting && owed > 0 && (result?.status !== 'FAILED' || result.retry);
  const nextPrompt = splitAmount(stkAmountKes(toCents(owed)))[0] ?? 0;

  return (
    <section className="mpesa-pay" aria-labelledby={headingId}>
      <h3 id={headingId}>{t('mpesa.heading')}</h3>
      <p className="muted">
        {t('mpesa.requestFor')} <strong className="mono">{accountRef}</strong>
        {owed > 250_000 ? t('mpesa.inParts') : ''}.
      </p>
      {push.error ? <Alert>{said(errorMessage(push.error, MPESA_MESSAGES.unreachable))}</Alert> : null}
      {waiting ? (
        <div className="mpesa-pay__waiting" role="status">
          <strong>{t('mpesa.messages.checkYourPhone')}</strong>
          <span>
            {prompt.parts > 1
              ? t('mpesa.promptPartTo', {
                  amount: money(prompt.amount),
                  part: prompt.part,
                  parts: prompt.parts,
                  account: accountRef,
                })
              : t('mpesa.promptTo', { amount: money(prompt.amount), account: accountRef })}
          </span>
        </div>
      ) : null}
      {gaveUp && (!result || result.status === 'PENDING') ? (
        <Alert tone="warning">{t('mpesa.noResultYet')}</Alert>
      ) : null}
      {result?.status === 'PAID' ? (
        <Alert tone="success">
          {said(result.message)}
          {result.receipt ? ` ${t('mpesa.receipt', { receipt: result.receipt })}` : ''}{' '}
          {result.order.balance > 0
            ? t('mpesa.stillToPay', { amount: money(result.order.balance) })
            : t('mpesa.confirmed')}{' '}
          {result.receiptUrl ? (
            <ReceiptLinks receiptUrl={result.receiptUrl} label={t('mpesa.receiptLink')} />
          ) : null}
        </Alert>
      ) : null}
      {result?.status === 'FAILED' ? <Alert tone="warning">{said(result.message)}</Alert> : null}
      {canSend ? (
        <div className="mpesa-pay__form">
          <TextField
            label={t('mpesa.phone')}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="07XX XXX XXX"
            value={phone}
            error={phoneError}
            onChange={(e) => setPhone(e.target.value)}
          />
          <button type="button" className="button" onClick={send} disabled={push.isPending}>
            {push.isPending
              ? t('mpesa.sending')
              : result?.status === 'FAILED' || gaveUp
                ? t('mpesa.sendAgain')
                : settled
                  ? t('mpesa.nextPart')
                  : t('mpesa.send', { amount: money(nextPrompt) })}
          </button>
        </div>
      ) : null}
    </section>
  );
}
