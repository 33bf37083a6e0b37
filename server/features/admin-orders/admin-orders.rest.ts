import type { RestRoute } from '../../rest-types';

export const adminOrdersRest: RestRoute[] = [];
