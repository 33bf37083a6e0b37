import { type FormEvent, useMemo, useState } from 'react';
import { FLEET_MESSAGES, type TTruck } from '../../../shared/schemas/fleet';
import { errorMessage, trpc } from '../../trpc';
import { Alert, SelectField, TextField } from '../../ui/forms';
import type { TabProps } from '../ops/tab-props';

const EMPTY = { id: '', plate: '', capacityT: '20', primaryDriverId: '', deviceId: '' };

/** Truck registry: form (id fixed once created) and a searchable table, with Traccar Client settings. */
export function TrucksTab(_props: TabProps) {
  const utils = trpc.useUtils();
  const trucks = trpc.admin.trucks.list.useQuery();
  const drivers = trpc.admin.drivers.list.useQuery();
  const [form, setForm] = useState(EMPTY);
  const [editing, setEditing] = useState<string | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const onSaved = (t: TTruck) => {
    setSaved(`Truck ${t.plate} saved.`);
    setEditing(t.id);
    void utils.admin.trucks.list.invalidate();
  };
  const create = trpc.admin.trucks.create.useMutation({ onSuccess: onSaved });
  const update = trpc.admin.trucks.update.useMutation({ onSuccess: onSaved });
  const mutation = editing ? update : create;

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (trucks.data ?? []).filter(
      (t) =>
        !q || [t.id, t.plate, t.driverName ?? '', t.deviceId ?? ''].some((v) => v.toLowerCase().includes(q)),
    );
  }, [trucks.data, search]);
  const current = trucks.data?.find((t) => t.id === editing);

  function submit(e: FormEvent) {
    e.preventDefault();
    setLocalError(null);
    setSaved(null);
    if (!editing && !form.id.trim()) return setLocalError(FLEET_MESSAGES.truckId);
    if (!form.plate.trim()) return setLocalError(FLEET_MESSAGES.plateRequired);
    const capacity = Number(form.capacityT);
    if (!Number.isFinite(capacity) || capacity < 1) return setLocalError(FLEET_MESSAGES.capacity);
    const body = {
      plate: form.plate,
      capacityT: capacity,
      primaryDriverId: form.primaryDriverId || null,
      deviceId: form.deviceId || null,
    };
    if (editing) update.mutate({ id: editing, ...body });
    else create.mutate({ id: form.id, ...body });
  }

  function edit(t: TTruck) {
    setEditing(t.id);
    setSaved(null);
    setLocalError(null);
    setForm({
      id: t.id,
      plate: t.plate,
      capacityT: String(t.capacityT),
      primaryDriverId: t.primaryDriverId ?? '',
      deviceId: t.deviceId ?? '',
    });
  }

  const error = localError ?? (mutation.error ? errorMessage(mutation.error, 'Failed to save truck.') : null);
  return (
    <section aria-labelledby="trucks-heading">
      <h2 id="trucks-heading">Trucks</h2>
      <form className="card" onSubmit={submit} noValidate>
        <h3>{editing ? `Edit truck ${editing}` : 'Register a truck'}</h3>
        {error ? <Alert>{error}</Alert> : null}
        {saved ? <Alert tone="success">{saved}</Alert> : null}
        <div className="grid">
          <TextField
            label="Truck ID"
            value={form.id}
            disabled={editing !== null}
            onChange={(e) => setForm((f) => ({ ...f, id: e.target.value }))}
          />
          <TextField
            label="Plate"
            value={form.plate}
            onChange={(e) => setForm((f) => ({ ...f, plate: e.target.value }))}
          />
          <TextField
            label="Capacity (tonnes)"
            type="number"
            min={1}
            step="0.5"
            value={form.capacityT}
            onChange={(e) => setForm((f) => ({ ...f, capacityT: e.target.value }))}
          />
          <SelectField
            label="Primary driver"
            value={form.primaryDriverId}
            onChange={(e) => setForm((f) => ({ ...f, primaryDriverId: e.target.value }))}
          >
            <option value="">No primary driver</option>
            {(drivers.data ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Tracker device ID"
            hint="The identifier the driver's phone (Traccar Client) or GPS tracker reports."
            value={form.deviceId}
            onChange={(e) => setForm((f) => ({ ...f, deviceId: e.target.value }))}
          />
        </div>
        <div className="button-row">
          <button type="submit" className="button" disabled={mutation.isPending}>
            {mutation.isPending ? 'Saving…' : editing ? 'Save truck' : 'Add truck'}
          </button>
          {editing ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setEditing(null);
                setForm(EMPTY);
                setSaved(null);
              }}
            >
              New truck
            </button>
          ) : null}
        </div>
        {current?.deviceId ? (
          <div className="alert alert--info">
            <strong>Traccar Client settings for {current.plate}</strong>
            <dl className="kv">
              <dt>Server URL</dt>
              <dd className="mono">{`${window.location.origin}/api/telemetry/osmand`}</dd>
              <dt>Device identifier</dt>
              <dd className="mono">{current.deviceId}</dd>
              <dt>Frequency</dt>
              <dd>30 s</dd>
            </dl>
          </div>
        ) : null}
      </form>
      <div className="toolbar">
        <TextField
          label="Search trucks"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {trucks.error ? <Alert>Failed to load trucks.</Alert> : null}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>ID</th>
              <th>Plate</th>
              <th>Capacity</th>
              <th>Driver</th>
              <th>Device</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((t) => (
              <tr key={t.id}>
                <td>{t.id}</td>
                <td>{t.plate}</td>
                <td>{t.capacityT} t</td>
                <td>{t.driverName ?? 'No primary driver assigned yet.'}</td>
                <td className="mono">{t.deviceId ?? '-'}</td>
                <td>
                  <button
                    type="button"
                    className="button button--small button--secondary"
                    onClick={() => edit(t)}
                  >
                    Edit {t.plate}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
