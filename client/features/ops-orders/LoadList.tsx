import { useState } from 'react';
import { formatTonnes } from '../../../shared/domain/format';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { useFormat } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Badge, loadTone } from '../../ui/Badge';
import { useConfirm } from '../../ui/ConfirmDialog';
import { useAuthedImage } from '../../ui/useAuthedImage';
import { useDeliverSheet } from './DeliverSheet';
import { isActive, tonnesToSchedule, truckOf } from './loads';
import { useOrdersRefresh } from './useOrdersRefresh';

type Load = TListedOrder['assignments'][number];

/** A load that went out before the order's payment was confirmed (ADMIN's override). */
export const beforePayment = (load: Load) =>
  load.status !== 'CANCELLED' &&
  (load as { scheduledBeforePayment?: boolean }).scheduledBeforePayment === true;

/**
 * What operations checks of a delivered load: the proof's photo, the code or the receiver's name (flagged
 * when the customer gave no code), who recorded it and when; or that it was marked delivered by hand.
 */
function ProofLine({ load }: { load: Load }) {
  const { t } = useStaffT();
  const { dateTime } = useFormat();
  const proof = load.proof;
  const photo = useAuthedImage(proof ? proof.photoUrl.replace(/^\/api\/uploads\//, '') : null);
  if (load.status !== 'DELIVERED') return null;
  if (!proof)
    return load.withoutProof ? (
      <div className="load__proof">
        <Badge tone="warn">{t('loads.withoutProof')}</Badge>{' '}
        <span className="muted">{t('loads.byHand')}</span>
      </div>
    ) : null;
  return (
    <div className="load__proof">
      {photo ? (
        <a href={photo} target="_blank" rel="noreferrer">
          <img
            src={photo}
            alt={t('loads.proofPhoto', { truck: truckOf(load) })}
            className="load__proof-photo"
          />
        </a>
      ) : null}
      <div>
        {proof.method === 'code' ? (
          <Badge tone="good">{t('loads.codeGiven')}</Badge>
        ) : (
          <Badge tone="warn">{t('loads.noCode')}</Badge>
        )}{' '}
        {proof.receiverName ? <span>{t('loads.receivedBy', { name: proof.receiverName })}</span> : null}
        <div className="muted">
          {proof.recordedBy ? `${proof.recordedBy}, ` : ''}
          {dateTime(proof.recordedAt)}
        </div>
      </div>
    </div>
  );
}

/**
 * An order's loads with their moves: In transit, Mark delivered (with the proof, or by hand with a
 * reason), and Cancel load after a confirmation that says what cancelling does. `leaveOut` is the load whose delivery the card's main button offers.
 */
export function LoadList({ order, leaveOut }: { order: TListedOrder; leaveOut?: number }) {
  const { t } = useStaffT();
  const { loadStatus } = useFormat();
  const refresh = useOrdersRefresh();
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirm();
  const delivery = useDeliverSheet(order);
  const move = trpc.admin.orders.setAssignmentStatus.useMutation({
    onSuccess: () => {
      setError(null);
      refresh();
    },
    onError: (e) => setError(errorMessage(e, t('orders.updateFailed'))),
  });

  function cancel(load: Load) {
    const left = tonnesToSchedule(order) + load.tonnes;
    confirm.ask({
      title: t('loads.cancelTitle'),
      body: (
        <>
          <p>
            <strong>
              {truckOf(load)} · {formatTonnes(load.tonnes)}
            </strong>{' '}
            {t('loads.cancelWhat', { id: order.id, site: order.site })}
          </p>
          <p>
            {t('loads.cancelEffect', {
              driver: load.driver ?? t('loads.theDriver'),
              tonnes: formatTonnes(left),
            })}
          </p>
        </>
      ),
      confirmLabel: t('loads.cancelLoad'),
      cancelLabel: t('loads.keepLoad'),
      onConfirm: () => move.mutate({ id: load.id, status: 'CANCELLED' }),
    });
  }

  if (order.assignments.length === 0) return <p className="muted">{t('loads.none')}</p>;
  return (
    <>
      <ul className="loads" aria-label={t('loads.loadsOf', { id: order.id })}>
        {order.assignments.map((a) => (
          <li key={a.id} className="load">
            <div className="load__line">
              {truckOf(a)} · {formatTonnes(a.tonnes)} · {a.driver ?? t('loads.noDriver')}{' '}
              <Badge tone={loadTone(a.status)}>{loadStatus(a.status)}</Badge>
            </div>
            {a.outsideWindow && a.status !== 'CANCELLED' ? (
              <div className="load__flag">
                <Badge tone="warn">{t('loads.outsideHours')}</Badge>
                {order.overnight_pour ? (
                  <span className="muted"> {t('loads.overnightRequested')}</span>
                ) : null}
              </div>
            ) : null}
            {a.overrideReason ? (
              <div className="load__flag">
                <Badge tone="bad">{t('loads.overLegal')}</Badge>{' '}
                <span>{t('loads.adminOverride', { reason: a.overrideReason })}</span>
              </div>
            ) : null}
            <ProofLine load={a} />
            {isActive(a) ? (
              <div className="row-actions">
                {a.status === 'SCHEDULED' ? (
                  <button
                    type="button"
                    className="button button--small button--secondary"
                    aria-label={t('loads.inTransitFor', { truck: truckOf(a) })}
                    disabled={move.isPending}
                    onClick={() => move.mutate({ id: a.id, status: 'IN_TRANSIT' })}
                  >
                    {t('loads.inTransit')}
                  </button>
                ) : null}
                {a.id !== leaveOut ? (
                  <button
                    type="button"
                    className="button button--small"
                    aria-label={t('loads.markDeliveredFor', { truck: truckOf(a) })}
                    disabled={move.isPending}
                    onClick={() => delivery.deliver(a)}
                  >
                    {t('loads.markDelivered')}
                  </button>
                ) : null}
                <button
                  type="button"
                  className="button button--small button--secondary"
                  aria-label={t('loads.cancelLoadFor', { truck: truckOf(a) })}
                  disabled={move.isPending}
                  onClick={() => cancel(a)}
                >
                  {t('loads.cancelLoad')}
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      {error ? (
        <div role="alert" className="field__error">
          {error}
        </div>
      ) : null}
      {confirm.dialog}
      {delivery.sheet}
    </>
  );
}
