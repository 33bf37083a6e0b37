/**
 * What every API screen shows about the device: the offline banner (with the time of the newest data on
 * screen), and the screen's outbox — how many entries wait, each one readable, the ones the server
 * refused with its message, and a queued fuel log's or cost's duplicate answer as the spec's panel.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { formatMoney } from '../../shared/domain/format';
import {
  MONEY_MESSAGES,
  type TCostDuplicateOf,
  type TFuelDuplicateOf,
  ZCostDuplicateOf,
  ZFuelDuplicateOf,
} from '../../shared/schemas/money';
import { DuplicatePanel } from '../features/ops-costs/DuplicatePanel';
import { useFormat } from '../i18n/format';
import { errorMessage } from '../trpc';
import { Alert } from '../ui/forms';
import { useDuplicateConfirm } from '../ui/useDuplicateConfirm';
import {
  isQueued,
  markAttention,
  type OutboxEntry,
  outboxEntries,
  removeEntry,
  SCREEN_OF,
  submitField,
  subscribeOutbox,
} from './outbox';
import { keepsScreens, useOnline } from './persist';

export function useOutbox(): OutboxEntry[] {
  return useSyncExternalStore(subscribeOutbox, outboxEntries, outboxEntries);
}

/** The newest answer in the cache: what the screen's data is as of. */
function useNewestData(): number {
  const queryClient = useQueryClient();
  const newest = () =>
    Math.max(
      0,
      ...queryClient
        .getQueryCache()
        .getAll()
        .map((q) => q.state.dataUpdatedAt),
    );
  const [at, setAt] = useState(newest);
  useEffect(() => queryClient.getQueryCache().subscribe(() => setAt(newest())));
  return at;
}

export function OfflineBanner() {
  const { t, clock } = useFormat();
  const online = useOnline();
  const newest = useNewestData();
  if (online) return null;
  // 'You are offline · data as of 14:05': the newest answer on screen, in Nairobi time, for a staff
  // member whose screens this phone keeps. Anyone else's screens are not kept: the banner says so
  // instead of vouching for data that goes when the app closes.
  const text = !keepsScreens()
    ? t('outbox.offlineNotKept')
    : newest > 0
      ? t('outbox.offlineAsOf', { time: clock(new Date(newest)) })
      : t('outbox.offlineNoData');
  return (
    <div className="offline-banner" role="status">
      {text}
    </div>
  );
}

/** The catalog key of each state of an entry. */
const STATUS_KEY: Record<OutboxEntry['status'], string> = {
  waiting: 'outbox.statusWaiting',
  attention: 'outbox.statusAttention',
  duplicate: 'outbox.statusDuplicate',
};

