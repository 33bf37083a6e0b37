import { useMemo, useRef, useState } from 'react';
import type { TDriver } from '../../../shared/schemas/fleet';
import { useStaffT } from '../../i18n/staff';
import { trpc } from '../../trpc';
import { DataList } from '../../ui/DataList';
import { Alert, TextField } from '../../ui/forms';
import { useAuthedImage } from '../../ui/useAuthedImage';
import type { TabProps } from '../ops/tab-props';
import { StaffAccounts } from '../ops-staff/StaffAccounts';
import { DriverDetailsForm } from './DriverDetailsForm';

function Thumb({ name, alt }: { name: string | null; alt: string }) {
  const url = useAuthedImage(name);
  return url ? <img src={url} alt={alt} className="thumb" /> : <span className="muted">-</span>;
}

export function DriversTab(_props: TabProps) {
  const { t } = useStaffT();
  const utils = trpc.useUtils();
  const drivers = trpc.admin.drivers.list.useQuery();
  const [editing, setEditing] = useState<TDriver | null>(null);
  // A new form for each Edit or New driver; a save keeps the form (and its message).
  const [formKey, setFormKey] = useState(0);
  const [search, setSearch] = useState('');
  const create = trpc.admin.drivers.create.useMutation();
  const update = trpc.admin.drivers.update.useMutation();
  const refresh = () => void utils.admin.drivers.list.invalidate();

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (drivers.data ?? []).filter(
      (d) => !q || [d.id, d.name, d.email ?? '', d.phone ?? ''].some((v) => v.toLowerCase().includes(q)),
    );
  }, [drivers.data, search]);

  const formTop = useRef<HTMLDivElement>(null);
  function open(driver: TDriver | null) {
    setEditing(driver);
    setFormKey((k) => k + 1);
    // On a phone the form is a screen away from the list.
    formTop.current?.scrollIntoView({ block: 'start' });
  }

  return (
    <section aria-labelledby="drivers-heading">
      <h2 id="drivers-heading">{t('tabs.drivers')}</h2>
      <div ref={formTop} className="scroll-target" />
      <DriverDetailsForm
        key={formKey}
        driver={editing}
        withId
        heading={<h3>{editing ? t('drivers.editTitle', { id: editing.id }) : t('drivers.addTitle')}</h3>}
        submitLabel={editing ? t('drivers.save') : t('drivers.add')}
        savingLabel={t('common.saving')}
        savedText={t('drivers.saved')}
        failedText={t('drivers.saveFailed')}
        save={async ({ id, ...details }) => {
          if (editing) return update.mutateAsync({ ...details, id: editing.id });
          const created = await create.mutateAsync({
            id: id ?? '',
            name: details.name,
            email: details.email,
            phone: details.phone,
          });
          // The driver exists now: if a photo is refused below, the next save edits it instead of re-adding.
          setEditing(created);
          refresh();
          if (!details.photoData && !details.nationalIdData) return created;
          return update.mutateAsync({ ...details, id: created.id });
        }}
        onSaved={(saved) => {
          setEditing(saved);
          refresh();
        }}
      >
        {editing ? (
          <button type="button" className="button button--secondary" onClick={() => open(null)}>
            {t('drivers.newDriver')}
          </button>
        ) : null}
      </DriverDetailsForm>
      <div className="toolbar">
        <TextField
          label={t('drivers.search')}
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {drivers.error ? <Alert>{t('drivers.loadFailed')}</Alert> : null}
      <DataList
        label={t('tabs.drivers')}
        rows={shown}
        rowKey={(d) => d.id}
        title={(d) => d.name}
        columns={[
          {
            header: t('drivers.photo'),
            cell: (d) => <Thumb name={d.photoPath} alt={t('drivers.photoOf', { name: d.name })} />,
          },
          { header: t('drivers.id'), cell: (d) => d.id },
          { header: t('drivers.name'), cell: (d) => d.name, hideOnCard: true },
          { header: t('drivers.email'), cell: (d) => d.email ?? '-' },
          { header: t('drivers.phone'), cell: (d) => d.phone ?? '-' },
        ]}
        actions={(d) => (
          <button type="button" className="button button--small button--secondary" onClick={() => open(d)}>
            {t('drivers.edit', { name: d.name })}
          </button>
        )}
        empty={drivers.data ? (search ? t('drivers.noMatch') : t('drivers.none')) : null}
      />
      <StaffAccounts drivers={drivers.data ?? []} />
    </section>
  );
}
