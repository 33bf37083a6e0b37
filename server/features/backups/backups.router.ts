import { backupStatus } from '../../../core/backup/backup.status';
import { ZBackupStatus } from '../../../shared/schemas/backups';
import { roleProcedure, router } from '../../trpc';

export const backupsRouter = router({
  /** The last backup's time and size, the schedule, and the newest runs with their errors (issue 25). */
  status: roleProcedure('ADMIN')
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/backups',
        summary: "Backups: the last one's time and size, the schedule, and the newest runs",
      },
    })
    .output(ZBackupStatus)
    .query(({ ctx }) => backupStatus(ctx.db, ctx.deps.settings)),
});
