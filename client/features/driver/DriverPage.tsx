import { TRPCClientError } from '@trpc/client';
import { type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import { formatKes } from '../../../shared/domain/format';
import type { TDriver } from '../../../shared/schemas/fleet';
import type { TDriverDashboard } from '../../../shared/schemas/telemetry';
import { RestError, restCall } from '../../rest';
import { ADMIN_SELECTED_DRIVER_KEY, useSession } from '../../session';
import { errorMessage, trpc } from '../../trpc';
import { Alert, SelectField, TextField } from '../../ui/forms';
import { ImageInput } from '../../ui/ImageInput';
import { Page } from '../../ui/Page';
import { useAuthedImage } from '../../ui/useAuthedImage';
import { TruckSummary } from '../fleet/FleetPanel';

const HorizontalBarChart = lazy(() => import('../../ui/charts/HorizontalBarChart'));
const when = new Intl.DateTimeFormat('en-KE', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'Africa/Nairobi',
});

function StatCards({ d }: { d: TDriverDashboard }) {
  const s = d.summary;
  const trend = s.trend === null ? null : Math.round(s.trend * 1000) / 10;
  return (
    <div className="grid">
      <div className="card stat">
        <span className="stat__label">Loads delivered</span>
        <strong className="stat__value">{s.loadsDelivered}</strong>
      </div>
      <div className="card stat">
        <span className="stat__label">Tonnes delivered</span>
        <strong className="stat__value">{s.tonnesDelivered.toLocaleString('en-KE')} t</strong>
      </div>
      <div className="card stat">
        <span className="stat__label">Weekly revenue</span>
        <strong className="stat__value">{formatKes(s.weeklyRevenue)}</strong>
        {s.previousWeekRevenue ? (
          <span className="muted">
            Prev week KES {Math.round(s.previousWeekRevenue).toLocaleString('en-KE')}
          </span>
        ) : null}
      </div>
      <div className="card stat">
        <span className="stat__label">Average tonnes/load</span>
        <strong className="stat__value">{s.averageTonnesPerLoad.toFixed(1)}</strong>
        {trend !== null ? (
          <span className={trend >= 0 ? 'trend trend--up' : 'trend trend--down'}>
            {trend >= 0 ? 'Up' : 'Down'} {Math.abs(trend).toFixed(1)}% vs last week
          </span>
        ) : null}
      </div>
    </div>
  );
}

function ProfileForm({
  d,
  isAdmin,
  onSaved,
}: {
  d: TDriverDashboard;
  isAdmin: boolean;
  onSaved: () => void;
}) {
  const [form, setForm] = useState({
    name: d.driver.name,
    email: d.driver.email ?? '',
    phone: d.driver.phone ?? '',
  });
  const [photoData, setPhotoData] = useState<string | null>(null);
  const [nationalIdData, setNationalIdData] = useState<string | null>(null);
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'success' | 'error'; text?: string }>({
    kind: 'idle',
  });
  const photo = useAuthedImage(d.driver.photoPath);
  const nationalId = useAuthedImage(d.driver.nationalIdPath);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!form.name.trim()) return setState({ kind: 'error', text: 'Driver name is required.' });
    setState({ kind: 'saving' });
    const body = {
      name: form.name.trim(),
      email: form.email.trim() || null,
      phone: form.phone.trim() || null,
      ...(photoData ? { photoData } : {}),
      ...(nationalIdData ? { nationalIdData } : {}),
    };
    try {
      if (isAdmin)
        await restCall<TDriver>('PATCH', `/api/admin/drivers/${encodeURIComponent(d.driverId)}`, body);
      else await restCall<TDriver>('PUT', '/api/driver/profile', body);
      setState({
        kind: 'success',
        text: isAdmin ? 'Driver details saved.' : 'Profile updated successfully.',
      });
      setPhotoData(null);
      setNationalIdData(null);
      onSaved();
    } catch (err) {
      setState({ kind: 'error', text: err instanceof RestError ? err.message : 'Failed to update profile.' });
    }
  }

  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      {state.kind === 'error' ? <Alert>{state.text}</Alert> : null}
      {state.kind === 'success' ? <Alert tone="success">{state.text}</Alert> : null}
      <div className="grid">
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
          label="National ID photo"
          currentUrl={nationalId}
          onChange={setNationalIdData}
          onError={(text) => setState({ kind: 'error', text })}
        />
        <ImageInput
          label="Profile photo"
          currentUrl={photo}
          onChange={setPhotoData}
          onError={(text) => setState({ kind: 'error', text })}
        />
      </div>
      <button type="submit" className="button" disabled={state.kind === 'saving'}>
        {state.kind === 'saving' ? 'Saving...' : 'Save profile'}
      </button>
    </form>
  );
}

