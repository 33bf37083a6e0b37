import { formatBytes } from '../../../shared/domain/format';
import { useDateTime } from '../../i18n/format';
import { useStaffT } from '../../i18n/staff';
import { errorMessage, trpc } from '../../trpc';
import { Alert } from '../../ui/forms';

/** ADMIN: the last backup's time and size, the schedule, and the newest runs (issue 25). */
export function BackupsCard() {
  const { t } = useStaffT();
  const dateTime = useDateTime();
  const status = trpc.admin.backups.status.useQuery();
  const data = status.data;
  const latest = data?.runs[0];
  return (
    <section className="card" aria-labelledby="backups-heading">
      <h3 id="backups-heading">{t('ai.backups')}</h3>
      <p className="muted">{t('ai.backupsIntro')}</p>
      {status.error ? <Alert>{errorMessage(status.error, t('ai.backupsLoadFailed'))}</Alert> : null}
      {latest?.status === 'failed' ? (
        <Alert>{t('ai.backupFailed', { error: latest.error ?? '' })}</Alert>
      ) : null}
      {data ? (
        <>
          <p>
            <strong>
              {data.lastAt && data.sizeBytes !== null
                ? t('ai.backupLast', { at: dateTime(data.lastAt), size: formatBytes(data.sizeBytes) })
                : t('ai.backupNone')}
            </strong>
          </p>
          <p className="muted">
            {data.schedule
              ? t('ai.backupSchedule', { cron: data.schedule, keep: data.keep })
              : t('ai.backupOff')}
          </p>
          <ul>
            {data.runs.map((r) => (
              <li key={r.startedAt} style={{ overflowWrap: 'anywhere' }}>
                {r.status === 'failed'
                  ? t('ai.backupRunFailed', { at: dateTime(r.startedAt), error: r.error ?? '' })
                  : t('ai.backupRunOk', {
                      at: dateTime(r.finishedAt ?? r.startedAt),
                      size: formatBytes(r.sizeBytes ?? 0),
                      file: r.file ?? '',
                    })}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}
