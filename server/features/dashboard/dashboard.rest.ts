import type { RestRoute } from '../../rest-types';

export const dashboardRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/admin/dashboard',
    procedure: 'admin.dashboard.get',
    summary: 'Workspace overview',
  },
];
