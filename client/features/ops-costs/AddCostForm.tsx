import { TRPCClientError } from '@trpc/client';
import { type FormEvent, useState } from 'react';
import { formatKesExact } from '../../../shared/domain/format';
import { COST_TYPES, type TCost } from '../../../shared/schemas/money';
import { errorMessage, trpc } from '../../trpc';
import { SelectField, TextField } from '../../ui/forms';
import { DuplicatePanel } from './DuplicatePanel';

const when = new Intl.DateTimeFormat('en-KE', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Africa/Nairobi',
});

interface ExistingCost {
  id: number;
  truck_id: string | null;
  amount: number;
  incurred_at: string;
  description: string | null;
}

type Status = { kind: 'idle' } | { kind: 'success'; text: string } | { kind: 'error'; text: string };

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
  const [form, setForm] = useState(() =>
    editing
      ? {
          type: editing.type,
          truckId: editing.truck_id ?? '',
          amount: String(editing.amount),
          description: editing.description,
        }
      : { type: '', truckId: '', amount: '', description: '' },
  );
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [duplicate, setDuplicate] = useState<{ message: string; existing: ExistingCost } | null>(null);
  const simplified = role === 'OPS';
  const msg = {
    type: simplified ? 'Select a cost type.' : 'Cost type is required.',
    truck: simplified ? 'Select a truck for this cost.' : 'Select the truck for this cost.',
    description: simplified ? 'Provide a short description for this cost.' : 'Provide a short description.',
  };
  const create = trpc.admin.costs.create.useMutation();
  const update = trpc.admin.costs.update.useMutation();
  const plateOf = (id: string | null) => trucks.data?.find((t) => t.id === id)?.plate ?? id ?? '-';

  const payload = () => ({
    truckId: form.truckId,
    type: form.type as (typeof COST_TYPES)[number],
    amount: Number(form.amount),
    description: form.description,
  });

  function saved(text: string) {
    setStatus({ kind: 'success', text });
    setDuplicate(null);
    setForm({ type: '', truckId: '', amount: '', description: '' });
    void utils.admin.costs.list.invalidate();
    void utils.admin.dashboard.get.invalidate();
    onDone();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setStatus({ kind: 'idle' });
    if (!form.type) return setStatus({ kind: 'error', text: msg.type });
    if (!form.truckId) return setStatus({ kind: 'error', text: msg.truck });
    if (!(Number(form.amount) > 0))
      return setStatus({ kind: 'error', text: 'Enter an amount greater than zero.' });
    if (!form.description.trim()) return setStatus({ kind: 'error', text: msg.description });
    try {
      if (editing) {
        await update.mutateAsync({ id: editing.id, ...payload() });
        saved('Cost record updated.');
      } else {
        await create.mutateAsync(payload());
        saved('Cost recorded.');
      }
    } catch (err) {
      const details =
        err instanceof TRPCClientError
          ? (err.data?.details as
              | { duplicate?: boolean; message?: string; existing?: ExistingCost }
              | undefined)
          : undefined;
      if (!editing && details?.duplicate && details.existing) {
        setDuplicate({
          message: details.message || 'Potential duplicate cost detected.',
          existing: details.existing,
        });
        return;
      }
      setStatus({
        kind: 'error',
        text: errorMessage(err, editing ? 'Failed to save cost record.' : 'Failed to record cost.'),
      });
    }
  }

  async function confirmDuplicate() {
    if (!duplicate) return;
    try {
      await create.mutateAsync({ ...payload(), overrideDuplicate: true, duplicateOf: duplicate.existing.id });
      saved('Cost recorded and flagged as a duplicate for audit.');
    } catch (err) {
      setDuplicate(null);
      setStatus({ kind: 'error', text: errorMessage(err, 'Failed to confirm duplicate cost.') });
    }
  }

  return (
    <form className="card" onSubmit={submit} noValidate>
      <h3>{editing ? `Edit cost #${editing.id}` : 'Add cost'}</h3>
      {status.kind === 'error' ? (
        <div className="alert alert--error" role="alert">
          {status.text}
        </div>
      ) : null}
      {status.kind === 'success' ? (
        <div className="alert alert--success" role="status">
          {status.text}
        </div>
      ) : null}
      <div className="grid">
        <SelectField
          label="Type"
          value={form.type}
          onChange={(e) => setForm((f) => ({ ...f, type: e.target.value }))}
        >
          <option value="">Select type…</option>
          {COST_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
        <SelectField
          label="Truck"
          value={form.truckId}
          onChange={(e) => setForm((f) => ({ ...f, truckId: e.target.value }))}
        >
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
          value={form.amount}
          onChange={(e) => setForm((f) => ({ ...f, amount: e.target.value }))}
        />
        <TextField
          label="Description"
          value={form.description}
          onChange={(e) => setForm((f) => ({ ...f, description: e.target.value }))}
        />
      </div>
      {duplicate ? (
        <DuplicatePanel
          title="Possible duplicate detected"
          message={duplicate.message}
          explanation="An existing cost entry matches this submission. Confirm if it is intentional."
          existing={{
            label: `Existing entry #${duplicate.existing.id}`,
            rows: [
              ['Truck', plateOf(duplicate.existing.truck_id)],
              ['Amount', formatKesExact(duplicate.existing.amount)],
              ['Incurred', when.format(new Date(duplicate.existing.incurred_at))],
              ['Description', duplicate.existing.description || 'No description'],
            ],
          }}
          incoming={{
            label: 'New entry',
            rows: [
              ['Truck', plateOf(form.truckId)],
              ['Amount', formatKesExact(Number(form.amount))],
              ['Description', form.description || 'No description'],
            ],
          }}
          busy={create.isPending}
          onConfirm={confirmDuplicate}
          onCancel={() => setDuplicate(null)}
        />
      ) : null}
      <div className="button-row">
        <button
          type="submit"
          className="button"
          disabled={create.isPending || update.isPending || duplicate !== null}
        >
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
