import type { RestRoute } from '../../rest-types';

export const stockRest: RestRoute[] = [];
