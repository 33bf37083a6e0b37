import type { RestRoute } from '../../rest-types';

export const systemRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/health',
    procedure: 'system.health',
    summary: 'Liveness of the database and the job transport',
    status: (r) => ((r as { database: { ok: boolean } }).database.ok ? 200 : 503),
  },
];
