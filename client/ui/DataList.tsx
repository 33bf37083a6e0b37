import type { ReactNode } from 'react';
import { useTranslation } from '../i18n';
import { TABLE_MIN_WIDTH, useMinWidth } from './useMediaQuery';

export interface Column<T> {
  /** The table header, and the label beside the value on a card. */
  header: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned in the table (amounts, counts). */
  numeric?: boolean;
  /** Left out of the default card: the card's title shows it, or it says nothing on a phone. */
  hideOnCard?: boolean;
  /** A class for the column's cells (widths). */
  className?: string;
}

interface DataListProps<T> {
  /** What the list is: the table's caption and the card list's name. */
  label: string;
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  columns: ReadonlyArray<Column<T>>;
  /** A card's heading on a phone (usually the column that names the row). */
  title?: (row: T) => ReactNode;
  /** The row's buttons: the last table column ("Actions", named for screen readers) and the card's footer. */
  actions?: (row: T) => ReactNode;
  /** A card of one's own for rows that need more than label and value (orders). */
  renderCard?: (row: T) => ReactNode;
  rowClassName?: (row: T) => string | undefined;
  /** Shown instead of an empty table. */
  empty?: ReactNode;
  /** The narrowest viewport that gets the table; below it, cards. */
  tableFrom?: number;
  tableClassName?: string;
}

const cellClass = (c: Column<never>) =>
  [c.numeric ? 'num' : '', c.className ?? ''].filter(Boolean).join(' ') || undefined;

/**
 * One list, two layouts: a table where there is room for its columns, and on a phone a card per row
 * (title, label–value pairs, buttons under them), so nothing hides to the right of a 360 px screen.
 */
export function DataList<T>({
  label,
  rows,
  rowKey,
  columns,
  title,
  actions,
  renderCard,
  rowClassName,
  empty,
  tableFrom = TABLE_MIN_WIDTH,
  tableClassName,
}: DataListProps<T>) {
  const { t } = useTranslation();
  const wide = useMinWidth(tableFrom);
  if (rows.length === 0) return empty ? <div className="data-empty">{empty}</div> : null;

  if (!wide) {
    return (
      <ul className="data-cards" aria-label={label}>
        {rows.map((row) => (
          <li key={rowKey(row)} className={['data-card', rowClassName?.(row)].filter(Boolean).join(' ')}>
            {renderCard ? (
              renderCard(row)
            ) : (
              <>
                {title ? <div className="data-card__title">{title(row)}</div> : null}
                <dl className="data-card__fields">
                  {columns
                    .filter((c) => !c.hideOnCard)
                    .map((c) => (
                      <div key={c.header} className="data-card__field">
                        <dt>{c.header}</dt>
                        <dd>{c.cell(row)}</dd>
                      </div>
                    ))}
                </dl>
                {actions ? <div className="data-card__actions">{actions(row)}</div> : null}
              </>
            )}
          </li>
        ))}
      </ul>
    );
  }

  return (
    // A keyboard user can scroll a table wider than its box, and a screen reader hears what it holds.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
    <section className="table-wrap" aria-label={label} tabIndex={0}>
      <table className={tableClassName}>
        <caption className="visually-hidden">{label}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} scope="col" className={cellClass(c)}>
                {c.header}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="visually-hidden">{t('common.actions')}</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClassName?.(row)}>
              {columns.map((c) => (
                <td key={c.header} className={cellClass(c)}>
                  {c.cell(row)}
                </td>
              ))}
              {actions ? (
                <td>
                  <div className="row-actions">{actions(row)}</div>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
