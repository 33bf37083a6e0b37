import { formatMoney } from '../../../shared/domain/format';
import { COST_TYPES } from '../../../shared/enums';
import {
  MONEY_MESSAGES,
  type TCost,
  type TCostInput,
  ZCostDuplicateOf,
  ZCostInput,
} from '../../../shared/schemas/money';
import { useDateTime } from '../../i18n/format';
import { costTypeLabel, useStaffT } from '../../i18n/staff';
import { isQueued, submitField } from '../../offline/outbox';
import { errorMessage, trpc } from '../../trpc';
import { FormStatus, SelectField, TextField } from '../../ui/forms';
import { useDuplicateConfirm } from '../../ui/useDuplicateConfirm';
import { useZodForm } from '../../ui/useZodForm';
import { DuplicatePanel } from './DuplicatePanel';

const EMPTY = { type: '', truckId: '', amount: '', description: '' };

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
  const { t, i18n } = useStaffT();
  const dateTime = useDateTime();
  const sw = i18n.language === 'sw';
  // The spec's simplified wording for OPS (the amount message is the same for both); ADMIN gets the
  // schema's, in Kiswahili when the screens are.
  const messages =
    role === 'OPS'
      ? {
          type: t('costs.opsType'),
          truckId: t('costs.opsTruck'),
          description: t('costs.opsDescription'),
          ...(sw ? { amount: t('costs.validAmount') } : {}),
        }
      : sw
        ? {
            type: t('costs.validType'),
            truckId: t('costs.validTruck'),
            amount: t('costs.validAmount'),
            description: t('costs.validDescription'),
          }
        : undefined;
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
    messages,
  });
  const update = trpc.admin.costs.update.useMutation();
  const plateOf = (id: string | null) => trucks.data?.find((truck) => truck.id === id)?.plate ?? id ?? '-';

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
        `${costTypeLabel(t, input.type)} · ${plateOf(input.truckId)} · ${formatMoney(input.amount)}`,
      ),
    onSaved: (_, flagged) => saved(flagged ? t('costs.savedFlagged') : t('costs.saved')),
    onError: (err, confirming) => {
      if (isQueued(err)) {
        form.reset(EMPTY);
        return form.report('success', err.message);
      }
      form.report(
        'error',
        errorMessage(err, confirming ? t('costs.confirmFailed') : t('costs.recordFailed')),
      );
    },
  });

  const submit = form.submit(async (input) => {
    if (!editing) return void dup.submit(input);
    try {
      await update.mutateAsync({ ...input, id: editing.id });
      saved(t('costs.updated'));
    } catch (err) {
      form.report('error', errorMessage(err, t('costs.saveFailed')));
    }
  });

  const d = dup.duplicate;
  return (
    <form className="card" onSubmit={submit} noValidate>
      <h3>{editing ? t('costs.editTitle', { id: editing.id }) : t('costs.addTitle')}</h3>
      <FormStatus message={form.message} />
      <div className="grid">
        <SelectField label={t('costs.type')} {...form.field('type')}>
          <option value="">{t('costs.selectType')}</option>
          {COST_TYPES.map((type) => (
            <option key={type} value={type}>
              {costTypeLabel(t, type)}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('common.truck')} {...form.field('truckId')}>
          <option value="">{t('stock.selectTruck')}</option>
          {(trucks.data ?? []).map((truck) => (
            <option key={truck.id} value={truck.id}>
              {truck.plate || truck.id}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('costs.amountKes')}
          type="number"
          min={0.01}
          step="0.01"
          inputMode="decimal"
          {...form.field('amount')}
        />
        <TextField label={t('costs.description')} {...form.field('description')} />
      </div>
      {d ? (
        <DuplicatePanel
          title={t('costs.dupTitle')}
          message={d.message}
          explanation={t('costs.dupExplanation')}
          existing={{
            label: t('costs.existingEntry', { id: d.existing.id }),
            rows: [
              [t('common.truck'), plateOf(d.existing.truck_id)],
              [t('costs.amount'), formatMoney(d.existing.amount)],
              [t('costs.incurred'), dateTime(d.existing.incurred_at)],
              [t('costs.description'), d.existing.description || t('costs.noDescription')],
            ],
          }}
          incoming={{
            label: t('costs.newEntry'),
            rows: [
              [t('common.truck'), plateOf(d.input.truckId)],
              [t('costs.amount'), formatMoney(d.input.amount)],
              [t('costs.description'), d.input.description || t('costs.noDescription')],
            ],
          }}
          busy={dup.busy}
          onConfirm={dup.confirm}
          onCancel={dup.cancel}
        />
      ) : null}
      <div className="button-row">
        <button type="submit" className="button" disabled={dup.busy || update.isPending || d !== null}>
          {editing ? t('costs.save') : t('costs.add')}
        </button>
        {editing ? (
          <button type="button" className="button button--secondary" onClick={onDone}>
            {t('costs.cancelEdit')}
          </button>
        ) : null}
      </div>
    </form>
  );
}
