import { z } from 'zod';
import { ROLES } from '../shared/roles';
import { RAW_ROUTES, RAW_SCHEMAS } from './raw-routes';
import { procedureDefs, type RestRoute, restRoutes } from './rest';
import { PUBLIC_PROCEDURES } from './trpc';

type Json = Record<string, unknown>;

function schemaOf(value: unknown, io: 'input' | 'output'): Json | undefined {
  if (!(value instanceof z.ZodType)) return undefined;
  return withNullInEnums(
    z.toJSONSchema(value, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Json,
  );
}

/**
 * OpenAPI 3.0's `nullable: true` does not widen an `enum`: a validator (ajv) checks null against the enum
 * and refuses it. A nullable enum therefore lists null among its values.
 */
function withNullInEnums<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withNullInEnums) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json)) out[k] = withNullInEnums(v);
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null))
    out.enum = [...out.enum, null];
  return out as T;
}

/** The input schema without the path parameters, which the path alone carries. */
function withoutParams(schema: Json, params: string[]): Json {
  if (!params.length || !schema.properties) return schema;
  const properties = { ...(schema.properties as Json) };
  for (const p of params) delete properties[p];
  const required = ((schema.required as string[] | undefined) ?? []).filter((r) => !params.includes(r));
  return { ...schema, properties, ...(required.length ? { required } : { required: undefined }) };
}

const ERROR_SCHEMAS = {
  Error: {
    type: 'object',
    required: ['error'],
    properties: {
      error: { type: 'string', description: 'A message a person can read' },
      reason: {
        type: 'string',
        enum: ['expired', 'invalid', 'revoked', 'disabled'],
        description:
          'On 401 for a sent token: why it no longer works. After revoked (signed out everywhere, or a new password) and disabled, the device deletes what it kept for this user.',
      },
    },
    example: { error: 'Provide a short description.' },
  },
  DuplicateConflict: {
    type: 'object',
    description:
      'A suspected duplicate. Show `existing` beside the new entry; to keep both, resend with `overrideDuplicate: true` and `duplicateOf: existing.id`.',
    required: ['error', 'duplicate', 'message', 'existing'],
    properties: {
      error: { type: 'string' },
      duplicate: { type: 'boolean', enum: [true] },
      message: { type: 'string' },
      existing: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
    },
  },
  UnpaidConflict: {
    type: 'object',
    description:
      "A refusal; with `unpaid: true` the order's payment is not confirmed yet, and ADMIN may schedule anyway by resending with `confirmUnpaid: true`.",
    required: ['error'],
    properties: {
      error: { type: 'string' },
      unpaid: {
        type: 'boolean',
        enum: [true],
        description: 'The order is not paid yet (ADMIN may override)',
      },
    },
    example: {
      error: "This order's payment is not confirmed yet. Confirming schedules the load before payment.",
      unpaid: true,
    },
  },
};

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input',
  401: 'Not signed in, or the session has ended',
  403: 'This role may not call it',
  404: 'Not found, or not yours',
  409: 'Conflicts with the current state',
  413: 'The request body is larger than the limit (BODY_LIMIT, 1 MB by default; photos 8 MB)',
  422: 'This Idempotency-Key was already used for a different request',
  429: 'Too many attempts; see Retry-After',
  503: 'A dependency (database or queue) is down; try again shortly',
};

function errorResponses(
  route: RestRoute,
  hasInput: boolean,
  hasBody: boolean,
  isPublic: boolean,
  idempotent: boolean,
): Json {
  const codes = new Set<number>([...(route.errors ?? [])]);
  if (idempotent) codes.add(422);
  if (hasInput) codes.add(400);
  if (!isPublic) codes.add(401);
  if (route.roles && route.roles.length < ROLES.length) codes.add(403);
  if (route.params.length) codes.add(404);
  // Every body is held to a limit (the app's BODY_LIMIT, or the route's own).
  if (hasBody || route.bodyLimit) codes.add(413);
  codes.add(503);
  const out: Json = {};
  for (const code of [...codes].sort()) {
    const schema =
      code === 409 && route.duplicateConflict
        ? 'DuplicateConflict'
        : code === 409 && route.unpaidConflict
          ? 'UnpaidConflict'
          : 'Error';
    out[code] = {
      description: ERROR_TEXT[code],
      ...(code === 429
        ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } }
        : {}),
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
    };
  }
  return out;
}

/** A path or query example as its schema types it (the wire carries strings; the document, the values). */
function typedExample(schema: Json | undefined, value: unknown): unknown {
  const type = schema?.type ?? (schema?.anyOf as Json[] | undefined)?.find((s) => s.type !== 'null')?.type;
  if (typeof value !== 'string') return value;
  if (type === 'integer' || type === 'number') return Number(value);
  if (type === 'boolean') return value === 'true';
  return value;
}

