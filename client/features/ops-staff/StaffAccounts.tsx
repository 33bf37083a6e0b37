import { type FormEvent, useEffect, useRef, useState } from 'react';
import { STAFF_ROLES, type StaffRole } from '../../../shared/roles';
import type { TDriver } from '../../../shared/schemas/fleet';
import { type StaffT, useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Badge } from '../../ui/Badge';
import { useConfirm } from '../../ui/ConfirmDialog';
import { DataList } from '../../ui/DataList';
import { Alert, FormStatus, SelectField, TextField } from '../../ui/forms';

const ROLE_LABELS: Record<StaffRole, (t: StaffT) => string> = {
  OPS: (t) => t('staff.roleOps'),
  DRIVER: (t) => t('staff.roleDriver'),
  FUEL: (t) => t('staff.roleFuel'),
};

const EMPTY = {
  name: '',
  email: '',
  phone: '',
  password: '',
  role: 'OPS' as StaffRole,
  driverId: '',
};

/** ADMIN's staff accounts: create OPS, DRIVER (linked to a driver) and FUEL users; disable or enable them. */
export function StaffAccounts({ drivers }: { drivers: TDriver[] }) {
  const { t } = useStaffT();
  const utils = trpc.useUtils();
  const users = trpc.admin.users.list.useQuery();
  const [form, setForm] = useState(EMPTY);
  const [done, setDone] = useState<string | null>(null);
  const refresh = () => void utils.admin.users.list.invalidate();
  const create = trpc.admin.users.create.useMutation({
    onSuccess: (u) => {
      setDone(t('staff.created', { name: u.name, role: u.role }));
      setForm(EMPTY);
      refresh();
    },
  });
  const disable = trpc.admin.users.disable.useMutation({ onSuccess: refresh });
  const enable = trpc.admin.users.enable.useMutation({ onSuccess: refresh });
  const [oneTime, setOneTime] = useState<{ name: string; password: string } | null>(null);
  const reset = trpc.admin.users.resetPassword.useMutation();
  // The one-time password (or why it failed) shows above the list: bring it into view, as the button that
  // asked for it may be far down the list on a phone.
  const resetNotice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (oneTime || reset.error) resetNotice.current?.scrollIntoView({ block: 'center' });
  }, [oneTime, reset.error]);
  const confirm = useConfirm();
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    setDone(null);
    create.mutate({ ...form, driverId: form.role === 'DRIVER' ? form.driverId : null });
  }

  const actionError = disable.error ?? enable.error;
  const resetButton = (u: { id: number; name: string }) => (
    <button
      type="button"
      className="button button--small button--secondary"
      onClick={() =>
        confirm.ask({
          title: t('staff.resetTitle', { name: u.name }),
          body: <p>{t('staff.resetEffect', { name: u.name })}</p>,
          confirmLabel: t('staff.resetConfirm'),
          cancelLabel: t('staff.resetKeep'),
          onConfirm: () => {
            setOneTime(null);
            reset.mutate(
              { id: u.id },
              { onSuccess: (r) => setOneTime({ name: u.name, password: r.oneTimePassword }) },
            );
          },
        })
      }
    >
      {t('staff.resetPassword', { name: u.name })}
    </button>
  );
  return (
    <section className="card" aria-labelledby="staff-heading">
      <h3 id="staff-heading">{t('staff.heading')}</h3>
      <form onSubmit={submit} noValidate>
        {/* The refusal or the new account, in view and focused (the form is taller than a phone). */}
        <FormStatus
          message={
            create.error
              ? {
                  tone: 'error',
                  text: errorMessage(create.error, t('staff.createFailed')),
                  seq: create.submittedAt,
                }
              : done
                ? { tone: 'success', text: done, seq: create.submittedAt }
                : null
          }
        />
        <div className="grid">
          <TextField label={t('staff.name')} value={form.name} onChange={set('name')} />
          <TextField label={t('staff.email')} type="email" value={form.email} onChange={set('email')} />
          <TextField label={t('staff.phone')} type="tel" value={form.phone} onChange={set('phone')} />
          <TextField
            label={t('staff.password')}
            type="password"
            autoComplete="new-password"
            value={form.password}
            onChange={set('password')}
          />
          <SelectField
            label={t('staff.role')}
            value={form.role}
            onChange={(e) => setForm((f) => ({ ...f, role: e.target.value as typeof f.role }))}
          >
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role](t)}
              </option>
            ))}
          </SelectField>
          {form.role === 'DRIVER' ? (
            <SelectField label={t('staff.linkedDriver')} value={form.driverId} onChange={set('driverId')}>
              <option value="">{t('staff.pickDriver')}</option>
              {drivers.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name} ({d.id})
                </option>
              ))}
            </SelectField>
          ) : null}
        </div>
        <button type="submit" className="button" disabled={create.isPending}>
          {create.isPending ? t('staff.creating') : t('staff.create')}
        </button>
      </form>
      {actionError ? <Alert>{errorMessage(actionError, t('staff.updateFailed'))}</Alert> : null}
      <div ref={resetNotice}>
        {reset.error ? <Alert>{errorMessage(reset.error, t('staff.resetFailed'))}</Alert> : null}
        {oneTime ? (
          <Alert tone="success">
            <strong>{t('staff.oneTimeFor', { name: oneTime.name, password: oneTime.password })}</strong>{' '}
            {t('staff.oneTimeNote')}
          </Alert>
        ) : null}
      </div>
      <DataList
        label={t('staff.heading')}
        rows={users.data ?? []}
        rowKey={(u) => u.id}
        title={(u) => u.name}
        columns={[
          { header: t('staff.nameColumn'), cell: (u) => u.name, hideOnCard: true },
          { header: t('staff.emailColumn'), cell: (u) => u.email },
          { header: t('staff.role'), cell: (u) => u.role },
          { header: t('staff.driver'), cell: (u) => u.driverId ?? '-' },
          {
            header: t('staff.state'),
            cell: (u) =>
              u.role === 'ADMIN' ? (
                t('staff.active')
              ) : u.disabled ? (
                <Badge tone="muted">{t('staff.disabled')}</Badge>
              ) : (
                <Badge tone="good">{t('staff.active')}</Badge>
              ),
          },
        ]}
        actions={(u) =>
          u.role === 'ADMIN' ? null : (
            <div className="button-row">
              {u.disabled ? (
                <button
                  type="button"
                  className="button button--small button--secondary"
                  onClick={() => enable.mutate({ id: u.id })}
                >
                  {t('staff.enable', { name: u.name })}
                </button>
              ) : (
                <button
                  type="button"
                  className="button button--small button--secondary"
                  onClick={() =>
                    confirm.ask({
                      title: t('staff.disableTitle', { name: u.name }),
                      body: (
                        <>
                          <p>{t('staff.disableEffect', { name: u.name, email: u.email, role: u.role })}</p>
                          <p>{t('staff.recordsStay')}</p>
                        </>
                      ),
                      confirmLabel: t('staff.disableAccount'),
                      cancelLabel: t('staff.keepActive'),
                      onConfirm: () => disable.mutate({ id: u.id }),
                    })
                  }
                >
                  {t('staff.disable', { name: u.name })}
                </button>
              )}
              {u.disabled ? null : resetButton(u)}
            </div>
          )
        }
      />
      {confirm.dialog}
    </section>
  );
}
