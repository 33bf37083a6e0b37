import { useMemo, useState } from 'react';
import { twoDigits } from '../../../shared/domain/business-clock';
import { formatMoney, formatNumber, type Locale } from '../../../shared/domain/format';
import { weekRange } from '../../../shared/domain/time';
import {
  MONEY_MESSAGES,
  type TFuelInput,
  type TFuelLog,
  ZFuelDuplicateOf,
  ZFuelInput,
} from '../../../shared/schemas/money';
import { useFormat } from '../../i18n/format';
import { isQueued, queuedText, submitField } from '../../offline/outbox';
import { errorMessage, trpc } from '../../trpc';
import { Alert, FormStatus, TextAreaField, TextField } from '../../ui/forms';
import { ImageInput } from '../../ui/ImageInput';
import { Page } from '../../ui/Page';
import { useDuplicateConfirm } from '../../ui/useDuplicateConfirm';
import { useZodForm } from '../../ui/useZodForm';
import { FleetPanel } from '../fleet/FleetPanel';
import { DuplicatePanel } from '../ops-costs/DuplicatePanel';
import { FuelLogEntry, kmText, litresText } from './FuelLogList';

function localInputValue(d = new Date()): string {
  const date = `${d.getFullYear()}-${twoDigits(d.getMonth() + 1)}-${twoDigits(d.getDate())}`;
  return `${date}T${twoDigits(d.getHours())}:${twoDigits(d.getMinutes())}`;
}

const emptyForm = () => ({
  truck: '',
  capturedAt: localInputValue(),
  litres: '',
  cost: '',
  odometer: '',
  note: '',
  photoData: null as string | null,
});
type FuelFields = ReturnType<typeof emptyForm>;

/** Empty numerics and an empty truck are sent as null (spec section 5). */
const toInput = (f: FuelFields) => ({
  truckId: f.truck.trim() || null,
  litres: f.litres === '' ? null : Number(f.litres),
  odometer: f.odometer === '' ? null : Number(f.odometer),
  cost: f.cost === '' ? null : Number(f.cost),
  note: f.note,
  capturedAt: new Date(f.capturedAt || Date.now()).toISOString(),
  ...(f.photoData ? { photoData: f.photoData } : {}),
});

/** The outbox's line for a waiting fuel log. */
function fuelSummary(input: TFuelInput, plate: string, locale: Locale): string {
  const litres =
    input.litres === null || input.litres === undefined ? '' : ` · ${formatNumber(input.litres, locale)} L`;
  return `${plate}${litres} · ${formatMoney(input.cost ?? 0, locale)}`;
}

