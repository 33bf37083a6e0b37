import { type FormEvent, useState } from 'react';
import type { TDriver } from '../../../shared/schemas/fleet';
import { errorMessage, trpc } from '../../trpc';
import { Badge } from '../../ui/Badge';
import { useConfirm } from '../../ui/ConfirmDialog';
import { DataList } from '../../ui/DataList';
import { Alert, SelectField, TextField } from '../../ui/forms';

const EMPTY = {
  name: '',
  email: '',
  phone: '',
  password: '',
  role: 'OPS' as 'OPS' | 'DRIVER' | 'FUEL',
  driverId: '',
};

/** ADMIN's staff accounts: create OPS, DRIVER (linked to a driver) and FUEL users; disable or enable them. */
export function StaffAccounts({ drivers }: { drivers: TDriver[] }) {
  const utils = trpc.useUtils();
  const users = trpc.admin.users.list.useQuery();
  const [form, setForm] = useState(EMPTY);
  const [done, setDone] = useState<string | null>(null);
  const refresh = () => void utils.admin.users.list.invalidate();
  const create = trpc.admin.users.create.useMutation({
    onSuccess: (u) => {
      setDone(`${u.name} can now sign in as ${u.role}.`);
      setForm(EMPTY);
      refresh();
    },
  });
  const disable = trpc.admin.users.disable.useMutation({ onSuccess: refresh });
  const enable = trpc.admin.users.enable.useMutation({ onSuccess: refresh });
  const confirm = useConfirm();
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(null);
    create.mutate({ ...form, driverId: form.role === 'DRIVER' ? form.driverId : null });
  }

  const actionError = disable.error ?? enable.error;
  return (
    <section className="card" aria-labelledby="staff-heading">
      <h3 id="staff-heading">Staff accounts</h3>
      <form onSubmit={submit} noValidate>
        {create.error ? <Alert>{errorMessage(create.error, 'Failed to create the account.')}</Alert> : null}
        {done ? <Alert tone="success">{done}</Alert> : null}
        <div className="grid">
          <TextField label="Staff name" value={form.name} onChange={set('name')} />
          <TextField label="Staff email" type="email" value={form.email} onChange={set('email')} />
          <TextField label="Staff phone" type="tel" value={form.phone} onChange={set('phone')} />
          <TextField
            label="Temporary password"
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={set('password')}
          />
          <SelectField
            label="Role"
            value={form.role}
            onChange={(e) => setForm((f) => ({ ...f, role: e.target.value as typeof f.role }))}
          >
            <option value="OPS">Operations (OPS)</option>
            <option value="DRIVER">Driver</option>
            <option value="FUEL">Fuel attendant (FUEL)</option>
          </SelectField>
          {form.role === 'DRIVER' ? (
            <SelectField label="Linked driver" value={form.driverId} onChange={set('driverId')}>
              <option value="">Pick driver...</option>
              {drivers.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({d.id})
                </option>
              ))}
            </SelectField>
          ) : null}
        </div>
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create account'}
        </button>
      </form>
      {actionError ? <Alert>{errorMessage(actionError, 'Failed to update the account.')}</Alert> : null}
      <DataList
        label="Staff accounts"
        rows={users.data ?? []}
        rowKey={(u) => u.id}
        title={(u) => u.name}
        columns={[
          { header: 'Name', cell: (u) => u.name, hideOnCard: true },
          { header: 'Email', cell: (u) => u.email },
          { header: 'Role', cell: (u) => u.role },
          { header: 'Driver', cell: (u) => u.driverId ?? '-' },
          {
            header: 'State',
            cell: (u) =>
              u.role === 'ADMIN' ? (
                'Active'
              ) : u.disabled ? (
                <Badge tone="muted">Disabled</Badge>
              ) : (
                <Badge tone="good">Active</Badge>
              ),
          },
        ]}
        actions={(u) =>
          u.role === 'ADMIN' ? null : u.disabled ? (
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() => enable.mutate({ id: u.id })}
            >
              Enable {u.name}
            </button>
          ) : (
            <button
              type="button"
              className="button button--small button--secondary"
              onClick={() =>
                confirm.ask({
                  title: `Disable ${u.name}?`,
                  body: (
                    <>
                      <p>
                        {u.name} ({u.email}) is signed out on their next action and cannot sign in as {u.role}{' '}
                        until you enable the account again.
                      </p>
                      <p>Their records stay as they are.</p>
                    </>
                  ),
                  confirmLabel: 'Disable account',
                  cancelLabel: 'Keep active',
                  onConfirm: () => disable.mutate({ id: u.id }),
                })
              }
            >
              Disable {u.name}
            </button>
          )
        }
      />
      {confirm.dialog}
    </section>
  );
}
