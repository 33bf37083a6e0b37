import { type FormEvent, useState } from 'react';
import { formatMoney } from '../../../shared/domain/format';
import { CREDIT_NOTE_REASONS, type CreditNoteReason } from '../../../shared/etims/codes';
import type { InvoiceStatus, TEtimsState, TListedInvoice } from '../../../shared/schemas/invoices';
import { useDateTime } from '../../i18n/format';
import { type StaffT, useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Badge, type BadgeTone } from '../../ui/Badge';
import { DataList } from '../../ui/DataList';
import { Alert, SelectField, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { Sheet } from '../../ui/Sheet';

const STATUS_TONES: Record<InvoiceStatus, BadgeTone> = {
  off: 'muted',
  pending: 'neutral',
  sent: 'warn',
  signed: 'good',
  failed: 'bad',
};

function statusLabels(t: StaffT): Record<InvoiceStatus, string> {
  return {
    off: t('invoices.statusOff'),
    pending: t('invoices.statusPending'),
    sent: t('invoices.statusSent'),
    signed: t('invoices.statusSigned'),
    failed: t('invoices.statusFailed'),
  };
}

function reasonLabels(t: StaffT): Record<CreditNoteReason, string> {
  return {
    '01': t('invoices.reason01'),
    '02': t('invoices.reason02'),
    '03': t('invoices.reason03'),
    '04': t('invoices.reason04'),
    '05': t('invoices.reason05'),
    '06': t('invoices.reason06'),
  };
}

/** How the KRA link stands: off (the screen says so), connected, or why not and when it tries again. */
function LinkState({ etims }: { etims: TEtimsState }) {
  const { t } = useStaffT();
  const dateTime = useDateTime();
  if (etims.status === 'off') return <Alert tone="info">{t('invoices.off')}</Alert>;
  const words: Record<Exclude<TEtimsState['status'], 'off'>, [string, BadgeTone]> = {
    ok: [t('invoices.linkOk'), 'good'],
    unreachable: [t('invoices.linkUnreachable'), 'warn'],
    credentials: [t('invoices.linkCredentials'), 'bad'],
    device: [t('invoices.linkDevice'), 'bad'],
    blocked: [t('invoices.linkBlocked'), 'bad'],
  };
  const [label, tone] = words[etims.status];
  const labels = statusLabels(t);
  return (
    <div className="card etims-link">
      <p>
        <strong>{t('invoices.link')}</strong> <Badge tone={tone}>{label}</Badge>
      </p>
      {etims.message ? <p className="etims-link__message">{etims.message}</p> : null}
      {etims.retryAt && etims.status !== 'ok' ? (
        <p className="muted">{t('invoices.retryAt', { time: dateTime(etims.retryAt, 'short') })}</p>
      ) : null}
      <p className="muted">
        {t('invoices.branch', { tin: etims.tin ?? '', bhfId: etims.bhfId ?? '' })}
        {etims.kraBranch
          ? ` · ${t('invoices.kraBranch', { branch: etims.kraBranch, sdc: etims.sdcId ?? '' })}`
          : ''}
      </p>
      <p className="muted">
        {(['pending', 'sent', 'failed', 'signed'] as const)
          .map((s) => `${labels[s]} ${etims.counts[s] ?? 0}`)
          .join(' · ')}
      </p>
    </div>
  );
}

/** The credit note form of one sale (ADMIN): an amount (all that is left when blank), KRA's reason, a note. */
function CreditNoteSheet({ invoice, onClose }: { invoice: TListedInvoice; onClose: () => void }) {
  const { t } = useStaffT();
  const utils = trpc.useUtils();
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState<CreditNoteReason>('06');
  const [note, setNote] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const issue = trpc.admin.invoices.creditNote.useMutation({
    onSuccess: (r) => {
      setDone(t('invoices.issuedCredit', { label: r.label, amount: formatMoney(r.amount) }));
      void utils.admin.invoices.list.invalidate();
    },
  });
  const reasons = reasonLabels(t);
  function submit(e: FormEvent) {
    e.preventDefault();
    issue.mutate({
      id: invoice.orderId!,
      reason,
      ...(amount.trim() ? { amount: Number(amount) } : {}),
      ...(note.trim() ? { note } : {}),
    });
  }
  return (
    <Sheet title={t('invoices.creditHeading', { id: invoice.orderId ?? '' })} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        {issue.error ? <Alert>{errorMessage(issue.error, t('invoices.creditFailed'))}</Alert> : null}
        {done ? <Alert tone="success">{done}</Alert> : null}
        <p>
          {invoice.label} · <Money value={invoice.total} strong />
        </p>
        <TextField
          label={t('invoices.amount')}
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
        />
        <SelectField
          label={t('invoices.reasonLabel')}
          value={reason}
          onChange={(e) => setReason(e.target.value as CreditNoteReason)}
        >
          {CREDIT_NOTE_REASONS.map((r) => (
            <option key={r} value={r}>
              {r} · {reasons[r]}
            </option>
          ))}
        </SelectField>
        <TextField label={t('invoices.note')} value={note} onChange={(e) => setNote(e.target.value)} />
        <div className="main-action">
          <button type="submit" className="button" disabled={issue.isPending || done !== null}>
            {issue.isPending ? t('invoices.issuing') : t('invoices.issue')}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('invoices.cancel')}
          </button>
        </div>
      </form>
    </Sheet>
  );
}

