import { type FormEvent, useState } from 'react';
import { formatTonnes } from '../../../shared/domain/format';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Alert, TextAreaField } from '../../ui/forms';
import { Sheet } from '../../ui/Sheet';
import { DeliveryProofSheet } from '../driver/DeliveryProofSheet';
import { truckOf } from './loads';
import { useOrdersRefresh } from './useOrdersRefresh';

type Load = TListedOrder['assignments'][number];

/**
 * Operations delivers a load with its proof, as the driver does (a photo with the customer's code or the
 * receiver's name). Only from there, and only with a reason, does a load get marked delivered by hand:
 * the second sheet says what that means and takes the reason the server requires.
 */
function DeliverSheet({ order, load, onClose }: { order: TListedOrder; load: Load; onClose: () => void }) {
  const { t } = useStaffT();
  const refresh = useOrdersRefresh();
  const [byHand, setByHand] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const move = trpc.admin.orders.setAssignmentStatus.useMutation({
    onSuccess: () => {
      refresh();
      onClose();
    },
  });
  const done = () => {
    refresh();
    onClose();
  };

  if (!byHand)
    return (
      <DeliveryProofSheet load={{ id: load.id, site: order.site }} onClose={onClose} onDelivered={done}>
        <p className="muted deliver__by-hand">
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => setByHand(true)}
          >
            {t('loads.byHandOpen')}
          </button>
        </p>
      </DeliveryProofSheet>
    );

  function submit(e: FormEvent) {
    e.preventDefault();
    setProblem(null);
    if (!reason.trim()) return setProblem(t('loads.byHandReasonMissing'));
    move.mutate({ id: load.id, status: 'DELIVERED', reason: reason.trim() });
  }
  const error = problem ?? (move.error ? errorMessage(move.error, t('orders.updateFailed')) : null);
  return (
    <Sheet title={t('loads.byHandTitle', { truck: truckOf(load) })} onClose={onClose} alert>
      <form onSubmit={submit} noValidate>
        <div className="confirm__body">
          <p>
            <strong>
              {truckOf(load)} · {formatTonnes(load.tonnes)}
            </strong>{' '}
            {t('loads.byHandWhat', { id: order.id, site: order.site })}
          </p>
          <p>{t('loads.byHandEffect')}</p>
        </div>
        <TextAreaField
          label={t('loads.byHandReason')}
          value={reason}
          maxLength={300}
          rows={2}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={problem ? true : undefined}
        />
        {error ? <Alert>{error}</Alert> : null}
        <div className="sheet__actions">
          <button type="submit" className="button button--danger" disabled={move.isPending}>
            {t('loads.byHandConfirm')}
          </button>
          <button type="button" className="button button--secondary" onClick={() => setByHand(false)}>
            {t('loads.byHandBack')}
          </button>
        </div>
      </form>
    </Sheet>
  );
}

/** `deliver(load)` opens the delivery of one of the order's loads; render `sheet` with the order. */
export function useDeliverSheet(order: TListedOrder) {
  const [loadId, setLoadId] = useState<number | null>(null);
  // The sheet follows the load as the order list refreshes.
  const load = loadId === null ? undefined : order.assignments.find((a) => a.id === loadId);
  return {
    deliver: (l: Load) => setLoadId(l.id),
    sheet: load ? <DeliverSheet order={order} load={load} onClose={() => setLoadId(null)} /> : null,
  };
}
