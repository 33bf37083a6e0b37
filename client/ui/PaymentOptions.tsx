export interface PaymentOptionView {
  bank: string;
  paybill: string;
  account: string;
}

/** The fixed bank paybills (spec: ABSA, Equity, KCB, NCBA, Cooperative) with the account to quote. */
export function PaymentOptions({ options, orderId }: { options: PaymentOptionView[]; orderId?: number }) {
  return (
    <div className="payment-options">
      <p>
        Pay by M-Pesa paybill or bank. Use the paybill number of your bank below, the account shown
        {orderId ? ` and your order number #${orderId} in the payment message` : ''}.
      </p>
      <ul className="bank-list">
        {options.map((o) => (
          <li key={o.bank} className="bank">
            <strong>{o.bank}</strong>
            <span>
              Paybill <span className="mono">{o.paybill}</span>
            </span>
            <span>
              Account <span className="mono">{o.account}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
