import type { RestRoute } from '../../rest-types';

export const auditRest: RestRoute[] = [];
