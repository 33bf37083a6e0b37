import { siteMapUrl } from '../../../shared/domain/place-links';
import type { SiteSource } from '../../../shared/enums';
import type { TListedOrder } from '../../../shared/schemas/orders';
import { useStaffT } from '../../i18n/staff';

/**
 * Where the order's site is on the map, and how sure that is: a looked-up point (address or town) has a
 * wide fence; a pin, a shared location or the driver's stop is the site itself.
 */
export function SitePin({
  order,
}: {
  order: Pick<TListedOrder, 'siteLat' | 'siteLng' | 'siteRadiusM' | 'siteSource'>;
}) {
  const { t } = useStaffT();
  if (order.siteLat === null || order.siteLng === null)
    return <p className="muted">{t('orders.noSitePin')}</p>;
  const source: Record<SiteSource, string> = {
    geocoder: t('orders.siteFromGeocoder'),
    gazetteer: t('orders.siteFromGazetteer'),
    pin: t('orders.siteFromPin'),
    link: t('orders.siteFromLink'),
    driver: t('orders.siteFromDriver'),
  };
  return (
    <p className="contact-links">
      <a href={siteMapUrl({ lat: order.siteLat, lng: order.siteLng })} target="_blank" rel="noreferrer">
        {t('orders.sitePin', {
          source: order.siteSource ? source[order.siteSource] : '',
          radius: order.siteRadiusM ?? '',
        })}
      </a>
    </p>
  );
}