/** /fuel: record pump readings and see the latest entries per truck. */
export function FuelPage() {
  const f = useFormat();
  const { t, locale, money, dateTime } = f;
  const utils = trpc.useUtils();
  const logs = trpc.fuel.list.useQuery({ limit: 50 });
  const trucks = trpc.admin.trucks.list.useQuery(undefined, { retry: false });
  const form = useZodForm({
    schema: ZFuelInput,
    initial: emptyForm,
    toInput,
    fields: { truckId: 'truck' },
    // English keeps the schema's wording; Kiswahili says the same per field.
    messages:
      locale === 'sw'
        ? {
            truck: t('fuel.validTruck'),
            cost: t('fuel.validCost'),
            litres: t('fuel.validLitres'),
            odometer: t('fuel.validOdometer'),
            photoData: t('fuel.validPhoto'),
          }
        : undefined,
  });
  const [photoKey, setPhotoKey] = useState(0);
  const truck = form.values.truck;

  if (trucks.error) console.warn('Truck suggestions unavailable', trucks.error.message);
  const match = (trucks.data ?? []).find(
    (t) =>
      t.id.toLowerCase() === truck.trim().toLowerCase() ||
      t.plate.replace(/\s+/g, '').toLowerCase() === truck.replace(/\s+/g, '').toLowerCase(),
  );
  const weekLitres = useMemo(() => {
    const { start, end } = weekRange(new Date());
    return (logs.data ?? [])
      .filter((l) => {
        const at = new Date(l.capturedAt);
        return at >= start && at < end && l.litres !== null;
      })
      .reduce((sum, l) => sum + (l.litres ?? 0), 0);
  }, [logs.data]);

  const dup = useDuplicateConfirm({
    existing: ZFuelDuplicateOf,
    fallbackMessage: MONEY_MESSAGES.fuelDuplicate,
    // Through the device outbox: stored first, sent with an Idempotency-Key, kept when offline.
    send: (input: TFuelInput) =>
      submitField<TFuelLog>('fuel', input, fuelSummary(input, plateOf(input.truckId ?? null), locale)),
    onSaved: (_, flagged) => {
      form.reset();
      form.report('success', flagged ? t('fuel.savedFlagged') : t('fuel.saved'));
      setPhotoKey((k) => k + 1);
      void utils.fuel.list.invalidate();
    },
    onError: (err, confirming) => {
      if (isQueued(err)) {
        // Safe in the outbox: the form is free for the next entry.
        form.reset();
        setPhotoKey((k) => k + 1);
        return form.report('success', queuedText(err, t));
      }
      const message = errorMessage(err, confirming ? t('fuel.confirmFailed') : t('fuel.saveFailed'));
      form.report('error', message === MONEY_MESSAGES.unknownTruck ? t('fuel.unknownTruck') : message);
    },
  });
  const d = dup.duplicate;
  /** The plate the list shows for what was typed or stored (an id or a plate). */
  const plateOf = (typed: string | null) => {
    const key = (typed ?? '').replace(/\s+/g, '').toLowerCase();
    const truck = (trucks.data ?? []).find(
      (t) => t.id.toLowerCase() === key || t.plate.replace(/\s+/g, '').toLowerCase() === key,
    );
    return truck?.plate || typed || '-';
  };

  return (
    <Page title={t('fuel.title')} subtitle={t('fuel.subtitle')}>
      <div className="two-col">
        <form
          className="card"
          onSubmit={form.submit((input) => void dup.submit(input))}
          noValidate
          aria-labelledby="fuel-form-heading"
        >
          <h2 id="fuel-form-heading">{t('fuel.record')}</h2>
          <p className="muted">{t('fuel.thisWeek', { litres: formatNumber(weekLitres, locale) })}</p>
          <FormStatus message={form.message} />
          <TextField
            label={t('fuel.truck')}
            list="fuel-truck-suggestions"
            autoComplete="off"
            required
            {...form.field('truck')}
            hint={truck.trim() ? (match ? (match.driverName ?? t('fuel.noDriver')) : undefined) : undefined}
          />
          <datalist id="fuel-truck-suggestions">
            {(trucks.data ?? []).map((t) => (
              <option key={t.id} value={t.plate || t.id}>
                {t.id}
              </option>
            ))}
          </datalist>
          <div className="grid">
            <TextField label={t('fuel.capturedAt')} type="datetime-local" {...form.field('capturedAt')} />
            <TextField
              label={t('fuel.litres')}
              type="number"
              min={0}
              step="0.1"
              inputMode="decimal"
              {...form.field('litres')}
            />
            <TextField
              label={t('fuel.cost')}
              type="number"
              min={0}
              step="1"
              inputMode="numeric"
              required
              {...form.field('cost')}
            />
            <TextField
              label={t('fuel.odometer')}
              type="number"
              min={0}
              inputMode="numeric"
              {...form.field('odometer')}
            />
          </div>
          <TextAreaField label={t('fuel.notes')} {...form.field('note')} />
          <ImageInput
            key={photoKey}
            label={t('fuel.photo')}
            onChange={(dataUrl) => form.set('photoData', dataUrl)}
            onError={(text) => form.report('error', text)}
          />
          {d ? (
            <DuplicatePanel
              title={t('fuel.dupTitle')}
              message={d.message === MONEY_MESSAGES.fuelDuplicate ? t('fuel.dupMessage') : d.message}
              explanation={t('fuel.dupExplanation')}
              existing={{
                label: t('fuel.existingLog', { id: d.existing.id }),
                rows: [
                  [t('fuel.rowTruck'), plateOf(d.existing.truck_id)],
                  [t('fuel.rowLitres'), litresText(d.existing.litres, f)],
                  [t('fuel.rowCost'), money(d.existing.cost)],
                  [t('fuel.rowOdometer'), kmText(d.existing.odometer, f)],
                  [t('fuel.rowCaptured'), dateTime(d.existing.captured_at)],
                  [t('fuel.rowNote'), d.existing.note || '-'],
                ],
              }}
              incoming={{
                label: t('fuel.newLog'),
                rows: [
                  [t('fuel.rowTruck'), plateOf(d.input.truckId)],
                  [t('fuel.rowLitres'), litresText(d.input.litres ?? null, f)],
                  [t('fuel.rowCost'), money(d.input.cost)],
                  [t('fuel.rowOdometer'), kmText(d.input.odometer ?? null, f)],
                  [t('fuel.rowCaptured'), dateTime(d.input.capturedAt ?? Date.now())],
                  [t('fuel.rowNote'), d.input.note || '-'],
                ],
              }}
              busy={dup.busy}
              onConfirm={dup.confirm}
              onCancel={dup.cancel}
            />
          ) : null}
          <button type="submit" className="button" disabled={dup.busy || d !== null}>
            {dup.busy && !d ? t('fuel.saving') : t('fuel.save')}
          </button>
        </form>
        <section aria-labelledby="latest-heading">
          <div className="toolbar">
            <h2 id="latest-heading" style={{ margin: 0 }}>
              {t('fuel.latest')}
            </h2>
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => void logs.refetch()}
            >
              {t('fuel.refresh')}
            </button>
          </div>
          {logs.isLoading ? <p className="muted">{t('fuel.loading')}</p> : null}
          {logs.error ? <Alert>{t('fuel.loadFailed')}</Alert> : null}
          {logs.data && logs.data.length === 0 ? <p className="muted">{t('fuel.empty')}</p> : null}
          <ul className="plain-list">
            {(logs.data ?? []).map((l) => (
              <FuelLogEntry key={l.id} log={l} />
            ))}
          </ul>
        </section>
      </div>
      {/* Under the form a fuel attendant fills first: the map loads when scrolled to (issue 28). */}
      <FleetPanel allowReassign={false} mapOnDemand />
    </Page>
  );
}
