import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// `npm test` runs every project. Integration tests use PGlite unless DATABASE_URL is set (then a fresh
// PostgreSQL database per test file, cloned from a migrated template). Queue tests need Redis: skipped in
// the embedded run (neither DATABASE_URL nor REDIS_URL), required with either (test/global-services.ts).
// Files of the parallel projects (unit, integration) run two at a time at least: vitest's default of one
// fewer than the cores is one on a 2-core machine, which ran the CI's 135 such files one by one (281 s
// with two workers against about 460 s of CPU). The queue project runs one file at a time, after them;
// the browser tests two at a time, each on an app of its own.
export default defineConfig({
  test: {
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'shared/**/*.test.ts',
            'client/**/*.test.ts',
            'test/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            'core/**/*.test.ts',
            'server/**/*.test.ts',
            'worker/**/*.test.ts',
            'drizzle/**/*.test.ts',
          ],
          exclude: ['**/*.queue.test.ts', '**/*.services.test.ts', '**/node_modules/**'],
          globalSetup: ['test/global-db.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          name: 'queue',
          include: ['{core,server,worker}/**/*.queue.test.ts', '{core,server,worker}/**/*.services.test.ts'],
          // global-services first: with DATABASE_URL or REDIS_URL set, a Redis that is missing or does
          // not answer fails the run at once instead of letting the queue tests skip or hang.
          globalSetup: ['test/global-services.ts', 'test/global-db.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          // One app per worker (e2e/support/global-app.ts; a file takes its worker's, support/shared-app.ts):
          // two files run at once, never on the same app. Most of a browser test's time is waiting (a
          // throttled network, a page settling), and one file at a time they were the CI's longest chain
          // (~800 s of the embedded run's ~1,200 s). A group of their own, after the unit and integration
          // files, so a browser test shares the machine with one other browser test at most.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          globalSetup: ['e2e/support/global-app.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          // expect.poll's own default is one second: on a loaded CI machine a screen's first fetch after a
          // sign-in took longer than that (e2e/revoked failed there at 7.7 s with the list not yet drawn).
          // A poll ends as soon as it matches, so a passing test is no slower.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
