import type { RestRoute } from '../../rest-types';

export const trucksRest: RestRoute[] = [];
