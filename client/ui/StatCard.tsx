import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A figure with its label and a line under it; with `to`, a link to where the figure comes from. */
export function StatCard({
  label,
  value,
  note,
  to,
  linkText,
}: {
  label: ReactNode;
  value: ReactNode;
  note?: ReactNode;
  to?: string;
  /** The link's words ("See orders"); the card's label is read with it. */
  linkText?: string;
}) {
  return (
    <div className="card stat">
      <span className="stat__label">{label}</span>
      <strong className="stat__value">{value}</strong>
      {note ? <span className="stat__note">{note}</span> : null}
      {to ? (
        <Link to={to} className="stat__link">
          {linkText ?? 'Open'}
        </Link>
      ) : null}
    </div>
  );
}
