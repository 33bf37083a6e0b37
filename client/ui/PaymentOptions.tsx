import type { TPricingInfo } from '../../shared/schemas/pricing';

export type PaymentOptionView = TPricingInfo['paymentOptions'][number];

/**
 * How to pay: the business's own M-Pesa paybill with the order's account number `MCH<id>` (when the
 * paybill is set up), and the fixed bank paybills (ABSA, Equity, KCB, NCBA, Cooperative) reached through
 * M-Pesa Pay Bill or at the bank, each with its own account to quote; the M-Pesa code is the reference.
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
  const account = options.find((o) => o.account)?.account;
  return (
    <div className="payment-options">
      {mpesa ? (
        <div className="mpesa-paybill">
          <p>
            <strong>M-Pesa paybill</strong> · reconciled automatically
          </p>
          <ol className="mpesa-steps">
            <li>On M-Pesa choose Lipa na M-Pesa, then Pay Bill.</li>
            <li>
              Business number: <strong className="mono">{mpesa.paybill}</strong>
            </li>
            <li>
              Account number: <strong className="mono">{mpesa.account}</strong> (this order's own account)
            </li>
          </ol>
          <p className="muted">Or pay through a bank below, with the bank's own account.</p>
        </div>
      ) : (
        <p>Pay by M-Pesa paybill or at the bank, to any of the paybills below.</p>
      )}
      {mpesa ? null : (
        <ol className="mpesa-steps">
          <li>On M-Pesa choose Lipa na M-Pesa, then Pay Bill.</li>
          <li>Business number: the paybill of a bank below.</li>
          <li>
            Account number: {account ? <strong className="mono">{account}</strong> : 'the account shown'}
            {orderId ? `, and quote order #${orderId} if your bank asks for a reference` : ''}.
          </li>
          <li>Keep the confirmation code M-Pesa sends you: it is your payment reference.</li>
        </ol>
      )}
      <ul className="bank-list">
        {options.map((o) => (
          <li key={o.bank} className="bank">
            <strong>{o.bank}</strong>
            <span>
              Paybill <span className="mono">{o.paybill}</span>
            </span>
            {o.account ? (
              <span>
                Account <span className="mono">{o.account}</span>
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
