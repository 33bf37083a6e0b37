import type { JobHandlers, JobRuntime } from '../core/jobs/context';
import type { Database } from '../drizzle/db';
import { JOB_NAMES } from '../shared/jobs';
import { type Logger, silentLogger } from '../shared/logger';
import { testSettings } from './settings';

/** Handlers for transport tests: the given ones, and a loud failure for any job the test did not expect. */
export function onlyHandlers(given: Partial<JobHandlers>): JobHandlers {
  const unexpected = async () => {
    throw new Error('job not expected in this test');
  };
  return Object.fromEntries(
    JOB_NAMES.map((name) => [name, given[name] ?? unexpected]),
  ) as unknown as JobHandlers;
}

/**
 * A runtime for transport tests whose handlers never touch the database (they are `onlyHandlers`);
 * anything that does gets a loud error instead of a silent stub.
 */
export function transportRuntime(log: Logger = silentLogger, database?: Database): JobRuntime {
  const noDatabase = new Proxy({} as Database, {
    get() {
      throw new Error('this transport test has no database');
    },
  });
  return {
    database: database ?? noDatabase,
    settings: testSettings(),
    llm: null,
    now: () => new Date(),
    log,
  };
}
