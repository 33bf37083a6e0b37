import { TRPCClientError } from '@trpc/client';
import { useState } from 'react';
import { TRUCK_LOAD_TONNES } from '../../../shared/constants';
import { formatTonnes } from '../../../shared/domain/format';
import { type TAddAssignmentInput, ZAddAssignmentInput } from '../../../shared/schemas/admin-orders';
import type { TDriver, TTruck } from '../../../shared/schemas/fleet';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { useTranslation } from '../../i18n';
import { useStaffT } from '../../i18n/staff';
import { isQueued, queuedText, submitField } from '../../offline/outbox';
import { errorMessage } from '../../trpc';
import { useConfirm } from '../../ui/ConfirmDialog';
import { FormStatus, SelectField, TextField } from '../../ui/forms';
import { Sheet } from '../../ui/Sheet';
import { useZodForm } from '../../ui/useZodForm';
import { tonnesOrdered, tonnesScheduled, tonnesToSchedule } from './loads';
import { useOrdersRefresh } from './useOrdersRefresh';

/** The server's answer when an order is not paid yet: ADMIN may schedule anyway once confirmed. */
function isUnpaidRefusal(error: unknown): boolean {
  if (!(error instanceof TRPCClientError) || error.data?.httpStatus !== 409) return false;
  return (error.data?.details as { unpaid?: unknown } | undefined)?.unpaid === true;
}

/**
 * Assign truck: a truck and driver for the next load of an order, with the tonnes still to schedule in
 * view (the server refuses more). An order that is not paid yet asks first, then sends the override.
 */
