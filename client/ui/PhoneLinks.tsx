import { phoneLinks } from '../../shared/domain/phone';
import { directionsUrl } from '../../shared/domain/place-links';
import { useTranslation } from '../i18n';

/**
 * Tap to call and WhatsApp for a Kenyan number (`tel:+254…`, `https://wa.me/254…`), the number as it
 * was typed when it is not one a phone can dial; nothing when there is no number. `name` says who is
 * called, for screen readers. `directionsTo` adds turn-by-turn directions to a point.
 */
export function PhoneLinks({
  phone,
  name,
  directionsTo,
}: {
  phone: string | null | undefined;
  name: string;
  directionsTo?: { lat: number; lng: number } | null;
}) {
  const { t } = useTranslation();
  const links = phoneLinks(phone);
  if (!phone && !directionsTo) return null;
  return (
    <p className="contact-links">
      {links ? (
        <>
          {/* The number stays the start of the link's name (axe: label-content-name-mismatch); who is called follows for screen readers. */}
          <a href={links.tel}>
            {links.display}
            <span className="visually-hidden"> ({t('common.call', { name })})</span>
          </a>
          {links.whatsapp ? (
            <a
              href={links.whatsapp}
              target="_blank"
              rel="noreferrer"
              aria-label={t('common.whatsappTo', { name })}
            >
              {t('common.whatsapp')}
            </a>
          ) : null}
        </>
      ) : phone ? (
        <span>{phone}</span>
      ) : null}
      {directionsTo ? (
        <a href={directionsUrl(directionsTo)} target="_blank" rel="noreferrer">
          {t('common.directions')}
        </a>
      ) : null}
    </p>
  );
}
