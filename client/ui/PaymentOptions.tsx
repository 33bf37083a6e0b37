import type { TPricingInfo } from '../../shared/schemas/pricing';
import { useLandingT } from '../i18n/landing';

export type PaymentOptionView = TPricingInfo['paymentOptions'][number];

/**
 * How to pay: the business's own M-Pesa paybill with the order's account number `MCH<id>` (when the
 * paybill is set up), and the fixed bank paybills (ABSA, Equity, KCB, NCBA, Cooperative) reached through
 * M-Pesa Pay Bill or at the bank, each with its own account to quote; the M-Pesa code is the reference.
 * Its words come from the landing page's catalog (payOptions), as the landing page shows it too.
 */
export function PaymentOptions({
  options,
  orderId,
  mpesa,
}: {
  options: PaymentOptionView[];
  orderId?: number;
  /** The M-Pesa paybill and this order's account number; absent when there is no paybill or no order. */
  mpesa?: { paybill: string; account: string } | null;
}) {
  const { t } = useLandingT();
  const account = options.find((o) => o.account)?.account;
  return (
    <div className="payment-options">
      {mpesa ? (
        <div className="mpesa-paybill">
          <p>
            <strong>{t('payOptions.mpesaPaybill')}</strong> · {t('payOptions.reconciled')}
          </p>
          <ol className="mpesa-steps">
            <li>{t('payOptions.chooseLipa')}</li>
            <li>
              {t('payOptions.businessNumber')} <strong className="mono">{mpesa.paybill}</strong>
            </li>
            <li>
              {t('payOptions.accountNumber')} <strong className="mono">{mpesa.account}</strong>{' '}
              {t('payOptions.ownAccount')}
            </li>
          </ol>
          <p className="muted">{t('payOptions.orBank')}</p>
        </div>
      ) : (
        <p>{t('payOptions.payAny')}</p>
      )}
      {mpesa ? null : (
        <ol className="mpesa-steps">
          <li>{t('payOptions.chooseLipa')}</li>
          <li>{t('payOptions.businessBank')}</li>
          <li>
            {t('payOptions.accountNumber')}{' '}
            {account ? <strong className="mono">{account}</strong> : t('payOptions.accountShown')}
            {orderId ? t('payOptions.quoteOrder', { id: orderId }) : ''}.
          </li>
          <li>{t('payOptions.keepCode')}</li>
        </ol>
      )}
      <ul className="bank-list">
        {options.map((o) => (
          <li key={o.bank} className="bank">
            <strong>{o.bank}</strong>
            <span>
              {t('payOptions.paybill')} <span className="mono">{o.paybill}</span>
            </span>
            {o.account ? (
              <span>
                {t('payOptions.account')} <span className="mono">{o.account}</span>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
