import type { RestRoute } from '../../rest-types';

export const ordersRest: RestRoute[] = [
  {
    method: 'POST',
    path: '/api/orders/guest',
    procedure: 'orders.createGuest',
    summary: 'Guest order, optionally creating a portal login',
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/orders',
    procedure: 'orders.create',
    summary: "A signed-in customer's order",
    status: 201,
  },
  {
    method: 'POST',
    path: '/api/orders/:id/payment',
    procedure: 'orders.confirmPayment',
    summary: 'Submit a payment confirmation (bank or M-Pesa reference)',
  },
  {
    method: 'GET',
    path: '/api/orders/my',
    procedure: 'orders.my',
    summary: "The signed-in customer's orders with assignments",
  },
];
