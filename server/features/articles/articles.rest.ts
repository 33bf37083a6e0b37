import type { RestRoute } from '../../rest-types';

export const articlesRest: RestRoute[] = [
  {
    method: 'GET',
    path: '/api/articles',
    procedure: 'articles.list',
    summary: 'Latest daily briefings (limit ≤ 24)',
  },
];
