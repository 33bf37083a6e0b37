import type { RestRoute } from '../../rest-types';

export const ordersRest: RestRoute[] = [];
