import { useMutation } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { useCallback, useEffect, useState } from 'react';
import { isOpenLoad } from '../../../shared/enums';
import type { TDriver } from '../../../shared/schemas/fleet';
import type { TDriverDashboard } from '../../../shared/schemas/telemetry';
import { useTranslation } from '../../i18n';
import { useFormat } from '../../i18n/format';
import { useOutbox } from '../../offline/OfflineStatus';
import { isQueued, queuedMoves, queuedText, submitField } from '../../offline/outbox';
import { ADMIN_SELECTED_DRIVER_KEY, useSession } from '../../session';
import { errorMessage, trpc } from '../../trpc';
import { AfterFirstAnswers } from '../../ui/AfterFirstAnswers';
import { Badge, loadTone } from '../../ui/Badge';
import BarChart from '../../ui/charts/BarChart';
import { DataList } from '../../ui/DataList';
import { Alert, SelectField } from '../../ui/forms';
import { Money } from '../../ui/Money';
import { Page } from '../../ui/Page';
import { PhoneLinks } from '../../ui/PhoneLinks';
import { StatCard } from '../../ui/StatCard';
import { TruckSummary } from '../fleet/FleetPanel';
import { DriverDetailsForm } from '../ops-drivers/DriverDetailsForm';
import { DeliveryProofSheet } from './DeliveryProofSheet';
import { MyTrips } from './MyTrips';

/** Who to call at the site and the way there, while the job is open. */
function JobContact({ job }: { job: TDriverDashboard['assignments'][number] }) {
  if (!isOpenLoad(job.status)) return null;
  return (
    <PhoneLinks phone={job.customerPhone} name={job.customerName ?? job.site} directionsTo={job.sitePoint} />
  );
}