function Dashboard({
  driverId,
  isAdmin,
  isOwn,
}: {
  driverId: string | undefined;
  isAdmin: boolean;
  isOwn: boolean;
}) {
  const utils = trpc.useUtils();
  const dashboard = trpc.driver.dashboard.useQuery(driverId ? { driverId } : undefined);
  const move = trpc.admin.orders.setAssignmentStatus.useMutation({
    onSuccess: () => void utils.driver.dashboard.invalidate(),
  });
  if (dashboard.isLoading) return <p className="muted">Loading driver dashboard…</p>;
  if (dashboard.error) {
    const unlinked =
      dashboard.error instanceof TRPCClientError &&
      dashboard.error.message === 'Driver profile not linked to this account.';
    return (
      <Alert>
        {unlinked ? 'Driver profile not linked to this account.' : 'Failed to load driver dashboard'}
      </Alert>
    );
  }
  const d = dashboard.data!;
  return (
    <>
      <div className="toolbar">
        <span className="status-pill">{d.rank ? `Leaderboard #${d.rank}` : 'Leaderboard #–'}</span>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => void dashboard.refetch()}
        >
          Refresh
        </button>
      </div>
      <StatCards d={d} />
      <div className="two-col">
        <section className="card" aria-labelledby="recent-heading">
          <h2 id="recent-heading">Recent assignments</h2>
          {move.error ? <Alert>{errorMessage(move.error, 'Failed to update assignment.')}</Alert> : null}
          {d.assignments.length === 0 ? (
            <p className="muted">No assignments yet. Operations will notify you once a load is scheduled.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th>Site</th>
                    <th>Status</th>
                    <th>Tonnes</th>
                    <th>Revenue</th>
                    <th>Scheduled</th>
                  </tr>
                </thead>
                <tbody>
                  {d.assignments.map((a) => (
                    <tr key={a.id}>
                      <td>
                        {a.site}
                        <div className="muted">{a.plate ?? a.truckId ?? 'Truck TBD'}</div>
                      </td>
                      <td>
                        {a.status}
                        {isOwn && (a.status === 'SCHEDULED' || a.status === 'IN_TRANSIT') ? (
                          <div className="inline-form">
                            {a.status === 'SCHEDULED' ? (
                              <button
                                type="button"
                                className="button button--small"
                                disabled={move.isPending}
                                onClick={() => move.mutate({ id: a.id, status: 'IN_TRANSIT' })}
                              >
                                In Transit
                              </button>
                            ) : null}
                            <button
                              type="button"
                              className="button button--small"
                              disabled={move.isPending}
                              onClick={() => move.mutate({ id: a.id, status: 'DELIVERED' })}
                            >
                              Delivered
                            </button>
                          </div>
                        ) : null}
                      </td>
                      <td>{a.tonnes}</td>
                      <td>{formatKes(a.estimatedRevenue)}</td>
                      <td>{a.scheduledAt ? when.format(new Date(a.scheduledAt)) : 'TBC'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
        <section className="card" aria-labelledby="board-heading">
          <h2 id="board-heading">Leaderboard</h2>
          {d.leaderboard.length === 0 ? (
            <p className="muted">No deliveries yet this week.</p>
          ) : (
            <Suspense fallback={<p className="muted">Loading chart…</p>}>
              <HorizontalBarChart
                title="Top drivers by revenue this week"
                data={d.leaderboard.map((l) => ({ label: l.name, value: l.revenue }))}
                formatValue={formatKes}
              />
            </Suspense>
          )}
        </section>
      </div>
      <section aria-labelledby="assigned-trucks">
        <h2 id="assigned-trucks">Assigned trucks</h2>
        {d.telemetry.length === 0 ? (
          <p className="muted">
            No trucks attached yet. You will see live location once dispatch assigns your next load.
          </p>
        ) : (
          <ul className="truck-cards">
            {d.telemetry.map((t) => (
              <li key={t.truckId} className="card truck-card">
                <TruckSummary truck={t} />
              </li>
            ))}
          </ul>
        )}
      </section>
      <ProfileForm key={d.driverId} d={d} isAdmin={isAdmin} onSaved={() => void dashboard.refetch()} />
    </>
  );
}

/** /driver: a driver's own week, or an admin's view of any driver. */
export function DriverPage() {
  const session = useSession();
  const isAdmin = session?.role === 'ADMIN';
  const drivers = trpc.admin.drivers.list.useQuery(undefined, { enabled: isAdmin });
  const [selected, setSelected] = useState<string>(() =>
    isAdmin ? (localStorage.getItem(ADMIN_SELECTED_DRIVER_KEY) ?? '') : '',
  );
  useEffect(() => {
    if (
      isAdmin &&
      !selected &&
      drivers.data?.[0] &&
      localStorage.getItem(ADMIN_SELECTED_DRIVER_KEY) === null
    ) {
      setSelected(drivers.data[0].id);
      localStorage.setItem(ADMIN_SELECTED_DRIVER_KEY, drivers.data[0].id);
    }
  }, [isAdmin, selected, drivers.data]);

  const own = trpc.driver.dashboard.useQuery(undefined, { enabled: !isAdmin && Boolean(session?.driverId) });
  if (!isAdmin) {
    const linked = Boolean(session?.driverId);
    const name = own.data?.driverName ?? session?.userName ?? 'driver';
    return (
      <Page
        title="Driver performance"
        subtitle={
          linked
            ? `Hi ${name}, here is how you are tracking this week.`
            : 'Your account is not linked to a driver profile yet. Please contact an admin to assign one.'
        }
      >
        {linked ? <Dashboard driverId={undefined} isAdmin={false} isOwn /> : null}
      </Page>
    );
  }

  const chosen = drivers.data?.find((d) => d.id === selected);
  return (
    <Page
      title="Driver performance"
      subtitle={chosen ? `${chosen.name} - live performance snapshot for this week.` : undefined}
    >
      {drivers.error ? <Alert>Unable to load drivers list.</Alert> : null}
      <div className="card">
        <SelectField
          label="Driver"
          value={selected}
          onChange={(e) => {
            setSelected(e.target.value);
            localStorage.setItem(ADMIN_SELECTED_DRIVER_KEY, e.target.value);
          }}
        >
          <option value="">Pick driver...</option>
          {(drivers.data ?? []).map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        {chosen ? (
          <p className="muted">
            ID {chosen.id} ·{' '}
            {chosen.email || chosen.phone
              ? [chosen.email, chosen.phone].filter(Boolean).join(' · ')
              : 'No contact details recorded'}
          </p>
        ) : null}
      </div>
      {selected ? (
        <Dashboard driverId={selected} isAdmin isOwn={false} />
      ) : (
        <p className="muted">Select a driver to view performance.</p>
      )}
    </Page>
  );
}
