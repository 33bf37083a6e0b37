import { JOB_NAMES } from '../shared/jobs';
import type { JobHandlers } from '../worker/handlers';

/** Handlers for transport tests: the given ones, and a loud failure for any job the test did not expect. */
export function onlyHandlers(given: Partial<JobHandlers>): JobHandlers {
  const unexpected = async () => {
    throw new Error('job not expected in this test');
  };
  return Object.fromEntries(
    JOB_NAMES.map((name) => [name, given[name] ?? unexpected]),
  ) as unknown as JobHandlers;
}