function StatCards({ d }: { d: TDriverDashboard }) {
  const { t, number, tonnes, moneyFigure, decimals } = useFormat();
  const s = d.summary;
  const trend = s.trend === null ? null : Math.round(s.trend * 1000) / 10;
  return (
    <div className="grid">
      <StatCard label={t('driver.loadsDelivered')} value={number(s.loadsDelivered)} />
      <StatCard label={t('driver.tonnesDelivered')} value={tonnes(s.tonnesDelivered)} />
      <StatCard
        label={t('driver.weeklyRevenue')}
        value={<Money value={s.weeklyRevenue} />}
        note={
          s.previousWeekRevenue
            ? t('driver.prevWeek', { amount: moneyFigure(s.previousWeekRevenue) })
            : undefined
        }
      />
      <StatCard
        label={t('driver.averageTonnes')}
        value={decimals(s.averageTonnesPerLoad, 1)}
        note={
          trend !== null ? (
            <span className={trend >= 0 ? 'trend trend--up' : 'trend trend--down'}>
              {t(trend >= 0 ? 'driver.up' : 'driver.down', { pct: Math.abs(trend).toFixed(1) })}
            </span>
          ) : undefined
        }
      />
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
  const { t } = useTranslation();
  const adminUpdate = trpc.admin.drivers.update.useMutation();
  return (
    <DriverDetailsForm
      driver={d.driver}
      heading={<h2 id="profile-heading">{t('driver.profile')}</h2>}
      labelledBy="profile-heading"
      submitLabel={t('driver.saveProfile')}
      savingLabel={t('driver.saving')}
      savedText={isAdmin ? 'Driver details saved.' : t('driver.profileSaved')}
      failedText={t('driver.profileFailed')}
      save={({ id: _id, ...details }) =>
        isAdmin
          ? adminUpdate.mutateAsync({ ...details, id: d.driverId })
          : // The driver's own phone: through the device outbox (client/offline/outbox.ts).
            submitField<TDriver>('profile', details, `${details.name} · ${details.phone ?? ''}`).catch(
              (err: unknown) => {
                throw isQueued(err) ? new Error(queuedText(err, t)) : err;
              },
            )
      }
      onSaved={onSaved}
    />
  );
}

function Dashboard({
  driverId,
  isAdmin,
  isOwn,
  onDriver,
}: {
  driverId: string | undefined;
  isAdmin: boolean;
  isOwn: boolean;
  /** An admin's first visit asks without a driver; the server answers for the first one, which becomes the choice. */
  onDriver?: (driverId: string) => void;
}) {
  const { t, money, tonnes, dateTime, loadStatus } = useFormat();
  const utils = trpc.useUtils();
  const dashboard = trpc.driver.dashboard.useQuery(driverId ? { driverId } : undefined);
  const answeredFor = dashboard.data?.driverId;
  useEffect(() => {
    if (!answeredFor || driverId || !dashboard.data) return;
    // The answer is that driver's: keep it under their key so choosing them asks nothing again.
    utils.driver.dashboard.setData({ driverId: answeredFor }, dashboard.data);
    onDriver?.(answeredFor);
  }, [answeredFor, driverId, onDriver, dashboard.data, utils]);
  // Through the device outbox (client/offline/outbox.ts): a tap without signal is kept and shown waiting.
  const move = useMutation({
    networkMode: 'always',
    mutationFn: (input: { id: number; status: 'IN_TRANSIT' | 'ARRIVED' }) =>
      submitField(
        'move',
        input,
        // The outbox keeps this line as written: the language of the moment it was entered.
        t('outbox.move', {
          id: input.id,
          status: input.status === 'IN_TRANSIT' ? t('driver.inTransit') : t('driver.arrived'),
        }),
      ),
    onSuccess: () => void utils.driver.dashboard.invalidate(),
  });
  const [delivering, setDelivering] = useState<{ id: number; site: string } | null>(null);
  // Moves kept on this phone (no signal): each load shows the state it is meant to reach, once.
  const waiting = queuedMoves(useOutbox());
  if (dashboard.isLoading) return <p className="muted">{t('driver.loading')}</p>;
  if (dashboard.error) {
    const unlinked =
      dashboard.error instanceof TRPCClientError &&
      dashboard.error.message === 'Driver profile not linked to this account.';
    return <Alert>{unlinked ? t('driver.unlinkedError') : t('driver.loadFailed')}</Alert>;
  }
  const d = dashboard.data!;
  return (
    <>
      <div className="toolbar">
        <span className="status-pill">
          {d.rank ? t('driver.rank', { rank: d.rank }) : t('driver.noRank')}
        </span>
        <button
          type="button"
          className="button button--small button--secondary"
          onClick={() => void dashboard.refetch()}
        >
          {t('driver.refresh')}
        </button>
      </div>
      <StatCards d={d} />
      <div className="two-col">
        <section className="card" aria-labelledby="recent-heading">
          <h2 id="recent-heading">{t('driver.recent')}</h2>
          {move.error ? (
            isQueued(move.error) ? (
              <Alert tone="info">{queuedText(move.error, t)}</Alert>
            ) : (
              <Alert>{errorMessage(move.error, t('driver.moveFailed'))}</Alert>
            )
          ) : null}
          <DataList
            label={t('driver.recent')}
            rows={d.assignments}
            rowKey={(a) => a.id}
            title={(a) => (
              <>
                {a.site}
                <div className="muted">{a.plate ?? a.truckId ?? t('driver.truckTbd')}</div>
                <JobContact job={a} />
              </>
            )}
            columns={[
              {
                header: t('driver.site'),
                hideOnCard: true,
                cell: (a) => (
                  <>
                    {a.site}
                    <div className="muted">{a.plate ?? a.truckId ?? t('driver.truckTbd')}</div>
                    <JobContact job={a} />
                  </>
                ),
              },
              {
                header: t('driver.status'),
                cell: (a) => (
                  <>
                    <Badge tone={loadTone(a.status)}>{loadStatus(a.status)}</Badge>
                    {waiting.has(a.id) ? (
                      // Its own line that wraps: a badge does not, and at 360 px it pushed the page sideways.
                      <span className="queued-note">
                        {t('driver.queuedAs', {
                          status:
                            waiting.get(a.id) === 'ARRIVED' ? t('driver.arrived') : t('driver.inTransit'),
                        })}
                      </span>
                    ) : null}
                  </>
                ),
              },
              { header: t('driver.tonnes'), numeric: true, cell: (a) => tonnes(a.tonnes) },
              {
                header: t('driver.revenue'),
                numeric: true,
                cell: (a) => <Money value={a.estimatedRevenue} />,
              },
              {
                header: t('driver.scheduled'),
                cell: (a) => (a.scheduledAt ? dateTime(a.scheduledAt) : t('driver.tbc')),
              },
            ]}
            actions={
              isOwn
                ? (a) =>
                    isOpenLoad(a.status) ? (
                      <>
                        {a.status === 'SCHEDULED' && !waiting.has(a.id) ? (
                          <button
                            type="button"
                            className="button button--small button--secondary"
                            disabled={move.isPending}
                            onClick={() => move.mutate({ id: a.id, status: 'IN_TRANSIT' })}
                          >
                            {t('driver.inTransit')}
                          </button>
                        ) : null}
                        {(a.status === 'IN_TRANSIT' && waiting.get(a.id) !== 'ARRIVED') ||
                        (a.status === 'SCHEDULED' && waiting.get(a.id) === 'IN_TRANSIT') ? (
                          <button
                            type="button"
                            className="button button--small button--secondary"
                            disabled={move.isPending}
                            onClick={() => move.mutate({ id: a.id, status: 'ARRIVED' })}
                          >
                            {t('driver.arrived')}
                          </button>
                        ) : null}
                        <button
                          type="button"
                          className="button button--small"
                          disabled={move.isPending}
                          onClick={() => setDelivering({ id: a.id, site: a.site })}
                        >
                          {t('driver.delivered')}
                        </button>
                      </>
                    ) : null
                : undefined
            }
            empty={t('driver.noAssignments')}
          />
          {delivering ? (
            <DeliveryProofSheet
              load={delivering}
              onClose={() => setDelivering(null)}
              onDelivered={() => {
                setDelivering(null);
                void utils.driver.dashboard.invalidate();
              }}
            />
          ) : null}
        </section>
        <section className="card" aria-labelledby="board-heading">
          <h2 id="board-heading">{t('driver.leaderboard')}</h2>
          {d.leaderboard.length === 0 ? (
            <p className="muted">{t('driver.noDeliveries')}</p>
          ) : (
            <BarChart
              title={t('driver.topDrivers')}
              data={d.leaderboard.map((l) => ({ label: l.name, value: l.revenue }))}
              formatValue={money}
            />
          )}
        </section>
      </div>
      <section aria-labelledby="assigned-trucks">
        <h2 id="assigned-trucks">{t('driver.assignedTrucks')}</h2>
        {d.telemetry.length === 0 ? (
          <p className="muted">{t('driver.noTrucks')}</p>
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
  const { t } = useTranslation();
  const session = useSession();
  const isAdmin = session?.role === 'ADMIN';
  const drivers = trpc.admin.drivers.list.useQuery(undefined, { enabled: isAdmin });
  const [selected, setSelected] = useState<string>(() =>
    isAdmin ? (localStorage.getItem(ADMIN_SELECTED_DRIVER_KEY) ?? '') : '',
  );
  // Nothing remembered yet: the dashboard is asked for the first driver in the same batch as the list.
  const [firstVisit] = useState(() => isAdmin && localStorage.getItem(ADMIN_SELECTED_DRIVER_KEY) === null);
  const choose = useCallback((id: string) => {
    setSelected(id);
    localStorage.setItem(ADMIN_SELECTED_DRIVER_KEY, id);
  }, []);

  const own = trpc.driver.dashboard.useQuery(undefined, { enabled: !isAdmin && Boolean(session?.driverId) });
  if (!isAdmin) {
    const linked = Boolean(session?.driverId);
    const name = own.data?.driverName ?? session?.userName ?? t('driver.driverFallback');
    return (
      <Page title={t('driver.title')} subtitle={linked ? t('driver.hi', { name }) : t('driver.notLinked')}>
        {linked ? <Dashboard driverId={undefined} isAdmin={false} isOwn /> : null}
        {/* Asked with the dashboard (one batched request), shown under it once it is in: never pushed down. */}
        {linked ? (
          <AfterFirstAnswers>
            <MyTrips />
          </AfterFirstAnswers>
        ) : null}
      </Page>
    );
  }

  const chosen = drivers.data?.find((d) => d.id === selected);
  return (
    <Page
      title={t('driver.title')}
      subtitle={chosen ? t('driver.snapshot', { name: chosen.name }) : undefined}
    >
      {drivers.error ? <Alert>{t('driver.driversFailed')}</Alert> : null}
      <div className="card">
        <SelectField label={t('driver.driver')} value={selected} onChange={(e) => choose(e.target.value)}>
          <option value="">{t('driver.pickDriver')}</option>
          {(drivers.data ?? []).map((d) => (
            <option key={d.id} value={d.id}>
              {d.name}
            </option>
          ))}
        </SelectField>
        {chosen ? (
          <p className="muted">
            {t('driver.id', { id: chosen.id })} ·{' '}
            {chosen.email || chosen.phone
              ? [chosen.email, chosen.phone].filter(Boolean).join(' · ')
              : t('driver.noContact')}
          </p>
        ) : null}
      </div>
      {selected || firstVisit ? (
        <Dashboard driverId={selected || undefined} isAdmin isOwn={false} onDriver={choose} />
      ) : (
        <p className="muted">Select a driver to view performance.</p>
      )}
    </Page>
  );
}
