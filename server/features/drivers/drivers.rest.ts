import type { RestRoute } from '../../rest-types';

export const driversRest: RestRoute[] = [
  { method: 'GET', path: '/api/admin/drivers', procedure: 'admin.drivers.list', summary: 'Driver directory' },
  {
    method: 'POST',
    path: '/api/admin/drivers',
    procedure: 'admin.drivers.create',
    summary: 'Add a driver',
    status: 201,
  },
  {
    method: 'PATCH',
    path: '/api/admin/drivers/:id',
    procedure: 'admin.drivers.update',
    summary: "Edit a driver's details, ID photo and profile photo",
    bodyLimit: 8 * 1024 * 1024,
  },
];
