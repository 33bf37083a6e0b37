import { formatMoney } from '../../shared/domain/format';
import { useTranslation } from '../i18n';

/**
 * An amount as every screen shows it (shared/domain/format formatMoney, in the screen's language); a
 * loss in the loss colour.
 */
export function Money({ value, strong = false }: { value: number; strong?: boolean }) {
  const { i18n } = useTranslation();
  const text = formatMoney(value, i18n.language === 'sw' ? 'sw' : 'en');
  const className = value < 0 && text.startsWith('\u2212') ? 'money money--loss' : 'money';
  return strong ? <strong className={className}>{text}</strong> : <span className={className}>{text}</span>;
}
