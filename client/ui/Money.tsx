import { formatMoney } from '../../shared/domain/format';

/** An amount as every screen shows it (shared/domain/format formatMoney); a loss in the loss colour. */
export function Money({ value, strong = false }: { value: number; strong?: boolean }) {
  const text = formatMoney(value);
  const className = value < 0 && text.startsWith('\u2212') ? 'money money--loss' : 'money';
  return strong ? <strong className={className}>{text}</strong> : <span className={className}>{text}</span>;
}
