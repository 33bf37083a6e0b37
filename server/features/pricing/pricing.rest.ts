import type { RestRoute } from '../../rest-types';

export const pricingRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/pricing',
    procedure: 'pricing.get',
    summary: 'Live pricing, payment options and dispatch contacts',
  },
  {
    method: 'POST',
    path: '/api/pricing/quote',
    procedure: 'pricing.quote',
    summary: 'Instant distance-based quote',
  },
];
