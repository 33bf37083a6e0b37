import { z } from 'zod';
import { REST_ROUTES } from './rest';
import { appRouter } from './router';
import { PUBLIC_PROCEDURES } from './trpc';

interface ProcedureDef {
  inputs?: unknown[];
  output?: unknown;
  type?: string;
  meta?: { roles?: string[] };
}

function schemaOf(value: unknown, io: 'input' | 'output'): Record<string, unknown> | undefined {
  if (!(value instanceof z.ZodType)) return undefined;
  return z.toJSONSchema(value, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as Record<
    string,
    unknown
  >;
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: { error: { type: 'string', description: 'A message a person can read' } },
  additionalProperties: true,
};

/** The OpenAPI document of the REST adapter, generated from the same zod schemas the procedures use. */
export function buildOpenApiDocument(version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>;
  for (const route of REST_ROUTES) {
    const def = procedures[route.procedure]!._def;
    const input = def.inputs?.[0];
    const inputSchema = schemaOf(input, 'input');
    const outputSchema = schemaOf(def.output, 'output');
    const openPath = route.path.replace(/:(\w+)/g, '{$1}');
    const pathParams = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
    const isPublic = (PUBLIC_PROCEDURES as readonly string[]).includes(route.procedure);
    const parameters: unknown[] = pathParams.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    let requestBody: unknown;
    if (inputSchema && (route.method === 'GET' || route.method === 'DELETE')) {
      const props = (inputSchema.properties ?? {}) as Record<string, unknown>;
      const required = new Set((inputSchema.required as string[] | undefined) ?? []);
      for (const [name, schema] of Object.entries(props)) {
        if (!pathParams.includes(name))
          parameters.push({ name, in: 'query', required: required.has(name), schema });
      }
    } else if (inputSchema) {
      requestBody = { required: true, content: { 'application/json': { schema: inputSchema } } };
    }
    const success = typeof route.status === 'number' ? route.status : 200;
    paths[openPath] ??= {};
    paths[openPath][route.method.toLowerCase()] = {
      operationId: route.procedure,
      summary: route.summary,
      ...(isPublic ? { security: [] } : { description: `Roles: ${(def.meta?.roles ?? []).join(', ')}` }),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: {
        [success]: {
          description: 'Success',
          content: { 'application/json': { schema: outputSchema ?? {} } },
        },
        default: {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
  }
  return {
    openapi: '3.0.3',
    info: { title: 'Mchanga API', version, description: 'Sand-delivery dispatch and back office.' },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}
