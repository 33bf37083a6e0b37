import { useMemo, useRef, useState } from 'react';
import type { z } from 'zod';
import { TRUCK_LOAD_TONNES } from '../../../shared/constants';
import { formatTonnes } from '../../../shared/domain/format';
import {
  type TTruck,
  type TTruckUpdateInput,
  ZTruckCreateInput,
  ZTruckUpdateInput,
} from '../../../shared/schemas/fleet';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { DataList } from '../../ui/DataList';
import { Alert, FormStatus, SelectField, TextField } from '../../ui/forms';
import { useZodForm } from '../../ui/useZodForm';
import type { TabProps } from '../ops/tab-props';

const EMPTY = {
  id: '',
  plate: '',
  capacityT: String(TRUCK_LOAD_TONNES),
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
  const { t, i18n } = useStaffT();
  const utils = trpc.useUtils();
  const trucks = trpc.admin.trucks.list.useQuery();
  const drivers = trpc.admin.drivers.list.useQuery();
  const [editing, setEditing] = useState<string | null>(null);
  // The id is fixed once created: an edit sends the update call, checked with its own schema.
  const schema: z.ZodType<TTruckUpdateInput> = editing ? ZTruckUpdateInput : ZTruckCreateInput;
  const form = useZodForm({
    schema,
    initial: EMPTY,
    toInput,
    // The schema's English messages, in Kiswahili when the screens are.
    messages:
      i18n.language === 'sw'
        ? {
            id: t('trucks.validId'),
            plate: t('trucks.validPlate'),
            capacityT: t('trucks.validCapacity'),
            axles: t('trucks.validAxles'),
            tareT: t('trucks.validTare'),
            tankCapacityL: t('trucks.validTank'),
          }
        : undefined,
  });
  const [search, setSearch] = useState('');
  const onSaved = (truck: TTruck) => {
    form.report('success', t('trucks.saved', { plate: truck.plate }));
    setEditing(truck.id);
    void utils.admin.trucks.list.invalidate();
  };
  const onError = (e: unknown) => form.report('error', errorMessage(e, t('trucks.saveFailed')));
  const create = trpc.admin.trucks.create.useMutation({ onSuccess: onSaved, onError });
  const update = trpc.admin.trucks.update.useMutation({ onSuccess: onSaved, onError });
  const mutation = editing ? update : create;

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (trucks.data ?? []).filter(
      (truck) =>
        !q ||
        [truck.id, truck.plate, truck.driverName ?? '', truck.deviceId ?? ''].some((v) =>
          v.toLowerCase().includes(q),
        ),
    );
  }, [trucks.data, search]);
  const current = trucks.data?.find((truck) => truck.id === editing);
  const formRef = useRef<HTMLFormElement>(null);

  function edit(truck: TTruck) {
    setEditing(truck.id);
    form.reset({
      id: truck.id,
      plate: truck.plate,
      capacityT: String(truck.capacityT),
      primaryDriverId: truck.primaryDriverId ?? '',
      deviceId: truck.deviceId ?? '',
      axles: String(truck.axles),
      tareT: truck.tareT === null ? '' : String(truck.tareT),
      tankCapacityL: truck.tankCapacityL === null ? '' : String(truck.tankCapacityL),
    });
    // On a phone the form is a screen away from the list.
    formRef.current?.scrollIntoView({ block: 'start' });
  }

  return (
    <section aria-labelledby="trucks-heading">
      <h2 id="trucks-heading">{t('tabs.trucks')}</h2>
      <form
        ref={formRef}
        className="card"
        onSubmit={form.submit((input) => (editing ? update.mutate(input) : create.mutate(input)))}
        noValidate
      >
        <h3>{editing ? t('trucks.editTitle', { id: editing }) : t('trucks.registerTitle')}</h3>
        <FormStatus message={form.message} />
        <div className="grid">
          <TextField label={t('trucks.truckId')} disabled={editing !== null} {...form.field('id')} />
          <TextField label={t('trucks.plate')} {...form.field('plate')} />
          <TextField
            label={t('trucks.capacityT')}
            type="number"
            min={1}
            step="0.5"
            {...form.field('capacityT')}
          />
          <SelectField label={t('trucks.primaryDriver')} {...form.field('primaryDriverId')}>
            <option value="">{t('trucks.noPrimaryDriver')}</option>
            {(drivers.data ?? []).map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </SelectField>
          <TextField label={t('trucks.deviceId')} hint={t('trucks.deviceHint')} {...form.field('deviceId')} />
          <SelectField label={t('trucks.axles')} hint={t('trucks.axlesHint')} {...form.field('axles')}>
            <option value="2">{t('trucks.axleCount', { count: 2 })}</option>
            <option value="3">{t('trucks.axleCount', { count: 3 })}</option>
            <option value="4">{t('trucks.axleCount', { count: 4 })}</option>
          </SelectField>
          <TextField
            label={t('trucks.tare')}
            type="number"
            min={1}
            step="0.01"
            hint={t('trucks.tareHint')}
            {...form.field('tareT')}
          />
          <TextField
            label={t('trucks.tank')}
            type="number"
            min={1}
            step="1"
            {...form.field('tankCapacityL')}
          />
        </div>
        <div className="button-row">
          <button type="submit" className="button" disabled={mutation.isPending}>
            {mutation.isPending ? t('common.saving') : editing ? t('trucks.save') : t('trucks.add')}
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
              {t('trucks.newTruck')}
            </button>
          ) : null}
        </div>
        {current?.deviceId ? (
          <div className="alert alert--info">
            <strong>{t('trucks.traccarFor', { plate: current.plate })}</strong>
            <dl className="kv">
              <dt>{t('trucks.serverUrl')}</dt>
              <dd className="mono">{`${window.location.origin}/api/telemetry/osmand`}</dd>
              <dt>{t('trucks.deviceIdentifier')}</dt>
              <dd className="mono">{current.deviceId}</dd>
              <dt>{t('trucks.frequency')}</dt>
              <dd>30 s</dd>
            </dl>
          </div>
        ) : null}
      </form>
      <div className="toolbar">
        <TextField
          label={t('trucks.search')}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {trucks.error ? <Alert>{t('trucks.loadFailed')}</Alert> : null}
      <DataList
        label={t('tabs.trucks')}
        rows={shown}
        rowKey={(truck) => truck.id}
        title={(truck) => truck.plate}
        columns={[
          { header: t('trucks.id'), cell: (truck) => truck.id },
          { header: t('trucks.plate'), cell: (truck) => truck.plate, hideOnCard: true },
          { header: t('trucks.capacity'), numeric: true, cell: (truck) => formatTonnes(truck.capacityT) },
          {
            header: t('trucks.legalPayload'),
            numeric: true,
            cell: (truck) =>
              truck.legalPayloadT === null
                ? t('trucks.tareUnknown', { axles: truck.axles })
                : formatTonnes(truck.legalPayloadT),
          },
          { header: t('common.driver'), cell: (truck) => truck.driverName ?? t('trucks.noDriver') },
          {
            header: t('trucks.device'),
            cell: (truck) => <span className="mono">{truck.deviceId ?? '-'}</span>,
          },
        ]}
        actions={(truck) => (
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => edit(truck)}
          >
            {t('trucks.edit', { plate: truck.plate })}
          </button>
        )}
        empty={trucks.data ? (search ? t('trucks.noMatch') : t('trucks.none')) : null}
      />
    </section>
  );
}
