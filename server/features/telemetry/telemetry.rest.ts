import type { RestRoute } from '../../rest-types';

export const telemetryRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/telemetry/trucks',
    procedure: 'telemetry.trucks',
    summary: 'Trucks with their latest positions',
  },
];