/** The outbox of the screen at this path. */
export function OutboxPanel() {
  const { t, dateTime } = useFormat();
  const { pathname } = useLocation();
  const all = useOutbox();
  const mine = all.filter(
    (e) => pathname === SCREEN_OF[e.kind] || pathname.startsWith(`${SCREEN_OF[e.kind]}/`),
  );
  if (mine.length === 0) return null;
  const waiting = mine.filter((e) => e.status === 'waiting').length;
  const duplicate = mine.find((e) => e.status === 'duplicate');
  return (
    <section className="card outbox" aria-labelledby="outbox-heading">
      <h2 id="outbox-heading">
        {waiting > 0
          ? waiting === 1
            ? t('outbox.waitingOne')
            : t('outbox.waitingMany', { n: waiting })
          : mine.length === 1
            ? t('outbox.attentionOne')
            : t('outbox.attentionMany', { n: mine.length })}
      </h2>
      {duplicate ? <QueuedDuplicate key={duplicate.key} entry={duplicate} /> : null}
      <ul className="plain-list">
        {mine.map((e) => (
          <li key={e.key} className="outbox__entry">
            <details>
              <summary>
                <strong>{t(`outbox.kind.${e.kind}`)}</strong> · {e.summary} ·{' '}
                <span className={`outbox__status outbox__status--${e.status}`}>
                  {t(STATUS_KEY[e.status])}
                </span>
              </summary>
              <dl className="kv">
                <dt>{t('outbox.entered')}</dt>
                <dd>{dateTime(e.createdAt)}</dd>
                <dt>{t('outbox.attempts')}</dt>
                <dd>{e.attempts}</dd>
                {e.photo ? (
                  <>
                    <dt>{t('outbox.photo')}</dt>
                    <dd>{Math.round(e.photo.size / 1024)} KB</dd>
                  </>
                ) : null}
                {Object.entries(e.input).map(([k, v]) => (
                  <FieldRow key={k} name={k} value={v} />
                ))}
              </dl>
            </details>
            {e.status === 'attention' ? (
              <Alert>
                {e.lastError}{' '}
                <button
                  type="button"
                  className="button button--small button--secondary"
                  onClick={() => void removeEntry(e.key)}
                >
                  {t('outbox.remove')}
                </button>
              </Alert>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The catalog's label of a field the screens' writes carry; any other is shown by its name. */
const FIELD_KEYS: Record<string, string> = {
  truckId: 'fuel.rowTruck',
  litres: 'fuel.rowLitres',
  cost: 'fuel.rowCost',
  odometer: 'fuel.rowOdometer',
  capturedAt: 'fuel.rowCaptured',
  note: 'fuel.rowNote',
  name: 'driverForm.name',
  email: 'driverForm.email',
  phone: 'driverForm.phone',
  status: 'driver.status',
};
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function FieldRow({ name, value }: { name: string; value: unknown }) {
  const { t, dateTime, loadStatus } = useFormat();
  if (value === null || value === undefined || value === '') return null;
  const key = FIELD_KEYS[name];
  return (
    <>
      <dt>{key ? t(key) : name}</dt>
      <dd>
        {value instanceof Date || (typeof value === 'string' && ISO_INSTANT.test(value))
          ? dateTime(value as Date | string)
          : name === 'status' && typeof value === 'string'
            ? loadStatus(value)
            : typeof value === 'object'
              ? JSON.stringify(value)
              : String(value)}
      </dd>
    </>
  );
}

/**
 * A queued fuel log or cost the server answered with its duplicate: the spec's panel, back on its
 * screen. Confirm sends it again (a new key) flagged as a duplicate; Cancel removes it.
 */
function QueuedDuplicate({ entry }: { entry: OutboxEntry }) {
  return entry.kind === 'fuel' ? <FuelDuplicate entry={entry} /> : <CostDuplicate entry={entry} />;
}

function useQueuedDuplicate<E extends { id: number }>(
  entry: OutboxEntry,
  schema: Parameters<typeof useDuplicateConfirm<Record<string, unknown>, E, unknown>>[0]['existing'],
  fallbackMessage: string,
) {
  const { t } = useFormat();
  const [error, setError] = useState<string | null>(null);
  const dup = useDuplicateConfirm<Record<string, unknown>, E, unknown>({
    existing: schema,
    fallbackMessage,
    send: async (input) => {
      const { key, photo } = entry;
      const withPhoto = photo
        ? {
            ...input,
            photoData: await new Promise<string>((resolve) => {
              const r = new FileReader();
              r.onload = () => resolve(String(r.result));
              r.readAsDataURL(photo);
            }),
          }
        : input;
      // The confirmed entry is stored (under a new key) before this one goes: never neither.
      try {
        return await submitField(entry.kind, withPhoto, entry.summary);
      } finally {
        await removeEntry(key);
      }
    },
    onSaved: () => setError(null),
    onError: (err) => setError(isQueued(err) ? null : errorMessage(err, t('outbox.saveFailed'))),
  });
  const { show } = dup;
  // Once per entry (the component is keyed by it): the panel then lives in the hook's state.
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    // An answer of an unexpected shape cannot be compared: it is kept as needing attention instead.
    if (!show(entry.input, entry.duplicate?.message, entry.duplicate?.existing))
      void markAttention(entry, entry.duplicate?.message || fallbackMessage);
  }, [entry, show, fallbackMessage]);
  const cancel = () => {
    dup.cancel();
    void removeEntry(entry.key);
  };
  return { dup, cancel, error };
}

function FuelDuplicate({ entry }: { entry: OutboxEntry }) {
  const { t, money, dateTime } = useFormat();
  const { dup, cancel, error } = useQueuedDuplicate<TFuelDuplicateOf>(
    entry,
    ZFuelDuplicateOf,
    MONEY_MESSAGES.fuelDuplicate,
  );
  const d = dup.duplicate;
  const input = entry.input as {
    truckId?: string;
    litres?: number;
    cost?: number;
    odometer?: number;
    note?: string;
    capturedAt?: string;
  };
  return (
    <>
      {error ? <Alert>{error}</Alert> : null}
      {d ? (
        <DuplicatePanel
          title={t('fuel.dupTitle')}
          message={d.message === MONEY_MESSAGES.fuelDuplicate ? t('fuel.dupMessage') : d.message}
          explanation={t('fuel.dupExplanation')}
          existing={{
            label: t('fuel.existingLog', { id: d.existing.id }),
            rows: [
              [t('fuel.rowTruck'), d.existing.truck_id],
              [t('fuel.rowLitres'), d.existing.litres ?? '-'],
              [t('fuel.rowCost'), money(d.existing.cost)],
              [t('fuel.rowOdometer'), d.existing.odometer ?? '-'],
              [t('fuel.rowCaptured'), dateTime(d.existing.captured_at)],
              [t('fuel.rowNote'), d.existing.note || '-'],
            ],
          }}
          incoming={{
            label: t('fuel.newLog'),
            rows: [
              [t('fuel.rowTruck'), input.truckId ?? '-'],
              [t('fuel.rowLitres'), input.litres ?? '-'],
              [t('fuel.rowCost'), money(input.cost ?? 0)],
              [t('fuel.rowOdometer'), input.odometer ?? '-'],
              [t('fuel.rowCaptured'), dateTime(input.capturedAt ?? entry.createdAt)],
              [t('fuel.rowNote'), input.note || '-'],
            ],
          }}
          busy={dup.busy}
          onConfirm={dup.confirm}
          onCancel={cancel}
        />
      ) : null}
    </>
  );
}

function CostDuplicate({ entry }: { entry: OutboxEntry }) {
  const { dateTime } = useFormat();
  const { dup, cancel, error } = useQueuedDuplicate<TCostDuplicateOf>(
    entry,
    ZCostDuplicateOf,
    MONEY_MESSAGES.costDuplicate,
  );
  const d = dup.duplicate;
  const input = entry.input as { truckId?: string; amount?: number; description?: string };
  return (
    <>
      {error ? <Alert>{error}</Alert> : null}
      {d ? (
        <DuplicatePanel
          title="Possible duplicate detected"
          message={d.message}
          explanation="An existing cost entry matches this submission. Confirm if it is intentional."
          existing={{
            label: `Existing entry #${d.existing.id}`,
            rows: [
              ['Truck', d.existing.truck_id ?? '-'],
              ['Amount', formatMoney(d.existing.amount)],
              ['Incurred', dateTime(d.existing.incurred_at)],
              ['Description', d.existing.description || 'No description'],
            ],
          }}
          incoming={{
            label: 'New entry',
            rows: [
              ['Truck', input.truckId ?? '-'],
              ['Amount', formatMoney(input.amount ?? 0)],
              ['Description', input.description || 'No description'],
            ],
          }}
          busy={dup.busy}
          onConfirm={dup.confirm}
          onCancel={cancel}
        />
      ) : null}
    </>
  );
}
