import type { RestRoute } from '../../rest-types';

export const financeRest: RestRoute[] = [];
