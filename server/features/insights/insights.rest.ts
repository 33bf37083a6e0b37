import type { RestRoute } from '../../rest-types';

export const insightsRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/admin/ai/insights',
    procedure: 'admin.ai.insights',
    summary: 'AI insights and alerts to review',
  },
  {
    method: 'POST',
    path: '/api/admin/ai/insights/refresh',
    procedure: 'admin.ai.refresh',
    summary: 'Recompute the insights now',
  },
  {
    method: 'POST',
    path: '/api/admin/articles/run',
    procedure: 'admin.ai.runBriefing',
    summary: 'Write the morning briefing now',
  },
];
