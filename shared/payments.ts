/** Payment options: fixed, public business data (spec sections 3 and 9). */
export const PAYMENT_BANKS = [
  { bank: 'ABSA', paybill: '303030' },
  { bank: 'Equity', paybill: '247247' },
  { bank: 'KCB', paybill: '522522' },
  { bank: 'NCBA', paybill: '880100' },
  { bank: 'Cooperative', paybill: '400200' },
] as const;

export const MPESA_METHOD = 'M-Pesa paybill';
export const PAYMENT_METHODS = [...PAYMENT_BANKS.map((b) => b.bank), MPESA_METHOD] as const;

export interface PaymentOption {
  bank: string;
  paybill: string;
  account: string;
}

/** The canonical method name for what a customer picked or typed ("co-operative" → "Cooperative"). */
export function canonicalPaymentMethod(input: string): string | undefined {
  const key = input.toLowerCase().replace(/[^a-z]/g, '');
  if (key === 'mpesa' || key === 'mpesapaybill') return MPESA_METHOD;
  return PAYMENT_METHODS.find((m) => m.toLowerCase().replace(/[^a-z]/g, '') === key);
}

/** How a payment's method is listed: `MPESA` for any M-Pesa payment (typed or reported), else the bank. */
export function listedMethod(method: string): string {
  return method === MPESA_METHOD || method === 'MPESA' ? 'MPESA' : method;
}

export function paymentOptions(account: string): PaymentOption[] {
  return PAYMENT_BANKS.map((b) => ({ ...b, account }));
}
