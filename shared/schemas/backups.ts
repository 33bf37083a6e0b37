import { z } from 'zod';
import { BACKUP_STATUSES } from '../enums';

export const ZBackupRun = z.object({
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  status: z.enum(BACKUP_STATUSES),
  /** The file's name in BACKUP_DIR. */
  file: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  error: z.string().nullable(),
});

/** The ADMIN's view of backups (issue 25): the last good one, the schedule, and the newest runs. */
export const ZBackupStatus = z.object({
  lastAt: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  /** BACKUP_CRON (Africa/Nairobi), or null when scheduled backups are off. */
  schedule: z.string().nullable(),
  keep: z.number().int(),
  runs: z.array(ZBackupRun),
});
export type TBackupStatus = z.infer<typeof ZBackupStatus>;
