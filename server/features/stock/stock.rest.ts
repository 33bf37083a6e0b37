import type { RestRoute } from '../../rest-types';

export const stockRest: RestRoute[] = [
  { method: 'GET', path: '/api/admin/stock', procedure: 'admin.stock.get', summary: 'Yard stock' },
  {
    method: 'GET',
    path: '/api/admin/stock/tx',
    procedure: 'admin.stock.transactions',
    summary: 'Stock movements',
  },
  {
    method: 'POST',
    path: '/api/admin/stock/receipt',
    procedure: 'admin.stock.receipt',
    summary: 'Record a yard receipt (and its STOCK_PURCHASE cost)',
    status: 201,
  },
  {
    method: 'PATCH',
    path: '/api/admin/stock/tx/:id',
    procedure: 'admin.stock.updateNote',
    summary: "Edit a movement's note",
  },
];
