import type { RestRoute } from '../../rest-types';

export const costsRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/admin/costs',
    procedure: 'admin.costs.list',
    summary: 'Cost ledger, newest first',
  },
  {
    method: 'POST',
    path: '/api/admin/costs',
    procedure: 'admin.costs.create',
    summary:
      'Record a cost (409 with duplicate flag when suspected; resend with overrideDuplicate and duplicateOf)',
    status: 201,
  },
  {
    method: 'PATCH',
    path: '/api/admin/costs/:id',
    procedure: 'admin.costs.update',
    summary: 'Correct a cost',
  },
];
