import { adminUsersRouter } from './features/admin/users.router';
import { authRouter } from './features/auth/auth.router';
import { systemRouter } from './features/system/system.router';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  system: systemRouter,
  auth: authRouter,
  admin: router({
    users: adminUsersRouter,
  }),
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
