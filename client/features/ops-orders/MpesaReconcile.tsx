import { useState } from 'react';
import type { TMatchedPayment, TUnmatchedPayment } from '../../../shared/schemas/mpesa';
import { useDateTime } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Alert, TextField } from '../../ui/forms';
import { Money } from '../../ui/Money';

/** One unmatched payment, with the order number to match it to by hand. */
function UnmatchedRow({ p, onMatched }: { p: TUnmatchedPayment; onMatched: (m: TMatchedPayment) => void }) {
  const { t } = useStaffT();
  const dateTime = useDateTime();
  const utils = trpc.useUtils();
  const [orderId, setOrderId] = useState('');
  const match = trpc.admin.payments.match.useMutation({
    onSuccess: (m) => {
      onMatched(m);
      void utils.admin.payments.unreconciled.invalidate();
      void utils.admin.orders.invalidate();
    },
  });
  return (
    <li className="mpesa-row">
      <span>
        <strong className="mono">{p.receipt}</strong> <Money value={p.amount} strong />
      </span>
      <span className="muted">
        {t('mpesa.accountTyped')} <span className="mono">{p.accountRef || t('mpesa.noAccount')}</span>
        {p.payerName ? ` · ${p.payerName}` : ''}
        {p.payerPhone ? ` · ${p.payerPhone}` : ''} · {dateTime(p.paidAt ?? p.receivedAt, 'short')}
      </span>
      {match.error ? <Alert>{errorMessage(match.error, t('mpesa.matchFailed'))}</Alert> : null}
      <form
        className="mpesa-row__match"
        onSubmit={(e) => {
          e.preventDefault();
          match.mutate({ id: p.id, orderId: Number(orderId.replace(/\D/g, '')) || 0 });
        }}
      >
        <TextField
          label={t('mpesa.orderNumberFor', { receipt: p.receipt })}
          inputMode="numeric"
          placeholder="42"
          value={orderId}
          onChange={(e) => setOrderId(e.target.value)}
        />
        <button type="submit" className="button" disabled={match.isPending || orderId.trim() === ''}>
          {t('mpesa.match')}
        </button>
      </form>
    </li>
  );
}

/**
 * The Orders tab's M-Pesa view: payments whose account number is no order's (matched by hand, who and
 * when kept), prompts still without a result, callbacks not processed, and credits to refund or carry.
 */
export function MpesaReconcile() {
  const { t } = useStaffT();
  const dateTime = useDateTime();
  const open = trpc.admin.payments.unreconciled.useQuery(undefined, { refetchInterval: 60_000 });
  const [matched, setMatched] = useState<TMatchedPayment[]>([]);
  const data = open.data;
  if (!data) return open.error ? <Alert>{errorMessage(open.error, t('mpesa.loadFailed'))}</Alert> : null;
  const nothing =
    data.unmatched.length + data.prompts.length + data.callbacks.length + data.credits.length === 0;
  return (
    <section className="card mpesa-reconcile" aria-labelledby="mpesa-heading">
      <h3 id="mpesa-heading">{t('mpesa.heading')}</h3>
      {nothing && matched.length === 0 ? <p className="muted">{t('mpesa.allReconciled')}</p> : null}
      {matched.map((m) => (
        <Alert key={m.id} tone="success">
          {t('mpesa.matchedTo', { account: m.accountRef })} (<Money value={m.amount} />){' '}
          {t('mpesa.matchedBy', { name: m.matchedBy.name, at: dateTime(m.matchedAt, 'short') })}
        </Alert>
      ))}
      <h4 id="mpesa-unmatched">{t('mpesa.unmatched')}</h4>
      {data.unmatched.length === 0 ? (
        <p className="muted">{t('mpesa.none')}</p>
      ) : (
        <ul className="mpesa-list" aria-labelledby="mpesa-unmatched">
          {data.unmatched.map((p) => (
            <UnmatchedRow key={p.id} p={p} onMatched={(m) => setMatched((all) => [m, ...all])} />
          ))}
        </ul>
      )}
      {data.prompts.length > 0 ? (
        <>
          <h4 id="mpesa-prompts">{t('mpesa.prompts')}</h4>
          <ul className="mpesa-list" aria-labelledby="mpesa-prompts">
            {data.prompts.map((s) => (
              <li key={s.id} className="mpesa-row">
                <span>
                  <strong className="mono">{s.accountRef}</strong> <Money value={s.amount} /> · {s.phone}
                </span>
                <span className="muted">
                  {t('mpesa.sent', { at: dateTime(s.sentAt, 'short') })} ·{' '}
                  {s.queriedAt
                    ? s.lastAnswer
                      ? t('mpesa.askedAnswer', {
                          count: s.queryCount,
                          at: dateTime(s.queriedAt, 'short'),
                          answer: s.lastAnswer,
                        })
                      : t('mpesa.asked', { count: s.queryCount, at: dateTime(s.queriedAt, 'short') })
                    : t('mpesa.notAsked')}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {data.callbacks.length > 0 ? (
        <>
          <h4 id="mpesa-callbacks">{t('mpesa.callbacks')}</h4>
          <ul className="mpesa-list" aria-labelledby="mpesa-callbacks">
            {data.callbacks.map((c) => (
              <li key={c.id} className="mpesa-row">
                <span>{t('mpesa.received', { kind: c.kind, at: dateTime(c.receivedAt, 'short') })}</span>
                {c.error ? <span className="muted">{c.error}</span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {data.credits.length > 0 ? (
        <>
          <h4 id="mpesa-credits">{t('mpesa.credits')}</h4>
          <ul className="mpesa-list" aria-labelledby="mpesa-credits">
            {data.credits.map((c) => (
              <li key={c.orderId} className="mpesa-row">
                <span>
                  <strong className="mono">{c.accountRef}</strong> {c.name} ·{' '}
                  <Money value={c.credit} strong />
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
