import type { RestRoute } from '../../rest-types';

export const pricingRest: RestRoute[] = [];
