import { useState } from 'react';
import { useTranslation } from '../../i18n';
import { trpc } from '../../trpc';
import { Alert, SelectField } from '../../ui/forms';
import { PhaseMedians, TripList } from '../ops-trips/TripsView';

/** The signed-in driver's own round trips: medians per phase and each trip with its slow part. */
export function MyTrips() {
  const { t } = useTranslation();
  const [days, setDays] = useState<7 | 30>(7);
  const trips = trpc.admin.trips.mine.useQuery({ days });
  return (
    <section className="card" aria-labelledby="my-trips-heading">
      <h2 id="my-trips-heading">{t('driver.myTrips')}</h2>
      <SelectField
        label={t('driver.period')}
        value={String(days)}
        onChange={(e) => setDays(Number(e.target.value) as 7 | 30)}
      >
        <option value="7">{t('driver.last7')}</option>
        <option value="30">{t('driver.last30')}</option>
      </SelectField>
      {trips.error ? <Alert>{t('driver.tripsFailed')}</Alert> : null}
      {trips.data ? (
        <>
          <PhaseMedians medians={trips.data.medians} />
          <TripList label={t('driver.deliveredTrips')} trips={trips.data.trips} />
        </>
      ) : null}
    </section>
  );
}
