import { type FormEvent, useState } from 'react';
import { isClosedOrder } from '../../../shared/enums';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { useTranslation } from '../../i18n';
import { errorMessage, trpc } from '../../trpc';
import { Alert, TextField } from '../../ui/forms';

/** Catalog keys of where the site's position came from. */
const SOURCE_LABEL: Record<string, string> = {
  geocoder: 'site.sourceGeocoder',
  gazetteer: 'site.sourceGazetteer',
  pin: 'site.sourcePin',
  link: 'site.sourceLink',
  driver: 'site.sourceDriver',
};

/**
 * The customer puts their site on the map: pastes a location shared from Google Maps or Apple Maps (or a
 * geo: link, or coordinates), or pins where their phone is. The geofence then knows when the truck arrives.
 */
export function SiteRefine({ order }: { order: TListedOrder }) {
  const { t } = useTranslation();
  const utils = trpc.useUtils();
  const [shared, setShared] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const save = trpc.tracking.setSite.useMutation({
    onSuccess: (p) => {
      setProblem(null);
      setShared('');
      setDone(t('site.saved', { lat: p.lat.toFixed(5), lng: p.lng.toFixed(5) }));
      void utils.orders.my.invalidate();
    },
    onError: (e) => {
      setDone(null);
      setProblem(errorMessage(e, t('site.failed')));
    },
  });
  if (isClosedOrder(order.status)) return null;
  const sourceKey = order.siteSource ? SOURCE_LABEL[order.siteSource] : undefined;
  const source = sourceKey ? t(sourceKey) : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate({ id: order.id, shared });
  }
  function pinHere() {
    if (!navigator.geolocation) {
      setProblem(t('site.noLocation'));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) => save.mutate({ id: order.id, lat: p.coords.latitude, lng: p.coords.longitude }),
      () => setProblem(t('site.readFailed')),
      { enableHighAccuracy: true, timeout: 10_000 },
    );
  }

  return (
    <details className="site-refine">
      <summary>
        {t('site.summary')}
        {source ? ` ${t('site.now', { source })}` : ''}
      </summary>
      <form onSubmit={submit} noValidate>
        <TextField
          label={t('site.shared')}
          placeholder={t('site.sharedPlaceholder')}
          value={shared}
          onChange={(e) => setShared(e.target.value)}
          hint={t('site.sharedHint')}
        />
        <div className="row-actions">
          <button type="submit" className="button button--small" disabled={save.isPending}>
            {t('site.save')}
          </button>
          <button
            type="button"
            className="button button--small button--secondary"
            disabled={save.isPending}
            onClick={pinHere}
          >
            {t('site.pinHere')}
          </button>
        </div>
        {problem ? <Alert>{problem}</Alert> : null}
        {done ? <Alert tone="success">{done}</Alert> : null}
      </form>
    </details>
  );
}
