import { inject } from 'vitest';

/**
 * The shared app (support/global-app.ts) of the worker running this file: files that run at once are on
 * different workers (VITEST_POOL_ID, 1 to the project's maxWorkers), so they never share an app.
 */
export function sharedAppURL(): string {
  const urls = inject('baseURLs');
  const worker = Number(process.env.VITEST_POOL_ID ?? '1');
  return urls[(Math.max(1, worker) - 1) % urls.length]!;
}
