import { useState } from 'react';
import { useStaffT } from '../../i18n/staff';
import { trpc } from '../../trpc';
import { Alert, SelectField } from '../../ui/forms';
import { TAB_TOPS, TabSection } from '../ops/TabSection';
import type { TabProps } from '../ops/tab-props';
import { PhaseMedians, TripList } from './TripsView';

/** Cycle times of delivered loads per truck or driver (7 or 30 days): medians, slowest trips and causes. */
export function TripsTab(_props: TabProps) {
  const { t } = useStaffT();
  const [days, setDays] = useState<7 | 30>(7);
  const [by, setBy] = useState<'truck' | 'driver'>('truck');
  const report = trpc.admin.trips.report.useQuery({ days, by });
  return (
    <TabSection tab="trips" top={TAB_TOPS.trips(t)}>
      <div className="toolbar">
        <SelectField
          label={t('common.period')}
          value={String(days)}
          onChange={(e) => setDays(Number(e.target.value) as 7 | 30)}
        >
          <option value="7">{t('common.last7')}</option>
          <option value="30">{t('common.last30')}</option>
        </SelectField>
        <SelectField
          label={t('trips.per')}
          value={by}
          onChange={(e) => setBy(e.target.value as 'truck' | 'driver')}
        >
          <option value="truck">{t('common.truck')}</option>
          <option value="driver">{t('common.driver')}</option>
        </SelectField>
      </div>
      {report.error ? <Alert>{t('trips.failed')}</Alert> : null}
      {report.data && report.data.groups.length === 0 ? <p className="muted">{t('trips.none')}</p> : null}
      <ul className="plain-list">
        {(report.data?.groups ?? []).map((g) => (
          <li key={g.key} className="card">
            <h3>
              {g.name} · {t('trips.trips', { count: g.trips })}
            </h3>
            <h4>{t('trips.medians')}</h4>
            <PhaseMedians medians={g.medians} />
            <h4>{t('trips.slowest')}</h4>
            <TripList label={t('trips.slowestOf', { name: g.name })} trips={g.slowest} showDriver />
          </li>
        ))}
      </ul>
    </TabSection>
  );
}
