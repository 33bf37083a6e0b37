import { useId, useMemo, useState } from 'react';
import { compareIso } from '../../../shared/domain/time';
import { RECEIVABLE_SORTS } from '../../../shared/schemas/accounts';
import { useDateTime } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { trpc } from '../../trpc';
import { DataList } from '../../ui/DataList';
import { Alert } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { CreditTermsForm } from './CreditTermsForm';

type Sort = (typeof RECEIVABLE_SORTS)[number];

/**
 * Every account on terms (ADMIN's finance view): balance, overdue, ageing and last payment, sorted as
 * chosen; a table where there is room and a card per account on a phone. The totals are the sums of the
 * accounts' statements (the server's figures, never summed again here).
 */
export function Receivables() {
  const { t } = useStaffT();
  const dateTime = useDateTime();
  const view = trpc.admin.accounts.receivables.useQuery(undefined);
  const [sort, setSort] = useState<Sort>('overdue');
  const sortId = useId();
  const rows = useMemo(() => {
    const list = [...(view.data?.rows ?? [])];
    const by: Record<Sort, (a: (typeof list)[number], b: (typeof list)[number]) => number> = {
      balance: (a, b) => b.balance - a.balance,
      overdue: (a, b) => b.overdue - a.overdue || b.balance - a.balance,
      name: (a, b) => a.name.localeCompare(b.name),
      lastPayment: (a, b) => compareIso(b.lastPaymentAt ?? '', a.lastPaymentAt ?? ''),
    };
    return list.sort(by[sort]);
  }, [view.data, sort]);
  const totals = view.data?.totals;
  const sortLabel: Record<Sort, string> = {
    balance: t('finance.sort.balance'),
    overdue: t('finance.sort.overdue'),
    name: t('finance.sort.name'),
    lastPayment: t('finance.sort.lastPayment'),
  };
  return (
    <div className="card">
      <h3>{t('finance.receivables')}</h3>
      <p className="muted">{t('finance.receivablesIntro')}</p>
      {view.error ? <Alert>{t('finance.receivablesFailed')}</Alert> : null}
      <div className="field">
        <label htmlFor={sortId}>{t('finance.sortBy')}</label>
        <select id={sortId} value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
          {RECEIVABLE_SORTS.map((s) => (
            <option key={s} value={s}>
              {sortLabel[s]}
            </option>
          ))}
        </select>
      </div>
      {totals ? (
        <p>
          <strong>{t('finance.totalOwed')}</strong> <Money value={totals.balance} strong /> ·{' '}
          <strong>{t('finance.totalOverdue')}</strong> <Money value={totals.overdue} strong />
        </p>
      ) : null}
      <DataList
        label={t('finance.receivables')}
        rows={rows}
        rowKey={(r) => r.customerId}
        title={(r) => `${r.name} · ${r.accountRef}`}
        empty={view.data ? t('finance.noAccounts') : null}
        columns={[
          { header: t('finance.account'), cell: (r) => `${r.name} · ${r.accountRef}`, hideOnCard: true },
          { header: t('finance.balance'), numeric: true, cell: (r) => <Money value={r.balance} /> },
          { header: t('finance.overdue'), numeric: true, cell: (r) => <Money value={r.overdue} /> },
          { header: t('finance.age1_30'), numeric: true, cell: (r) => <Money value={r.ageing.d1_30} /> },
          { header: t('finance.age31_60'), numeric: true, cell: (r) => <Money value={r.ageing.d31_60} /> },
          {
            header: t('finance.age61plus'),
            numeric: true,
            cell: (r) => <Money value={r.ageing.d61_90 + r.ageing.d90_plus} />,
          },
          {
            header: t('finance.lastPayment'),
            cell: (r) => (r.lastPaymentAt ? dateTime(r.lastPaymentAt) : t('finance.never')),
          },
        ]}
      />
      <CreditTermsForm />
    </div>
  );
}
