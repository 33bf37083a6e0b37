import type { FastifyRequest } from 'fastify';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One spec call: the REST path and the procedure it runs. Each domain keeps its rows in `<domain>.rest.ts`. */
export interface RestRoute {
  method: Method;
  /** Fastify path syntax; `:id` segments are merged into the input. */
  path: string;
  /** The tRPC procedure path this call runs, e.g. `auth.login`. */
  procedure: string;
  summary: string;
  /** Build the procedure input; default: the query (GET/DELETE) or the JSON body, plus path params. */
  input?: (req: FastifyRequest) => unknown;
  /** Body limit in bytes for this call (image uploads as data URLs); the app default otherwise. */
  bodyLimit?: number;
  /** Success status: a number, or chosen from the result (health answers 503 when the database is down). */
  status?: number | ((result: unknown) => number);
}
