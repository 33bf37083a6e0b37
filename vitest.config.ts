import { defineConfig } from 'vitest/config';

// `npm test` runs every project. Integration tests use PGlite unless DATABASE_URL is set (then a fresh
// PostgreSQL database per test file, cloned from a migrated template); queue tests need REDIS_URL.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'client/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['server/**/*.test.ts', 'worker/**/*.test.ts', 'drizzle/**/*.test.ts'],
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
          include: ['{server,worker}/**/*.queue.test.ts', '{server,worker}/**/*.services.test.ts'],
          globalSetup: ['test/global-db.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.ts'],
          globalSetup: ['e2e/support/global-app.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
