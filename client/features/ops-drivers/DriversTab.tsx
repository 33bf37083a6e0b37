import { useMemo, useRef, useState } from 'react';
import type { TDriver } from '../../../shared/schemas/fleet';
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
      <h2 id="drivers-heading">Drivers</h2>
      <div ref={formTop} className="scroll-target" />
      <DriverDetailsForm
        key={formKey}
        driver={editing}
        withId
        heading={<h3>{editing ? `Edit driver ${editing.id}` : 'Add a driver'}</h3>}
        submitLabel={editing ? 'Save driver' : 'Add driver'}
        savingLabel="Saving…"
        savedText="Driver details saved."
        failedText="Failed to save driver."
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
            New driver
          </button>
        ) : null}
      </DriverDetailsForm>
      <div className="toolbar">
        <TextField
          label="Search drivers"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {drivers.error ? <Alert>Failed to load drivers.</Alert> : null}
      <DataList
        label="Drivers"
        rows={shown}
        rowKey={(d) => d.id}
        title={(d) => d.name}
        columns={[
          { header: 'Photo', cell: (d) => <Thumb name={d.photoPath} alt={`Photo of ${d.name}`} /> },
          { header: 'ID', cell: (d) => d.id },
          { header: 'Name', cell: (d) => d.name, hideOnCard: true },
          { header: 'Email', cell: (d) => d.email ?? '-' },
          { header: 'Phone', cell: (d) => d.phone ?? '-' },
        ]}
        actions={(d) => (
          <button type="button" className="button button--small button--secondary" onClick={() => open(d)}>
            Edit {d.name}
          </button>
        )}
        empty={drivers.data ? (search ? 'No driver matches this search.' : 'No drivers yet.') : null}
      />
      <StaffAccounts drivers={drivers.data ?? []} />
    </section>
  );
}
