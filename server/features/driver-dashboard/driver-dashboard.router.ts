import { router } from '../../trpc';

// Procedures of this domain are added by its issue.
export const driverDashboardRouter = router({});
