import type { RestRoute } from '../../rest-types';

export const driversRest: RestRoute[] = [];
