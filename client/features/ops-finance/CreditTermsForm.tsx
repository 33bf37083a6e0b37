import { useState } from 'react';
import { formatMoney } from '../../../shared/domain/format';
import {
  ACCOUNT_MESSAGES,
  type TAccount,
  type TCustomerMatch,
  ZAccountInput,
  ZCustomerIdInput,
  ZCustomerSearchInput,
} from '../../../shared/schemas/accounts';
import { useCheckText } from '../../i18n/checks';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { FormStatus, TextField } from '../../ui/forms';
import { useZodForm } from '../../ui/useZodForm';

const EMPTY_TERMS = { creditLimit: '', termsDays: '', kraPin: '', billingEmail: '', billingPhone: '' };

/**
 * ADMIN sets a customer's credit terms (issue 24): the customer found by name, e-mail or phone (or typed by
 * id), its current account loaded into the fields, then saved through the same procedure as
 * PUT /api/admin/customers/{id}/account. The outcome (balance, available, MCA<id>) or the server's error is
 * shown in view and focused.
 */
export function CreditTermsForm() {
  const { t, i18n } = useStaffT();
  const utils = trpc.useUtils();
  const form = useZodForm({
    schema: ZAccountInput,
    initial: { id: '', ...EMPTY_TERMS },
    messages:
      i18n.language === 'sw'
        ? {
            id: t('finance.terms.validCustomer'),
            creditLimit: t('finance.terms.validLimit'),
            termsDays: t('finance.terms.validDays'),
          }
        : undefined,
  });
  const [loading, setLoading] = useState(false);
  const [query, setQuery] = useState('');
  const [matches, setMatches] = useState<TCustomerMatch[] | null>(null);
  // What the search found, said under it (not at the form's foot, out of view on a phone).
  const [findNote, setFindNote] = useState<string | null>(null);
  const check = useCheckText();
  const summary = (a: TAccount) =>
    t('finance.terms.summary', {
      name: a.name,
      ref: a.accountRef,
      balance: formatMoney(a.balance),
      available: formatMoney(a.available),
    });
  const fill = (a: TAccount) =>
    form.patch({
      creditLimit: String(a.creditLimit),
      termsDays: String(a.termsDays),
      kraPin: a.kraPin ?? '',
      billingEmail: a.billingEmail ?? '',
      billingPhone: a.billingPhone ?? '',
    });
  const save = trpc.admin.accounts.put.useMutation({
    onSuccess: (a) => {
      fill(a);
      form.report('success', `${t('finance.terms.saved')} ${summary(a)}`);
      void utils.admin.accounts.receivables.invalidate();
    },
    onError: (e) => form.report('error', errorMessage(e, t('finance.terms.failed'))),
  });

  async function find() {
    const q = ZCustomerSearchInput.safeParse({ q: query });
    if (!q.success) {
      setMatches(null);
      setFindNote(check(ACCOUNT_MESSAGES.search));
      return;
    }
    setLoading(true);
    setFindNote(null);
    try {
      const found = await utils.admin.accounts.customers.fetch(q.data, { staleTime: 0 });
      setMatches(found);
      if (found.length === 0) setFindNote(t('finance.terms.noMatch'));
    } catch (e) {
      setMatches(null);
      setFindNote(errorMessage(e, t('finance.terms.loadFailed')));
    } finally {
      setLoading(false);
    }
  }

  function choose(c: TCustomerMatch) {
    setMatches(null);
    setFindNote(null);
    form.patch({ id: String(c.id) });
    void load(String(c.id));
  }

  async function load(typed: string = form.values.id) {
    const id = ZCustomerIdInput.safeParse({ id: typed });
    if (!id.success) {
      form.report(
        'error',
        i18n.language === 'sw' ? t('finance.terms.validCustomer') : ACCOUNT_MESSAGES.customerNotFound,
      );
      return;
    }
    setLoading(true);
    try {
      const account = await utils.admin.accounts.get.fetch(id.data, { staleTime: 0 });
      fill(account);
      form.report('success', summary(account));
    } catch (e) {
      form.patch(EMPTY_TERMS);
      if (errorMessage(e, '') === ACCOUNT_MESSAGES.noAccount) form.report('success', t('finance.terms.none'));
      else form.report('error', errorMessage(e, t('finance.terms.loadFailed')));
    } finally {
      setLoading(false);
    }
  }

  const busy = loading || save.isPending;
  return (
    <form
      aria-label={t('finance.terms.heading')}
      noValidate
      onSubmit={form.submit((input) => save.mutate(input))}
    >
      <h4>{t('finance.terms.heading')}</h4>
      <p className="muted">{t('finance.terms.intro')}</p>
      <TextField
        label={t('finance.terms.find')}
        hint={t('finance.terms.findHint')}
        type="search"
        autoComplete="off"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void find();
          }
        }}
      />
      <button type="button" className="button button--secondary" disabled={busy} onClick={() => void find()}>
        {t('finance.terms.findButton')}
      </button>
      <p className="muted" role="status">
        {findNote}
      </p>
      {matches && matches.length > 0 ? (
        <ul className="match-list" aria-label={t('finance.terms.find')}>
          {matches.map((c) => (
            <li key={c.id}>
              <button type="button" className="button button--secondary" onClick={() => choose(c)}>
                {`${c.name} · ${c.email} · ${c.accountRef}`}
                {c.onTerms ? ` · ${t('finance.terms.onTerms')}` : ''}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <TextField
        label={t('finance.terms.customerId')}
        hint={t('finance.terms.customerIdHint')}
        inputMode="numeric"
        error={form.errors.id}
        {...form.field('id')}
      />
      <button type="button" className="button button--secondary" disabled={busy} onClick={() => void load()}>
        {t('finance.terms.load')}
      </button>
      <TextField
        label={t('finance.terms.creditLimit')}
        inputMode="decimal"
        error={form.errors.creditLimit}
        {...form.field('creditLimit')}
      />
      <TextField
        label={t('finance.terms.termsDays')}
        inputMode="numeric"
        error={form.errors.termsDays}
        {...form.field('termsDays')}
      />
      <TextField label={t('finance.terms.kraPin')} error={form.errors.kraPin} {...form.field('kraPin')} />
      <TextField
        label={t('finance.terms.billingEmail')}
        type="email"
        error={form.errors.billingEmail}
        {...form.field('billingEmail')}
      />
      <TextField
        label={t('finance.terms.billingPhone')}
        type="tel"
        error={form.errors.billingPhone}
        {...form.field('billingPhone')}
      />
      <button type="submit" className="button" disabled={busy}>
        {t('finance.terms.save')}
      </button>
      <FormStatus message={form.message} />
    </form>
  );
}
