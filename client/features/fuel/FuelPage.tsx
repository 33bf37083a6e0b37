import { type FormEvent, useMemo, useState } from 'react';
import { formatKesExact } from '../../../shared/domain/format';
import { weekRange } from '../../../shared/domain/time';
import type { TFuelLog } from '../../../shared/schemas/money';
import { RestError, restCall } from '../../rest';
import { trpc } from '../../trpc';
import { Alert, TextAreaField, TextField } from '../../ui/forms';
import { ImageInput } from '../../ui/ImageInput';
import { Page } from '../../ui/Page';
import { FleetPanel } from '../fleet/FleetPanel';
import { DuplicatePanel } from '../ops-costs/DuplicatePanel';
import { FuelLogEntry } from './FuelLogList';

const when = new Intl.DateTimeFormat('en-KE', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Africa/Nairobi',
});

function localInputValue(d = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const emptyForm = () => ({
  truck: '',
  capturedAt: localInputValue(),
  litres: '',
  cost: '',
  odometer: '',
  note: '',
});

interface ExistingFuel {
  id: number;
  truck_id: string;
  litres: number | null;
  odometer: number | null;
  cost: number;
  captured_at: string;
  note: string | null;
}

/** /fuel: record pump readings and see the latest entries per truck. */
export function FuelPage() {
  const utils = trpc.useUtils();
  const logs = trpc.fuel.list.useQuery({ limit: 50 });
  const trucks = trpc.admin.trucks.list.useQuery(undefined, { retry: false });
  const [form, setForm] = useState(emptyForm);
  const [photoData, setPhotoData] = useState<string | null>(null);
  const [photoKey, setPhotoKey] = useState(0);
  const [status, setStatus] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [duplicate, setDuplicate] = useState<{ message: string; existing: ExistingFuel } | null>(null);
  const [saving, setSaving] = useState(false);

  if (trucks.error) console.warn('Truck suggestions unavailable', trucks.error.message);
  const match = (trucks.data ?? []).find(
    (t) =>
      t.id.toLowerCase() === form.truck.trim().toLowerCase() ||
      t.plate.replace(/\s+/g, '').toLowerCase() === form.truck.replace(/\s+/g, '').toLowerCase(),
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

  const payload = () => ({
    truckId: form.truck.trim() || null,
    litres: form.litres === '' ? null : Number(form.litres),
    odometer: form.odometer === '' ? null : Number(form.odometer),
    cost: form.cost === '' ? null : Number(form.cost),
    note: form.note,
    capturedAt: new Date(form.capturedAt || Date.now()).toISOString(),
    ...(photoData ? { photoData } : {}),
  });

  function saved(text: string) {
    setStatus({ tone: 'success', text });
    setDuplicate(null);
    setForm(emptyForm());
    setPhotoData(null);
    setPhotoKey((k) => k + 1);
    void utils.fuel.list.invalidate();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setStatus(null);
    if (!form.truck.trim()) return setStatus({ tone: 'error', text: 'Truck is required.' });
    if (form.cost === '') return setStatus({ tone: 'error', text: 'Total cost is required.' });
    setSaving(true);
    try {
      await restCall<TFuelLog>('POST', '/api/fuel/logs', payload());
      saved('Fuel log saved.');
    } catch (err) {
      if (err instanceof RestError && err.status === 409 && err.body.duplicate) {
        setDuplicate({
          message:
            typeof err.body.message === 'string'
              ? err.body.message
              : 'Potential duplicate fuel entry detected.',
          existing: err.body.existing as ExistingFuel,
        });
      } else {
        setStatus({
          tone: 'error',
          text: err instanceof RestError ? err.message : 'Failed to save the fuel log',
        });
      }
    } finally {
      setSaving(false);
    }
  }

  async function confirmDuplicate() {
    if (!duplicate) return;
    setSaving(true);
    try {
      await restCall<TFuelLog>('POST', '/api/fuel/logs', {
        ...payload(),
        overrideDuplicate: true,
        duplicateOf: duplicate.existing.id,
      });
      saved('Fuel log saved and flagged as a duplicate for audit.');
    } catch (err) {
      setDuplicate(null);
      setStatus({
        tone: 'error',
        text: err instanceof RestError ? err.message : 'Failed to confirm duplicate fuel log',
      });
    } finally {
      setSaving(false);
    }
  }

  const set = (k: keyof ReturnType<typeof emptyForm>) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  return (
    <Page
      title="Fuel and mileage monitor"
      subtitle="Capture pump readings, odometer photos, and notes. Dispatch instantly sees the history per truck."
    >
      <div className="two-col">
        <form className="card" onSubmit={submit} noValidate aria-labelledby="fuel-form-heading">
          <h2 id="fuel-form-heading">Record fuel stop</h2>
          <p className="muted">This week: {weekLitres.toLocaleString('en-KE')} litres</p>
          {status ? <Alert tone={status.tone}>{status.text}</Alert> : null}
          <TextField
            label="Truck ID / Plate"
            list="fuel-truck-suggestions"
            autoComplete="off"
            required
            value={form.truck}
            onChange={set('truck')}
            hint={
              form.truck.trim()
                ? match
                  ? (match.driverName ?? 'No primary driver assigned yet.')
                  : undefined
                : undefined
            }
          />
          <datalist id="fuel-truck-suggestions">
            {(trucks.data ?? []).map((t) => (
              <option key={t.id} value={t.plate || t.id}>
                {t.id}
              </option>
            ))}
          </datalist>
          <div className="grid">
            <TextField
              label="Captured at"
              type="datetime-local"
              value={form.capturedAt}
              onChange={set('capturedAt')}
            />
            <TextField
              label="Litres pumped"
              type="number"
              min={0}
              step="0.1"
              inputMode="decimal"
              value={form.litres}
              onChange={set('litres')}
            />
            <TextField
              label="Total cost (KES)"
              type="number"
              min={0}
              step="1"
              inputMode="numeric"
              required
              value={form.cost}
              onChange={set('cost')}
            />
            <TextField
              label="Odometer (km)"
              type="number"
              min={0}
              inputMode="numeric"
              value={form.odometer}
              onChange={set('odometer')}
            />
          </div>
          <TextAreaField label="Notes" value={form.note} onChange={set('note')} />
          <ImageInput
            key={photoKey}
            label="Photo (pump or dashboard)"
            onChange={setPhotoData}
            onError={(text) => setStatus({ tone: 'error', text })}
          />
          {duplicate ? (
            <DuplicatePanel
              title="Possible duplicate fuel log"
              message={duplicate.message}
              explanation="An existing log matches this entry. Confirm to flag it intentionally."
              existing={{
                label: `Existing log #${duplicate.existing.id}`,
                rows: [
                  ['Truck', duplicate.existing.truck_id],
                  ['Litres', duplicate.existing.litres ?? 'n/a'],
                  ['Cost', formatKesExact(duplicate.existing.cost)],
                  ['Odometer', duplicate.existing.odometer ?? 'n/a'],
                  ['Captured', when.format(new Date(duplicate.existing.captured_at))],
                  ['Note', duplicate.existing.note || '-'],
                ],
              }}
              incoming={{
                label: 'New log',
                rows: [
                  ['Truck', form.truck],
                  ['Litres', form.litres || 'n/a'],
                  ['Cost', formatKesExact(Number(form.cost || 0))],
                  ['Odometer', form.odometer || 'n/a'],
                  ['Captured', when.format(new Date(form.capturedAt || Date.now()))],
                  ['Note', form.note || '-'],
                ],
              }}
              busy={saving}
              onConfirm={confirmDuplicate}
              onCancel={() => setDuplicate(null)}
            />
          ) : null}
          <button type="submit" className="button" disabled={saving || duplicate !== null}>
            {saving && !duplicate ? 'Saving…' : 'Save fuel log'}
          </button>
        </form>
        <section aria-labelledby="latest-heading">
          <div className="toolbar">
            <h2 id="latest-heading" style={{ margin: 0 }}>
              Latest entries
            </h2>
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => void logs.refetch()}
            >
              Refresh
            </button>
          </div>
          {logs.isLoading ? <p className="muted">Loading fuel logs…</p> : null}
          {logs.error ? <Alert>Failed to load fuel logs</Alert> : null}
          {logs.data && logs.data.length === 0 ? (
            <p className="muted">No fuel entries captured yet.</p>
          ) : null}
          <ul className="plain-list">
            {(logs.data ?? []).map((l) => (
              <FuelLogEntry key={l.id} log={l} />
            ))}
          </ul>
        </section>
      </div>
      <FleetPanel allowReassign={false} />
    </Page>
  );
}
