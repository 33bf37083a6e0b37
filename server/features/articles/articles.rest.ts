import type { RestRoute } from '../../rest-types';

export const articlesRest: RestRoute[] = [];
