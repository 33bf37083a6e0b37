import type { TOrderCreditNote } from '../../../shared/schemas/invoices';
import { useFormat } from '../../i18n/format';

/** A document link of an order (it carries its token) in the screen's language: a plain download. */
export function documentHref(url: string, locale: 'en' | 'sw'): string {
  return `${url}${url.includes('?') ? '&' : '?'}lang=${locale}`;
}

/** Where an order's sale stands with KRA eTIMS, in the customer's words. */
export function useEtimsLabel() {
  const { t } = useFormat();
  return (status: string | null | undefined) => {
    const labels: Record<string, string> = {
      off: t('etims.off'),
      pending: t('etims.pending'),
      sent: t('etims.sent'),
      signed: t('etims.signed'),
      failed: t('etims.failed'),
    };
    return status ? (labels[status] ?? status) : '';
  };
}

/**
 * The receipt (tax invoice) of a paid order, and its credit notes, as download links: on My Orders, the
 * tracking page and the payment's confirmation.
 */
export function ReceiptLinks({
  receiptUrl,
  etimsStatus,
  creditNotes = [],
  label,
}: {
  receiptUrl: string | null;
  etimsStatus?: string | null;
  creditNotes?: readonly TOrderCreditNote[];
  label?: string;
}) {
  const { t, money, locale } = useFormat();
  const etimsLabel = useEtimsLabel();
  if (!receiptUrl && creditNotes.length === 0) return null;
  return (
    <span className="receipt-links">
      {receiptUrl ? (
        <a className="receipt-link" href={documentHref(receiptUrl, locale)} download>
          {label ?? t('customer.downloadReceipt')}
        </a>
      ) : null}
      {etimsStatus ? <span className="muted">{etimsLabel(etimsStatus)}</span> : null}
      {creditNotes.map((c) => (
        <a key={c.label} className="receipt-link" href={documentHref(c.url, locale)} download>
          {t('customer.creditNote', { label: c.label, amount: money(c.amount) })}
        </a>
      ))}
    </span>
  );
}
