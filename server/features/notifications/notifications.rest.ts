import type { RestRoute } from '../../rest-types';

export const notificationsRest: RestRoute[] = [];
