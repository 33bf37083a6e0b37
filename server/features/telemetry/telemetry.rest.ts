import type { RestRoute } from '../../rest-types';

export const telemetryRest: RestRoute[] = [];
