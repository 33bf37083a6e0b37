import type { RestRoute } from '../../rest-types';

export const dashboardRest: RestRoute[] = [];
