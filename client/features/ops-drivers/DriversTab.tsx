import { type FormEvent, useMemo, useState } from 'react';
import { FLEET_MESSAGES, type TDriver } from '../../../shared/schemas/fleet';
import { RestError, restCall } from '../../rest';
import { errorMessage, trpc } from '../../trpc';
import { Alert, TextField } from '../../ui/forms';
import { ImageInput } from '../../ui/ImageInput';
import { useAuthedImage } from '../../ui/useAuthedImage';
import type { TabProps } from '../ops/tab-props';
import { StaffAccounts } from '../ops-staff/StaffAccounts';

const EMPTY = { id: '', name: '', email: '', phone: '' };

function Thumb({ name, alt }: { name: string | null; alt: string }) {
  const url = useAuthedImage(name);
  return url ? <img src={url} alt={alt} className="thumb" /> : <span className="muted">-</span>;
}

export function DriversTab(_props: TabProps) {
  const utils = trpc.useUtils();
  const drivers = trpc.admin.drivers.list.useQuery();
  const [form, setForm] = useState(EMPTY);
  const [editing, setEditing] = useState<TDriver | null>(null);
  const [photoData, setPhotoData] = useState<string | null>(null);
  const [nationalIdData, setNationalIdData] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: 'error' | 'success'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const [search, setSearch] = useState('');
  const create = trpc.admin.drivers.create.useMutation();
  const currentPhoto = useAuthedImage(editing?.photoPath);
  const currentId = useAuthedImage(editing?.nationalIdPath);

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return (drivers.data ?? []).filter(
      (d) => !q || [d.id, d.name, d.email ?? '', d.phone ?? ''].some((v) => v.toLowerCase().includes(q)),
    );
  }, [drivers.data, search]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setMessage(null);
    if (!editing && !form.id.trim()) return setMessage({ tone: 'error', text: FLEET_MESSAGES.driverId });
    if (!form.name.trim()) return setMessage({ tone: 'error', text: FLEET_MESSAGES.driverName });
    setSaving(true);
    try {
      const details = {
        name: form.name.trim(),
        email: form.email.trim() || null,
        phone: form.phone.trim() || null,
      };
      let saved: TDriver;
      if (editing) {
        // Photos travel as data URLs, over tRPC's body limit: this call uses the REST path.
        saved = await restCall<TDriver>('PATCH', `/api/admin/drivers/${encodeURIComponent(editing.id)}`, {
          ...details,
          ...(photoData ? { photoData } : {}),
          ...(nationalIdData ? { nationalIdData } : {}),
        });
      } else {
        saved = await create.mutateAsync({ id: form.id.trim(), ...details });
        // The driver exists now: if a photo is refused below, the next save edits it instead of re-adding.
        setEditing(saved);
        void utils.admin.drivers.list.invalidate();
        if (photoData || nationalIdData) {
          saved = await restCall<TDriver>('PATCH', `/api/admin/drivers/${encodeURIComponent(saved.id)}`, {
            ...details,
            ...(photoData ? { photoData } : {}),
            ...(nationalIdData ? { nationalIdData } : {}),
          });
        }
      }
      setEditing(saved);
      setForm({ id: saved.id, name: saved.name, email: saved.email ?? '', phone: saved.phone ?? '' });
      setPhotoData(null);
      setNationalIdData(null);
      setMessage({ tone: 'success', text: 'Driver details saved.' });
      void utils.admin.drivers.list.invalidate();
    } catch (err) {
      setMessage({
        tone: 'error',
        text: err instanceof RestError ? err.message : errorMessage(err, 'Failed to save driver.'),
      });
    } finally {
      setSaving(false);
    }
  }

  function edit(d: TDriver) {
    setEditing(d);
    setMessage(null);
    setPhotoData(null);
    setNationalIdData(null);
    setForm({ id: d.id, name: d.name, email: d.email ?? '', phone: d.phone ?? '' });
  }

  return (
    <section aria-labelledby="drivers-heading">
      <h2 id="drivers-heading">Drivers</h2>
      <form className="card" onSubmit={submit} noValidate>
        <h3>{editing ? `Edit driver ${editing.id}` : 'Add a driver'}</h3>
        {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
        <div className="grid">
          <TextField
            label="Driver ID"
            value={form.id}
            disabled={editing !== null}
            onChange={(e) => setForm((f) => ({ ...f, id: e.target.value }))}
          />
          <TextField
            label="Name"
            value={form.name}
            onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
          />
          <TextField
            label="Email"
            type="email"
            value={form.email}
            onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))}
          />
          <TextField
            label="Phone"
            type="tel"
            placeholder="07XX..."
            value={form.phone}
            onChange={(e) => setForm((f) => ({ ...f, phone: e.target.value }))}
          />
          <ImageInput
            key={`id-${editing?.id ?? 'new'}`}
            label="National ID photo"
            currentUrl={currentId}
            onChange={setNationalIdData}
            onError={(text) => setMessage({ tone: 'error', text })}
          />
          <ImageInput
            key={`photo-${editing?.id ?? 'new'}`}
            label="Profile photo"
            currentUrl={currentPhoto}
            onChange={setPhotoData}
            onError={(text) => setMessage({ tone: 'error', text })}
          />
        </div>
        <div className="button-row">
          <button type="submit" className="button" disabled={saving}>
            {saving ? 'Saving…' : editing ? 'Save driver' : 'Add driver'}
          </button>
          {editing ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                setEditing(null);
                setForm(EMPTY);
                setMessage(null);
              }}
            >
              New driver
            </button>
          ) : null}
        </div>
      </form>
      <div className="toolbar">
        <TextField
          label="Search drivers"
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      {drivers.error ? <Alert>Failed to load drivers.</Alert> : null}
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Photo</th>
              <th>ID</th>
              <th>Name</th>
              <th>Email</th>
              <th>Phone</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((d) => (
              <tr key={d.id}>
                <td>
                  <Thumb name={d.photoPath} alt={`Photo of ${d.name}`} />
                </td>
                <td>{d.id}</td>
                <td>{d.name}</td>
                <td>{d.email ?? '-'}</td>
                <td>{d.phone ?? '-'}</td>
                <td>
                  <button
                    type="button"
                    className="button button--small button--secondary"
                    onClick={() => edit(d)}
                  >
                    Edit {d.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <StaffAccounts drivers={drivers.data ?? []} />
    </section>
  );
}
