import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';

export interface ComparedEntry {
  label: string;
  rows: Array<[string, ReactNode]>;
}

/** The side-by-side "possible duplicate" comparison shared by the cost and fuel forms. */
export function DuplicatePanel({
  title,
  message,
  explanation,
  existing,
  incoming,
  busy,
  onConfirm,
  onCancel,
}: {
  title: string;
  message: string;
  /** The panel's standing explanation under the server's message. */
  explanation: string;
  existing: ComparedEntry;
  incoming: ComparedEntry;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="alert alert--warning duplicate-panel" aria-labelledby="duplicate-title">
      <h3 id="duplicate-title">{title}</h3>
      <p>
        <strong>{message}</strong> {explanation}
      </p>
      <div className="grid">
        {[existing, incoming].map((entry) => (
          <div key={entry.label}>
            <h4>{entry.label}</h4>
            <dl className="kv">
              {entry.rows.map(([k, v]) => (
                <div key={k} style={{ display: 'contents' }}>
                  <dt>{k}</dt>
                  <dd>{v}</dd>
                </div>
              ))}
            </dl>
          </div>
        ))}
      </div>
      <div className="button-row">
        <button type="button" className="button" disabled={busy} onClick={onConfirm}>
          {busy ? t('duplicate.flagging') : t('duplicate.confirm')}
        </button>
        <button type="button" className="button button--secondary" disabled={busy} onClick={onCancel}>
          {t('duplicate.cancel')}
        </button>
      </div>
    </section>
  );
}
