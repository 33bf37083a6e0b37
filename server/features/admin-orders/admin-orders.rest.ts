import type { RestRoute } from '../../rest-types';

export const adminOrdersRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/admin/orders',
    procedure: 'admin.orders.list',
    summary: 'Orders (assigned=true|false filters)',
  },
  {
    method: 'POST',
    path: '/api/admin/orders',
    procedure: 'admin.orders.create',
    summary: 'Create an order for a customer',
    status: 201,
  },
  {
    method: 'GET',
    path: '/api/admin/orders/:id/assignments',
    procedure: 'admin.orders.assignments',
    summary: "An order's loads",
  },
  {
    method: 'POST',
    path: '/api/admin/orders/:id/assignments',
    procedure: 'admin.orders.addAssignment',
    summary: 'Schedule a truck and driver for a load',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/admin/orders/:id/payment-review',
    procedure: 'admin.orders.reviewPayment',
    summary: 'Confirm or reject a payment confirmation',
  },
  {
    method: 'PATCH',
    path: '/api/admin/assignments/:id',
    procedure: 'admin.orders.setAssignmentStatus',
    summary: 'Move a load: SCHEDULED → IN_TRANSIT → DELIVERED | CANCELLED (ops or the assigned driver)',
  },
];
