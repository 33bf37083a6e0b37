import type { RestRoute } from '../../rest-types';

export const fuelRest: RestRoute[] = [
  { method: 'GET', path: '/api/fuel/logs', procedure: 'fuel.list', summary: 'Latest fuel logs (limit ≤ 50)' },
  {
    method: 'POST',
    path: '/api/fuel/logs',
    procedure: 'fuel.create',
    summary:
      'Record a fuel stop (409 with duplicate flag when suspected; resend with overrideDuplicate and duplicateOf)',
    status: 201,
    bodyLimit: 8 * 1024 * 1024,
  },
];
