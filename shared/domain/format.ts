const kes = new Intl.NumberFormat('en-KE', { maximumFractionDigits: 0 });
const kesCents = new Intl.NumberFormat('en-KE', { minimumFractionDigits: 0, maximumFractionDigits: 2 });

/** "KES 32,000" — whole shillings with en-KE thousands separators. */
export function formatKes(amount: number): string {
  return `KES ${kes.format(Math.round(amount))}`;
}

/** "KES 1,234.5" — for amounts that may carry cents (costs, fuel). */
export function formatKesExact(amount: number): string {
  return `KES ${kesCents.format(amount)}`;
}

export function formatKm(km: number): string {
  return `${Number.isInteger(km) ? km : km.toFixed(1)} km`;
}

export const ORDER_STATUS_LABELS: Record<string, string> = {
  AWAITING_PAYMENT: 'Awaiting Payment',
  PAYMENT_REVIEW: 'Awaiting Payment Review',
  RECEIVED: 'Received',
  IN_TRANSIT: 'In Transit',
  DELIVERED: 'Delivered',
  CANCELLED: 'Cancelled',
};

/** Spec labels for order statuses; anything unknown is shown as given. */
export function orderStatusLabel(status: string): string {
  return ORDER_STATUS_LABELS[status] ?? status;
}

/** Cents in the database, KES in the API. */
export const toCents = (kesAmount: number) => Math.round(kesAmount * 100);
export const fromCents = (cents: number) => cents / 100;
