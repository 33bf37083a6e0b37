import type { RestRoute } from '../../rest-types';

export const chatbotRest: RestRoute[] = [];
