import type { RestRoute } from '../../rest-types';

export const trucksRest: RestRoute[] = [
  { method: 'GET', path: '/api/admin/trucks', procedure: 'admin.trucks.list', summary: 'Truck registry' },
  {
    method: 'POST',
    path: '/api/admin/trucks',
    procedure: 'admin.trucks.create',
    summary: 'Register a truck',
    status: 201,
  },
  {
    method: 'PATCH',
    path: '/api/admin/trucks/:id',
    procedure: 'admin.trucks.update',
    summary: 'Edit a truck (OPS: primaryDriverId only)',
  },
];
