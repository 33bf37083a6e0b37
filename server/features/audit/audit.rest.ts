import type { RestRoute } from '../../rest-types';

export const auditRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/admin/audit/duplicates',
    procedure: 'admin.audit.list',
    summary: 'Duplicate-flagged costs and fuel logs (limit, entity, status, type, truckId, from, to)',
  },
  {
    method: 'POST',
    path: '/api/admin/audit/duplicates/:entity/:id/review',
    procedure: 'admin.audit.review',
    summary: 'Mark a duplicate record reviewed (optional note)',
  },
  {
    method: 'POST',
    path: '/api/admin/audit/duplicates/:entity/:id/void',
    procedure: 'admin.audit.void',
    summary: 'Void a duplicate record (reason required; cascadeCost for fuel)',
  },
];