/** The OpenAPI document of the REST API, generated from the procedures' meta and zod schemas. */
export function buildOpenApiDocument(version: string) {
  const paths: Record<string, Json> = {};
  const defs = procedureDefs();
  for (const route of restRoutes()) {
    const def = defs[route.procedure]!._def;
    const inputSchema = schemaOf(def.inputs?.[0], 'input');
    const outputSchema = schemaOf(def.output ?? route.output, 'output');
    const openPath = route.path.replace(/:(\w+)/g, '{$1}');
    const isPublic = (PUBLIC_PROCEDURES as readonly string[]).includes(route.procedure);
    const example = route.example;
    const parameters: Json[] = route.params.map((name) => {
      const schema = ((inputSchema?.properties as Json | undefined)?.[name] ?? { type: 'string' }) as Json;
      return { name, in: 'path', required: true, schema, example: typedExample(schema, example?.[name]) };
    });
    let requestBody: Json | undefined;
    const body = inputSchema ? withoutParams(inputSchema, route.params) : undefined;
    const bodyExample = example
      ? Object.fromEntries(Object.entries(example).filter(([k]) => !route.params.includes(k)))
      : undefined;
    if (body && (route.method === 'GET' || route.method === 'DELETE')) {
      const required = new Set((body.required as string[] | undefined) ?? []);
      for (const [name, schema] of Object.entries((body.properties ?? {}) as Json)) {
        parameters.push({
          name,
          in: 'query',
          required: required.has(name),
          schema,
          ...(bodyExample?.[name] !== undefined
            ? { example: typedExample(schema as Json, bodyExample[name]) }
            : {}),
        });
      }
    } else if (body && Object.keys((body.properties ?? {}) as Json).length > 0) {
      requestBody = {
        required: true,
        content: {
          'application/json': { schema: body, ...(bodyExample ? { example: bodyExample } : {}) },
        },
      };
    }
    const success = route.status ?? 200;
    if (def.meta?.idempotent)
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'A key the device makes once per entry (a UUID) and sends again with every retry: a replay answers the first result with its status and never records a second time; the same key with a different body answers 422. Keys are per user and work over /trpc too (one call per request).',
        schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
        example: '5f0c2f8e-8a4b-4c36-9f55-2b1d0a7c9e11',
      });
    if (route.etag)
      parameters.push({
        name: 'If-None-Match',
        in: 'header',
        required: false,
        description: 'The ETag of an answer already held: 304 without a body while it is current',
        schema: { type: 'string' },
      });
    paths[openPath] ??= {};
    paths[openPath][route.method.toLowerCase()] = {
      operationId: route.procedure,
      summary: route.summary,
      tags: [route.procedure.split('.').slice(0, -1).join('.') || route.procedure],
      ...(isPublic ? { security: [] } : { description: `Roles: ${(route.roles ?? []).join(', ')}` }),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [success]: {
          description: 'Success',
          ...(route.etag
            ? { headers: { ETag: { description: 'Names this answer', schema: { type: 'string' } } } }
            : {}),
          content: { 'application/json': { schema: outputSchema ?? {} } },
        },
        ...(route.etag ? { 304: { description: 'Not modified: the If-None-Match ETag is current' } } : {}),
        ...errorResponses(
          route,
          Boolean(inputSchema),
          requestBody !== undefined || !['GET', 'DELETE'].includes(route.method),
          isPublic,
          Boolean(def.meta?.idempotent),
        ),
      },
    };
  }
  for (const raw of RAW_ROUTES) {
    paths[raw.path] ??= {};
    paths[raw.path]![raw.method.toLowerCase()] = { tags: ['raw'], ...raw.operation };
  }
  const tags = [
    ...new Set(
      Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((o) => (o as Json).tags as string[])),
    ),
  ]
    .sort()
    .map((name) => ({
      name,
      description:
        name === 'raw' ? 'Routes outside tRPC (files, trackers, this document)' : `The ${name} procedures`,
    }));
  return {
    openapi: '3.0.3',
    info: {
      title: 'Mchanga API',
      version,
      description: 'Sand-delivery dispatch and back office. Every error is JSON `{ "error": "…" }`.',
      license: { name: 'Proprietary', url: 'https://mchanga.co.ke/terms' },
    },
    servers: [{ url: '/', description: 'The server this document was fetched from' }],
    security: [{ bearerAuth: [] }],
    tags,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { ...ERROR_SCHEMAS, ...RAW_SCHEMAS },
    },
    paths,
  };
}
