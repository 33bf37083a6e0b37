import { useMemo, useRef, useState } from 'react';
import type { z } from 'zod';
import { formatTonnes } from '../../../shared/domain/format';
import {
  type TTruck,
  type TTruckUpdateInput,
  ZTruckCreateInput,
  ZTruckUpdateInput,
} from '../../../shared/schemas/fleet';
import { errorMessage, trpc } from '../../trpc';
import { DataList } from '../../ui/DataList';
import { Alert, FormStatus, SelectField, TextField } from '../../ui/forms';
import { useZodForm } from '../../ui/useZodForm';
import type { TabProps } from '../ops/tab-props';

const EMPTY = {
  id: '',
  plate: '',
  capacityT: '20',
  primaryDriverId: '',
  deviceId: '',
  axles: '3',
  tareT: '',
  tankCapacityL: '',
};
type TruckFields = typeof EMPTY;

const toInput = (f: TruckFields) => ({
  ...f,
  primaryDriverId: f.primaryDriverId || null,
  deviceId: f.deviceId || null,
});

/** Truck registry: form (id fixed once created) and a searchable table, with Traccar Client settings. */
export function TrucksTab(_props: TabProps) {
  const utils = trpc.useUtils();
  const trucks = trpc.admin.trucks.list.useQuery();
  const drivers = trpc.admin.drivers.list.useQuery();
  const [editing, setEditing] = useState<string | null>(null);
  // The id is fixed once created: an edit sends the update call, checked with its own schema.
  const schema: z.ZodType<TTruckUpdateInput> = editing ? ZTruckUpdateInput : ZTruckCreateInput;
  const form = useZodForm({ schema, initial: EMPTY, toInput });
  const [search, setSearch] = useState('');
  const onSaved = (t: TTruck) => {
    form.report('success', `Truck ${t.plate} saved.`);
    setEditing(t.id);
    void utils.admin.trucks.list.invalidate();
  };
  const onError = (e: unknown) => form.report('error', errorMessage(e, 'Failed to save truck.'));
  const create = trpc.admin.trucks.create.useMutation({ onSuccess: onSaved, onError });
  const update = trpc.admin.trucks.update.useMutation({ onSuccess: onSaved, onError });
  const mutation = editing ? update : create;

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (trucks.data ?? []).filter(
      (t) =>
        !q || [t.id, t.plate, t.driverName ?? '', t.deviceId ?? ''].some((v) => v.toLowerCase().includes(q)),
    );
  }, [trucks.data, search]);
  const current = trucks.data?.find((t) => t.id === editing);
  const formRef = useRef<HTMLFormElement>(null);

  function edit(t: TTruck) {
    setEditing(t.id);
    form.reset({
      id: t.id,
      plate: t.plate,
      capacityT: String(t.capacityT),
      primaryDriverId: t.primaryDriverId ?? '',
      deviceId: t.deviceId ?? '',
      axles: String(t.axles),
      tareT: t.tareT === null ? '' : String(t.tareT),
      tankCapacityL: t.tankCapacityL === null ? '' : String(t.tankCapacityL),
    });
    // On a phone the form is a screen away from the list.
    formRef.current?.scrollIntoView({ block: 'start' });
  }

  return (
    <section aria-labelledby="trucks-heading">
      <h2 id="trucks-heading">Trucks</h2>
      <form
        ref={formRef}
        className="card"
        onSubmit={form.submit((input) => (editing ? update.mutate(input) : create.mutate(input)))}
        noValidate
      >
        <h3>{editing ? `Edit truck ${editing}` : 'Register a truck'}</h3>
        <FormStatus message={form.message} />
        <div className="grid">
          <TextField label="Truck ID" disabled={editing !== null} {...form.field('id')} />
          <TextField label="Plate" {...form.field('plate')} />
          <TextField
            label="Capacity (tonnes)"
            type="number"
            min={1}
            step="0.5"
            {...form.field('capacityT')}
          />
          <SelectField label="Primary driver" {...form.field('primaryDriverId')}>
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
            {...form.field('deviceId')}
          />
          <SelectField
            label="Axles"
            hint="Sets the legal gross weight (2: 18 t, 3: 26 t, 4: 30 t)."
            {...form.field('axles')}
          >
            <option value="2">2 axles</option>
            <option value="3">3 axles</option>
            <option value="4">4 axles</option>
          </SelectField>
          <TextField
            label="Empty weight (tonnes)"
            type="number"
            min={1}
            step="0.01"
            hint="Tare: with the axles it gives the legal payload."
            {...form.field('tareT')}
          />
          <TextField
            label="Tank capacity (litres)"
            type="number"
            min={1}
            step="1"
            {...form.field('tankCapacityL')}
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
                form.reset(EMPTY);
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
      <DataList
        label="Trucks"
        rows={shown}
        rowKey={(t) => t.id}
        title={(t) => t.plate}
        columns={[
          { header: 'ID', cell: (t) => t.id },
          { header: 'Plate', cell: (t) => t.plate, hideOnCard: true },
          { header: 'Capacity', numeric: true, cell: (t) => formatTonnes(t.capacityT) },
          {
            header: 'Legal payload',
            numeric: true,
            cell: (t) =>
              t.legalPayloadT === null ? `${t.axles} axles, tare unknown` : formatTonnes(t.legalPayloadT),
          },
          { header: 'Driver', cell: (t) => t.driverName ?? 'No primary driver assigned yet.' },
          { header: 'Device', cell: (t) => <span className="mono">{t.deviceId ?? '-'}</span> },
        ]}
        actions={(t) => (
          <button type="button" className="button button--small button--secondary" onClick={() => edit(t)}>
            Edit {t.plate}
          </button>
        )}
        empty={trucks.data ? (search ? 'No truck matches this search.' : 'No trucks registered yet.') : null}
      />
    </section>
  );
}
