import type { RestRoute } from '../../rest-types';

export const insightsRest: RestRoute[] = [];
