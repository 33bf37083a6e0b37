import type { RestRoute } from '../../rest-types';

export const costsRest: RestRoute[] = [];