export function AssignSheet({
  order,
  trucks,
  drivers,
  busyTrucks,
  onClose,
}: {
  order: TListedOrder;
  trucks: TTruck[];
  drivers: TDriver[];
  /** Trucks already out on a load (their plates get a note in the picker). */
  busyTrucks: ReadonlySet<string>;
  onClose: () => void;
}) {
  const { t } = useStaffT();
  const { t: tc } = useTranslation();
  const refresh = useOrdersRefresh();
  const confirm = useConfirm();
  const left = tonnesToSchedule(order);
  const capacityOf = (id: string) => trucks.find((t) => t.id === id)?.capacityT ?? TRUCK_LOAD_TONNES;
  const suggest = (truckId: string) =>
    String(Math.min(left, truckId ? capacityOf(truckId) : TRUCK_LOAD_TONNES));
  const form = useZodForm({
    schema: ZAddAssignmentInput,
    initial: { truckId: '', driverId: '', tonnes: suggest(''), scheduledAt: '' },
    toInput: (v) => ({
      id: order.id,
      truckId: v.truckId,
      driverId: v.driverId,
      tonnes: v.tonnes,
      scheduledAt: v.scheduledAt ? new Date(v.scheduledAt).toISOString() : undefined,
    }),
  });
  // Through the device outbox (client/offline/outbox.ts): without signal the assignment is kept on the
  // phone (it survives a reload) and sent on reconnect, once, by its Idempotency-Key.
  const [sending, setSending] = useState(false);
  const [overrideReason, setOverrideReason] = useState('');
  const chosen = trucks.find((t) => t.id === form.values.truckId);
  const legalPayload = chosen?.legalPayloadT ?? null;
  const overLegal = legalPayload !== null && Number(form.values.tonnes) > legalPayload;

  async function send(input: TAddAssignmentInput, confirmUnpaid: boolean) {
    setSending(true);
    try {
      const withOverride =
        overLegal && overrideReason.trim()
          ? { ...input, overrideLegalLimit: true, overrideReason: overrideReason.trim() }
          : input;
      const truck = trucks.find((x) => x.id === input.truckId);
      await submitField(
        'assign',
        confirmUnpaid ? { ...withOverride, confirmUnpaid: true } : withOverride,
        // The outbox keeps this line as written: the language of the moment it was entered.
        t('assign.outboxLine', {
          id: order.id,
          truck: truck?.plate || input.truckId,
          tonnes: formatTonnes(Number(input.tonnes)),
        }),
      );
      refresh();
      onClose();
    } catch (error) {
      if (isQueued(error)) {
        form.report('success', queuedText(error, tc));
        return;
      }
      if (!confirmUnpaid && isUnpaidRefusal(error)) {
        const truck = trucks.find((t) => t.id === input.truckId);
        confirm.ask({
          title: t('assign.unpaidTitle'),
          body: (
            <>
              <p>
                {t('assign.unpaidBody', {
                  id: order.id,
                  status: order.payment_status,
                  truck: truck?.plate || input.truckId,
                  name: order.name,
                })}
              </p>
              <p>{t('assign.unpaidTrust')}</p>
            </>
          ),
          confirmLabel: t('assign.scheduleAnyway'),
          cancelLabel: t('assign.notYet'),
          onConfirm: () => void send(input, true),
        });
        return;
      }
      form.report('error', errorMessage(error, t('assign.failed')));
    } finally {
      setSending(false);
    }
  }

  const truckField = form.field('truckId');
  return (
    <Sheet title={t('assign.title', { id: order.id })} onClose={onClose}>
      <p className="order-site">{order.site}</p>
      <div className="callout" aria-live="polite">
        <strong>{formatTonnes(left)}</strong> {t('assign.stillToSchedule')}
        <div className="muted">
          {t('assign.orderedOnLoads', {
            ordered: formatTonnes(tonnesOrdered(order)),
            onLoads: formatTonnes(tonnesScheduled(order)),
          })}
        </div>
      </div>
      <form noValidate onSubmit={form.submit((input) => void send(input, false))}>
        <FormStatus message={form.message} />
        <SelectField
          label={t('common.truck')}
          {...truckField}
          onChange={(e) => {
            const id = e.target.value;
            const primary = trucks.find((t) => t.id === id)?.primaryDriverId ?? '';
            form.patch({
              truckId: id,
              tonnes: suggest(id),
              ...(form.values.driverId || !primary ? {} : { driverId: primary }),
            });
          }}
        >
          <option value="">{t('assign.pickTruck')}</option>
          {trucks.map((truck) => (
            <option key={truck.id} value={truck.id}>
              {truck.plate || truck.id} ({formatTonnes(truck.capacityT)})
              {busyTrucks.has(truck.id) ? ` · ${t('assign.onLoad')}` : ''}
            </option>
          ))}
        </SelectField>
        {chosen ? (
          <p className="muted" aria-live="polite">
            {legalPayload === null
              ? t('assign.noTare', { axles: chosen.axles })
              : t('assign.legalPayload', {
                  payload: formatTonnes(legalPayload),
                  axles: chosen.axles,
                  tare: formatTonnes(chosen.tareT ?? 0),
                })}
          </p>
        ) : null}
        <SelectField label={t('common.driver')} {...form.field('driverId')}>
          <option value="">{t('assign.pickDriver')}</option>
          {drivers.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        <div className="grid">
          <TextField
            label={t('assign.tonnes')}
            type="number"
            inputMode="decimal"
            min={0.5}
            step="0.5"
            max={Math.min(left, capacityOf(form.values.truckId))}
            {...form.field('tonnes')}
          />
          <TextField label={t('assign.scheduledFor')} type="datetime-local" {...form.field('scheduledAt')} />
        </div>
        {overLegal ? (
          <TextField
            label={t('assign.overrideReason')}
            hint={t('assign.overrideHint')}
            value={overrideReason}
            onChange={(e) => setOverrideReason(e.target.value)}
          />
        ) : null}
        <div className="sheet__actions">
          <button type="submit" className="button" disabled={sending}>
            {sending ? t('assign.scheduling') : t('assign.schedule')}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </div>
      </form>
      {confirm.dialog}
    </Sheet>
  );
}
