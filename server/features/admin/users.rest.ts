import type { RestRoute } from '../../rest-types';

export const adminUsersRest: RestRoute[] = [
  { method: 'GET', path: '/api/admin/users', procedure: 'admin.users.list', summary: 'Staff accounts' },
  {
    method: 'POST',
    path: '/api/admin/users',
    procedure: 'admin.users.create',
    summary: 'Create an OPS, DRIVER or FUEL account',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/admin/users/:id/disable',
    procedure: 'admin.users.disable',
    summary: 'Disable a staff account',
  },
  {
    method: 'POST',
    path: '/api/admin/users/:id/enable',
    procedure: 'admin.users.enable',
    summary: 'Re-enable a staff account',
  },
];
