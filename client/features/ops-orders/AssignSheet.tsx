import { TRPCClientError } from '@trpc/client';
import { useState } from 'react';
import { formatTonnes } from '../../../shared/domain/format';
import { type TAddAssignmentInput, ZAddAssignmentInput } from '../../../shared/schemas/admin-orders';
import type { TDriver, TTruck } from '../../../shared/schemas/fleet';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { errorMessage, trpc } from '../../trpc';
import { useConfirm } from '../../ui/ConfirmDialog';
import { FormStatus, SelectField, TextField } from '../../ui/forms';
import { Sheet } from '../../ui/Sheet';
import { useZodForm } from '../../ui/useZodForm';
import { useOrdersRefresh } from './LoadList';
import { tonnesOrdered, tonnesScheduled, tonnesToSchedule } from './loads';

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
  const refresh = useOrdersRefresh();
  const confirm = useConfirm();
  const left = tonnesToSchedule(order);
  const capacityOf = (id: string) => trucks.find((t) => t.id === id)?.capacityT ?? 20;
  const suggest = (truckId: string) => String(Math.min(left, truckId ? capacityOf(truckId) : 20));
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
  const add = trpc.admin.orders.addAssignment.useMutation();
  const [overrideReason, setOverrideReason] = useState('');
  const chosen = trucks.find((t) => t.id === form.values.truckId);
  const legalPayload = chosen?.legalPayloadT ?? null;
  const overLegal = legalPayload !== null && Number(form.values.tonnes) > legalPayload;

  async function send(input: TAddAssignmentInput, confirmUnpaid: boolean) {
    try {
      const withOverride =
        overLegal && overrideReason.trim()
          ? { ...input, overrideLegalLimit: true, overrideReason: overrideReason.trim() }
          : input;
      await add.mutateAsync(confirmUnpaid ? { ...withOverride, confirmUnpaid: true } : withOverride);
      refresh();
      onClose();
    } catch (error) {
      if (!confirmUnpaid && isUnpaidRefusal(error)) {
        const truck = trucks.find((t) => t.id === input.truckId);
        confirm.ask({
          title: 'This order is not paid yet. Schedule it anyway?',
          body: (
            <>
              <p>
                Order #{order.id} has no confirmed payment (payment {order.payment_status}). The load on{' '}
                {truck?.plate || input.truckId} is scheduled now and the order is marked “scheduled before
                payment” until {order.name} pays.
              </p>
              <p>Only schedule before payment for a customer you trust to pay.</p>
            </>
          ),
          confirmLabel: 'Schedule before payment',
          cancelLabel: 'Not yet',
          onConfirm: () => void send(input, true),
        });
        return;
      }
      form.report('error', errorMessage(error, 'Failed to add assignment.'));
    }
  }

  const truckField = form.field('truckId');
  return (
    <Sheet title={`Assign truck · order #${order.id}`} onClose={onClose}>
      <p className="order-site">{order.site}</p>
      <div className="callout" aria-live="polite">
        <strong>{formatTonnes(left)}</strong> still to schedule
        <div className="muted">
          {formatTonnes(tonnesOrdered(order))} ordered · {formatTonnes(tonnesScheduled(order))} on loads
        </div>
      </div>
      <form noValidate onSubmit={form.submit((input) => void send(input, false))}>
        <FormStatus message={form.message} />
        <SelectField
          label="Truck"
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
          <option value="">Pick a truck…</option>
          {trucks.map((t) => (
            <option key={t.id} value={t.id}>
              {t.plate || t.id} ({formatTonnes(t.capacityT)}){busyTrucks.has(t.id) ? ' · on a load' : ''}
            </option>
          ))}
        </SelectField>
        {chosen ? (
          <p className="muted" aria-live="polite">
            {legalPayload === null
              ? `${chosen.axles} axles; record its empty weight to check the legal payload.`
              : `Legal payload ${formatTonnes(legalPayload)} (${chosen.axles} axles, ${formatTonnes(chosen.tareT ?? 0)} empty).`}
          </p>
        ) : null}
        <SelectField label="Driver" {...form.field('driverId')}>
          <option value="">Pick a driver…</option>
          {drivers.map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        <div className="grid">
          <TextField
            label="Tonnes"
            type="number"
            inputMode="decimal"
            min={0.5}
            step="0.5"
            max={Math.min(left, capacityOf(form.values.truckId))}
            {...form.field('tonnes')}
          />
          <TextField label="Scheduled for (optional)" type="datetime-local" {...form.field('scheduledAt')} />
        </div>
        {overLegal ? (
          <TextField
            label="Reason to load above the legal limit"
            hint="Over the legal gross weight: the load is refused unless you give a reason (recorded on the load)."
            value={overrideReason}
            onChange={(e) => setOverrideReason(e.target.value)}
          />
        ) : null}
        <div className="sheet__actions">
          <button type="submit" className="button" disabled={add.isPending}>
            {add.isPending ? 'Scheduling…' : 'Schedule load'}
          </button>
          <button type="button" className="button button--secondary" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
      {confirm.dialog}
    </Sheet>
  );
}