/**
 * The finance view of KRA eTIMS: the link's state (off says so), invoices and credit notes by status with
 * KRA's reason when it refused one, "send again" (safe to press twice) and the credit note of a sale.
 */
export function EtimsInvoices() {
  const { t } = useStaffT();
  const dateTime = useDateTime();
  const [status, setStatus] = useState<InvoiceStatus | ''>('');
  const list = trpc.admin.invoices.list.useQuery(status ? { status } : undefined);
  const utils = trpc.useUtils();
  const [notice, setNotice] = useState<string | null>(null);
  const [crediting, setCrediting] = useState<TListedInvoice | null>(null);
  const again = trpc.admin.invoices.sendAgain.useMutation({
    onSettled: () => void utils.admin.invoices.list.invalidate(),
  });
  const labels = statusLabels(t);
  const stock: Record<TListedInvoice['stock'], string> = {
    none: t('invoices.stockNone'),
    pending: t('invoices.stockPending'),
    done: t('invoices.stockDone'),
    failed: t('invoices.stockFailed'),
  };
  const canSendAgain = (i: TListedInvoice) =>
    i.status === 'pending' ||
    i.status === 'sent' ||
    i.status === 'failed' ||
    (i.status === 'signed' && i.stock === 'failed');
  return (
    <section className="card" aria-labelledby="etims-heading">
      <h3 id="etims-heading">{t('invoices.heading')}</h3>
      <p className="muted">{t('invoices.intro')}</p>
      {list.data ? <LinkState etims={list.data.etims} /> : null}
      {list.error ? <Alert>{errorMessage(list.error, t('invoices.failedToLoad'))}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {again.error ? <Alert>{errorMessage(again.error, t('invoices.failedToLoad'))}</Alert> : null}
      <SelectField
        label={t('invoices.filter')}
        value={status}
        onChange={(e) => setStatus(e.target.value as InvoiceStatus | '')}
      >
        <option value="">{t('invoices.all')}</option>
        {(['failed', 'pending', 'sent', 'signed', 'off'] as const).map((s) => (
          <option key={s} value={s}>
            {labels[s]}
          </option>
        ))}
      </SelectField>
      <DataList
        label={t('invoices.heading')}
        rows={list.data?.invoices ?? []}
        rowKey={(i) => i.id}
        empty={list.data ? t('invoices.none') : null}
        title={(i) => (
          <>
            {i.label} <Badge tone={STATUS_TONES[i.status]}>{labels[i.status]}</Badge>
          </>
        )}
        columns={[
          {
            header: t('invoices.invoice'),
            hideOnCard: true,
            cell: (i) => (
              <>
                {i.label}
                {i.original ? (
                  <span className="muted"> {t('invoices.forInvoice', { label: i.original })}</span>
                ) : null}
              </>
            ),
          },
          {
            header: t('invoices.customer'),
            cell: (i) => `${i.customer}${i.orderId ? ` · #${i.orderId}` : ''}`,
          },
          { header: t('invoices.total'), numeric: true, cell: (i) => <Money value={i.total} /> },
          { header: t('invoices.issued'), cell: (i) => dateTime(i.issuedAt, 'short') },
          {
            header: t('invoices.state'),
            hideOnCard: true,
            cell: (i) => <Badge tone={STATUS_TONES[i.status]}>{labels[i.status]}</Badge>,
          },
          {
            header: t('invoices.reason'),
            cell: (i) => (i.kraCode && i.kraCode !== '000' ? `${i.kraCode} ${i.kraMessage ?? ''}` : '—'),
          },
          { header: t('invoices.attempts'), numeric: true, cell: (i) => String(i.attempts) },
          {
            header: t('invoices.stock'),
            cell: (i) => `${stock[i.stock]}${i.stockMessage ? ` (${i.stockMessage})` : ''}`,
          },
        ]}
        actions={(i) => (
          <>
            {i.documentUrl ? (
              <a className="button button--small button--secondary" href={i.documentUrl} download>
                {t('invoices.document')}
              </a>
            ) : null}
            {canSendAgain(i) ? (
              <button
                type="button"
                className="button button--small"
                disabled={again.isPending}
                onClick={() =>
                  again.mutate(
                    { id: i.id },
                    { onSuccess: () => setNotice(t('invoices.queued', { label: i.label })) },
                  )
                }
              >
                {again.isPending && again.variables?.id === i.id
                  ? t('invoices.sendingAgain')
                  : t('invoices.sendAgain')}
              </button>
            ) : null}
            {i.kind === 'S' && i.orderId ? (
              <button
                type="button"
                className="button button--small button--secondary"
                onClick={() => setCrediting(i)}
              >
                {t('invoices.creditNote')}
              </button>
            ) : null}
          </>
        )}
      />
      {crediting ? <CreditNoteSheet invoice={crediting} onClose={() => setCrediting(null)} /> : null}
    </section>
  );
}
