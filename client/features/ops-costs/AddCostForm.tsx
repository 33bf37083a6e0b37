import { formatDateTime, formatMoney } from '../../../shared/domain/format';
import {
  COST_TYPES,
  MONEY_MESSAGES,
  type TCost,
  type TCostInput,
  ZCostDuplicateOf,
  ZCostInput,
} from '../../../shared/schemas/money';
import { isQueued, submitField } from '../../offline/outbox';
import { errorMessage, trpc } from '../../trpc';
import { FormStatus, SelectField, TextField } from '../../ui/forms';
import { useDuplicateConfirm } from '../../ui/useDuplicateConfirm';
import { useZodForm } from '../../ui/useZodForm';
import { DuplicatePanel } from './DuplicatePanel';

const EMPTY = { type: '', truckId: '', amount: '', description: '' };

/** The spec's simplified wording for OPS (the amount message is the same for both). */
const OPS_MESSAGES = {
  type: 'Select a cost type.',
  truckId: 'Select a truck for this cost.',
  description: 'Provide a short description for this cost.',
};

/** The add-cost form (spec section 2): ADMIN wording, or OPS' simplified wording. Editing skips the duplicate panel. */
export function AddCostForm({
  role,
  editing,
  onDone,
}: {
  role: 'ADMIN' | 'OPS';
  editing: TCost | null;
  onDone: () => void;
}) {
  const utils = trpc.useUtils();
  const trucks = trpc.admin.trucks.list.useQuery();
  const form = useZodForm({
    schema: ZCostInput,
    initial: editing
      ? {
          type: editing.type,
          truckId: editing.truck_id ?? '',
          amount: String(editing.amount),
          description: editing.description,
        }
      : EMPTY,
    messages: role === 'OPS' ? OPS_MESSAGES : undefined,
  });
  const update = trpc.admin.costs.update.useMutation();
  const plateOf = (id: string | null) => trucks.data?.find((t) => t.id === id)?.plate ?? id ?? '-';

  function saved(text: string) {
    form.reset(EMPTY);
    form.report('success', text);
    void utils.admin.costs.list.invalidate();
    void utils.admin.dashboard.get.invalidate();
    onDone();
  }

  const dup = useDuplicateConfirm({
    existing: ZCostDuplicateOf,
    fallbackMessage: MONEY_MESSAGES.costDuplicate,
    // Through the device outbox (client/offline/outbox.ts): kept on the phone when it cannot be sent.
    send: (input: TCostInput) =>
      submitField<TCost>(
        'cost',
        input,
        `${input.type} · ${plateOf(input.truckId)} · ${formatMoney(input.amount)}`,
      ),
    onSaved: (_, flagged) =>
      saved(flagged ? 'Cost recorded and flagged as a duplicate for audit.' : 'Cost recorded.'),
    onError: (err, confirming) => {
      if (isQueued(err)) {
        form.reset(EMPTY);
        return form.report('success', err.message);
      }
      form.report(
        'error',
        errorMessage(err, confirming ? 'Failed to confirm duplicate cost.' : 'Failed to record cost.'),
      );
    },
  });

  const submit = form.submit(async (input) => {
    if (!editing) return void dup.submit(input);
    try {
      await update.mutateAsync({ ...input, id: editing.id });
      saved('Cost record updated.');
    } catch (err) {
      form.report('error', errorMessage(err, 'Failed to save cost record.'));
    }
  });

  const d = dup.duplicate;
  return (
    <form className="card" onSubmit={submit} noValidate>
      <h3>{editing ? `Edit cost #${editing.id}` : 'Add cost'}</h3>
      <FormStatus message={form.message} />
      <div className="grid">
        <SelectField label="Type" {...form.field('type')}>
          <option value="">Select type…</option>
          {COST_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <SelectField label="Truck" {...form.field('truckId')}>
          <option value="">Select truck…</option>
          {(trucks.data ?? []).map((t) => (
            <option key={t.id} value={t.id}>
              {t.plate || t.id}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Amount (KES)"
          type="number"
          min={0.01}
          step="0.01"
          inputMode="decimal"
          {...form.field('amount')}
        />
        <TextField label="Description" {...form.field('description')} />
      </div>
      {d ? (
        <DuplicatePanel
          title="Possible duplicate detected"
          message={d.message}
          explanation="An existing cost entry matches this submission. Confirm if it is intentional."
          existing={{
            label: `Existing entry #${d.existing.id}`,
            rows: [
              ['Truck', plateOf(d.existing.truck_id)],
              ['Amount', formatMoney(d.existing.amount)],
              ['Incurred', formatDateTime(d.existing.incurred_at)],
              ['Description', d.existing.description || 'No description'],
            ],
          }}
          incoming={{
            label: 'New entry',
            rows: [
              ['Truck', plateOf(d.input.truckId)],
              ['Amount', formatMoney(d.input.amount)],
              ['Description', d.input.description || 'No description'],
            ],
          }}
          busy={dup.busy}
          onConfirm={dup.confirm}
          onCancel={dup.cancel}
        />
      ) : null}
      <div className="button-row">
        <button type="submit" className="button" disabled={dup.busy || update.isPending || d !== null}>
          {editing ? 'Save' : 'Add'}
        </button>
        {editing ? (
          <button type="button" className="button button--secondary" onClick={onDone}>
            Cancel edit
          </button>
        ) : null}
      </div>
    </form>
  );
}
