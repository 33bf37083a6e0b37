import { keepPreviousData } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import {
  ASSIGNMENT_STATUSES,
  COST_TYPES,
  ORDER_PAYMENT_STATUSES,
  ORDER_STATUSES,
  SAND_TYPES,
} from '../../../shared/enums';
import { ACTIVITY_MAX_LIMIT, ACTIVITY_PAGE, type TActivityEntry } from '../../../shared/schemas/activity';
import { type Format, useFormat } from '../../i18n/format';
import { costTypeLabel, type StaffT, useStaffT } from '../../i18n/staff';
import { trpc } from '../../trpc';
import { downloadCsv } from '../../ui/download';
import { Alert, SelectField, TextField } from '../../ui/forms';
import { TAB_TOPS, TabSection } from '../ops/TabSection';
import type { TabProps } from '../ops/tab-props';

const ACTIVITY_CSV_HEADER = [
  'At',
  'User ID',
  'User',
  'Role',
  'Action',
  'Entity',
  'Entity ID',
  'Changes',
  'IP',
  'User agent',
];

/** A value as the log holds it, shown short: text as is, anything else as JSON, nothing as a dash. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The record a log entry names, as a word of the screen's language; an unknown one as given. */
function entityLabel(t: StaffT, entity: string): string {
  const labels: Record<string, string> = {
    article: t('activity.entities.article'),
    conversation: t('activity.entities.conversation'),
    cost: t('activity.entities.cost'),
    driver: t('activity.entities.driver'),
    fuel: t('activity.entities.fuel'),
    insights: t('activity.entities.insights'),
    invoice: t('activity.entities.invoice'),
    load: t('activity.entities.load'),
    order: t('activity.entities.order'),
    payment: t('activity.entities.payment'),
    stock: t('activity.entities.stock'),
    truck: t('activity.entities.truck'),
    user: t('activity.entities.user'),
  };
  return labels[entity] ?? entity;
}

const isOneOf = (list: readonly string[], value: string) => list.includes(value);

/**
 * A changed value that is a state, a cost type or a sand category, as the screens word it (no raw code on
 * a screen, issue 27 item 13); anything else as the log holds it.
 */
function valueLabel(t: StaffT, f: Format, entity: string, field: string, value: unknown): string {
  if (typeof value !== 'string') return shown(value);
  const payment = field.includes('payment') || entity === 'payment';
  if (payment && isOneOf(ORDER_PAYMENT_STATUSES, value)) return f.paymentStatus(value);
  if (entity === 'load' && isOneOf(ASSIGNMENT_STATUSES, value)) return f.loadStatus(value);
  if (isOneOf(ORDER_STATUSES, value)) return f.orderStatus(value);
  if (isOneOf(ASSIGNMENT_STATUSES, value)) return f.loadStatus(value);
  if (isOneOf(ORDER_PAYMENT_STATUSES, value)) return f.paymentStatus(value);
  if (isOneOf(COST_TYPES, value)) return costTypeLabel(t, value);
  if (isOneOf(SAND_TYPES, value)) return f.sandType(value);
  const words: Record<string, string> = {
    MANUAL: t('activity.sources.MANUAL'),
    STOCK: t('activity.sources.STOCK'),
    geofence: t('activity.sources.geofence'),
    manual: t('activity.sources.manual'),
    proof: t('activity.sources.proof'),
    RECEIPT: t('stock.kinds.RECEIPT'),
    DELIVERY: t('stock.kinds.DELIVERY'),
    ADJUSTMENT: t('stock.kinds.ADJUSTMENT'),
  };
  return words[value] ?? value;
}

/** An entry as the client receives it (a field's `from` or `to` may be left out when null). */
type Entry = Omit<TActivityEntry, 'changes'> & { changes: Record<string, { from?: unknown; to?: unknown }> };

