import { useState } from 'react';
import { addDays, localDate } from '../../../shared/domain/time';
import { PAYMENT_BANKS } from '../../../shared/payments';
import { useFormat } from '../../i18n/format';
import { getSession } from '../../session';
import { trpc } from '../../trpc';
import { Alert } from '../../ui/forms';
import { Money } from '../../ui/Money';

/** Fetches a statement document with the session's token (a plain link cannot send it) and saves it. */
async function downloadStatement(format: 'pdf' | 'csv', from: string, to: string, lang: 'en' | 'sw') {
  const token = getSession()?.token;
  const res = await fetch(`/api/customers/me/statement?from=${from}&to=${to}&format=${format}&lang=${lang}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) throw new Error(String(res.status));
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `statement-${from}-${to}.${format}`;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * My Orders for a customer on credit terms: what is owed and overdue, how to pay (the paybill and the
 * account's own number MCA<id>) and the statement of the last 90 days as a PDF or CSV. Nothing without an
 * account.
 */
export function AccountSummary({ paybill }: { paybill: string | null | undefined }) {
  const { t, locale } = useFormat();
  const account = trpc.customers.mine.useQuery();
  const [failed, setFailed] = useState(false);
  const a = account.data;
  if (!a) return null;
  const to = localDate(new Date());
  const from = addDays(to, -89);
  const get = (format: 'pdf' | 'csv') => {
    setFailed(false);
    downloadStatement(format, from, to, locale).catch(() => setFailed(true));
  };
  return (
    <section className="card" aria-labelledby="account-heading">
      <h2 id="account-heading">{t('account.title')}</h2>
      {a.overdue > 0 ? (
        <Alert tone="warning">
          {t('account.overdue')} <Money value={a.overdue} />
        </Alert>
      ) : null}
      <dl className="stacked">
        <dt>{t('account.balance')}</dt>
        <dd>
          <Money value={a.balance} />
        </dd>
        <dt>{t('account.available')}</dt>
        <dd>
          <Money value={a.available} /> · {t('account.terms', { days: a.termsDays })}
        </dd>
        <dt>{t('account.howToPay')}</dt>
        <dd>
          {paybill
            ? t('account.payMpesa', { paybill, account: a.accountRef })
            : t('account.payBanks', {
                banks: PAYMENT_BANKS.map((b) => `${b.bank} ${b.paybill}`).join(', '),
                account: a.accountRef,
              })}
        </dd>
      </dl>
      <div className="actions">
        <button type="button" className="button" onClick={() => get('pdf')}>
          {t('account.statementPdf')}
        </button>
        <button type="button" className="button button--secondary" onClick={() => get('csv')}>
          {t('account.statementCsv')}
        </button>
      </div>
      {failed ? <Alert>{t('account.statementFailed')}</Alert> : null}
    </section>
  );
}
