import type { RestRoute } from '../../rest-types';

export const fuelRest: RestRoute[] = [];
