import type { RestRoute } from '../../rest-types';

export const financeRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/admin/finance/summary',
    procedure: 'admin.finance.summary',
    summary: 'Revenue, orders, costs and gross (from, to)',
  },
  {
    method: 'GET',
    path: '/api/admin/finance/timeseries',
    procedure: 'admin.finance.timeseries',
    summary: 'Daily revenue and cost (from, to)',
  },
  {
    method: 'GET',
    path: '/api/admin/finance/truck-breakdown',
    procedure: 'admin.finance.truckBreakdown',
    summary: 'Per-truck loads, revenue, costs, gross and margin (from, to)',
  },
  {
    method: 'GET',
    path: '/api/admin/finance/cost-mix',
    procedure: 'admin.finance.costMix',
    summary: 'Costs by type (from, to)',
  },
];