function EntryCard({ entry }: { entry: Entry }) {
  const { t } = useStaffT();
  const format = useFormat();
  const changes = Object.entries(entry.changes);
  return (
    <li className="card activity-entry">
      <div className="activity-entry__head">
        {/* The procedure and the fields by their names in the code: identifiers, not words. */}
        <strong>
          <code>{entry.action}</code>
        </strong>
        <span className="muted">{format.dateTime(entry.at)}</span>
      </div>
      <p>
        {entry.userName ?? t('activity.anonymous')}
        {entry.role ? ` · ${entry.role}` : ''} · {entityLabel(t, entry.entity)}
        {entry.entityId ? ` #${entry.entityId}` : ''}
      </p>
      {changes.length === 0 ? (
        <p className="muted">{t('activity.noChanges')}</p>
      ) : (
        <div className="table-scroll">
          <table className="activity-changes">
            <thead>
              <tr>
                <th scope="col">{t('activity.field')}</th>
                <th scope="col">{t('activity.before')}</th>
                <th scope="col">{t('activity.after')}</th>
              </tr>
            </thead>
            <tbody>
              {changes.map(([field, change]) => (
                <tr key={field}>
                  <th scope="row">
                    <code>{field}</code>
                  </th>
                  <td>{valueLabel(t, format, entry.entity, field, change.from)}</td>
                  <td>{valueLabel(t, format, entry.entity, field, change.to)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted activity-entry__where">
        {entry.ip ? t('activity.fromIp', { ip: entry.ip }) : ''}
        {entry.userAgent ? ` · ${entry.userAgent}` : ''}
      </p>
    </li>
  );
}

/** ADMIN: the staff action log, filtered by person, record and dates, newest first; CSV of what is shown. */
export function ActivityTab(_props: TabProps) {
  const { t } = useStaffT();
  const [filters, setFilters] = useState({ userId: '', entity: '', from: '', to: '' });
  // The latest entries first, more on a tap (the filters narrow what they are taken from).
  const [limit, setLimit] = useState(ACTIVITY_PAGE);
  const input = {
    limit,
    ...(filters.userId ? { userId: Number(filters.userId) } : {}),
    ...(filters.entity ? { entity: filters.entity } : {}),
    ...(filters.from ? { from: filters.from } : {}),
    ...(filters.to ? { to: filters.to } : {}),
  };
  // The list that is there stays while a longer one loads (nothing jumps back to empty).
  const entries = trpc.admin.activity.list.useQuery(input, { placeholderData: keepPreviousData });
  const facets = trpc.admin.activity.filters.useQuery();
  const set = (k: keyof typeof filters) => (e: { target: { value: string } }) =>
    setFilters((f) => ({ ...f, [k]: e.target.value }));
  const list = entries.data ?? [];
  // Whether the answer on screen filled the page it asked for; while a longer one loads (the list on
  // screen is the last answer) the button stays where it is, disabled, instead of going and coming back.
  const pageFull = useRef(false);
  if (!entries.isPlaceholderData) pageFull.current = list.length >= limit;
  const [csvError, setCsvError] = useState<string | null>(null);

  const exportCsv = () => {
    setCsvError(null);
    const rows = list.map((e) => [
      e.at,
      e.userId ?? '',
      e.userName ?? '',
      e.role ?? '',
      e.action,
      e.entity,
      e.entityId ?? '',
      JSON.stringify(e.changes),
      e.ip ?? '',
      e.userAgent ?? '',
    ]);
    void downloadCsv(
      `activity-${new Date().toISOString().slice(0, 10)}.csv`,
      ACTIVITY_CSV_HEADER,
      rows,
    ).catch(() => setCsvError(t('common.exportFailed')));
  };

  return (
    <TabSection tab="activity" top={TAB_TOPS.activity(t, facets.data?.retentionDays ?? 730)}>
      <div className="toolbar">
        <SelectField label={t('activity.user')} value={filters.userId} onChange={set('userId')}>
          <option value="">{t('activity.anyone')}</option>
          {(facets.data?.users ?? []).map((u) => (
            <option key={u.id} value={u.id}>
              {u.name}
              {u.role ? ` (${u.role})` : ''}
            </option>
          ))}
        </SelectField>
        <SelectField label={t('activity.entity')} value={filters.entity} onChange={set('entity')}>
          <option value="">{t('activity.anyEntity')}</option>
          {(facets.data?.entities ?? []).map((entity) => (
            <option key={entity} value={entity}>
              {entityLabel(t, entity)}
            </option>
          ))}
        </SelectField>
        <TextField label={t('activity.from')} type="date" value={filters.from} onChange={set('from')} />
        <TextField label={t('activity.to')} type="date" value={filters.to} onChange={set('to')} />
        <button
          type="button"
          className="button button--secondary"
          disabled={list.length === 0}
          onClick={exportCsv}
        >
          {t('activity.exportCsv')}
        </button>
      </div>
      {csvError ? <Alert>{csvError}</Alert> : null}
      {entries.error ? <Alert>{t('activity.loadFailed')}</Alert> : null}
      {entries.data && list.length === 0 ? <p className="muted">{t('activity.none')}</p> : null}
      {list.length > 0 ? <p className="muted">{t('activity.shown', { count: list.length })}</p> : null}
      <ul className="plain-list">
        {list.map((e) => (
          <EntryCard key={`${e.at}|${e.userId}|${e.action}|${e.entity}|${e.entityId}`} entry={e} />
        ))}
      </ul>
      {/* A full page came back: there may be more (up to the log's most per answer). */}
      {pageFull.current && limit < ACTIVITY_MAX_LIMIT ? (
        <div className="button-row">
          <button
            type="button"
            className="button button--secondary"
            disabled={entries.isFetching}
            onClick={() => setLimit((l) => Math.min(l + ACTIVITY_PAGE, ACTIVITY_MAX_LIMIT))}
          >
            {t('activity.more')}
          </button>
        </div>
      ) : null}
    </TabSection>
  );
}
