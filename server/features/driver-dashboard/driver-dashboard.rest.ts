import type { RestRoute } from '../../rest-types';

export const driverDashboardRest: RestRoute[] = [];
