import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { buildOpenApiDocument } from '../server/openapi';

/** Writes the OpenAPI document the server serves at /api/openapi.json, for `redocly lint` (npm run lint:openapi). */
const out = process.argv[2] ?? 'dist/openapi.json';
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(buildOpenApiDocument('0.1.0'), null, 2)}\n`);
console.log(`wrote ${out}`);
