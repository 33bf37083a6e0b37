/**
 * Bad inputs for a REST operation, generated from its OpenAPI description (server/fuzz.test.ts sends them).
 * Each case is a raw request (path, query string, body text), so that what JSON cannot say directly — 1e400,
 * a lone surrogate, an empty or non-JSON body — is sent as a client would, plus the input the REST
 * adapter hands the procedure when the request can be read at all (for the validity oracle).
 */

type Json = Record<string, unknown>;
type Schema = Json;

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path, `{id}` style. */
  path: string;
  operationId: string;
  pathParams: { name: string; schema: Schema; example?: unknown }[];
  queryParams: { name: string; schema: Schema; required: boolean; example?: unknown }[];
  /** The JSON body schema and its example, when the operation takes one. */
  body?: { schema: Schema; example: Json };
}

export interface FuzzCase {
  /** What was varied, for a failure message: `amount = 1e-300`. */
  label: string;
  url: string;
  body?: string;
  contentType?: string;
  /**
   * The input the REST adapter builds from this request (body or query, path parameters winning);
   * `refused` when the request is malformed before any procedure (not JSON, a poisoned key, a text body);
   * `unknown` when the server's reading of it cannot be predicted here (a broken percent-encoding).
   */
  input: { value: unknown } | 'refused' | 'unknown';
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: Json): Operation[] {
  const ops: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    for (const [method, raw] of Object.entries(item)) {
      const op = raw as Json;
      const params = (op.parameters as Json[] | undefined) ?? [];
      const json = (op.requestBody as Json | undefined)?.content as Json | undefined;
      const media = json?.['application/json'] as Json | undefined;
      const schema = media?.schema as Schema | undefined;
      ops.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        operationId: op.operationId as string,
        pathParams: params
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name as string, schema: p.schema as Schema, example: p.example })),
        queryParams: params
          .filter((p) => p.in === 'query')
          .map((p) => ({
            name: p.name as string,
            schema: p.schema as Schema,
            required: Boolean(p.required),
            example: p.example,
          })),
        ...(schema?.properties ? { body: { schema, example: (media?.example as Json) ?? {} } } : {}),
      });
    }
  }
  return ops;
}

/** A value as raw JSON text, with a label. Raw text lets 1e400 and lone surrogates through as sent. */
type Bad = [label: string, json: string];

const HUGE = 'x'.repeat(100_000);

/** Wrong types and junk any property must survive. */
const ANY_BAD: Bad[] = [
  ['null', 'null'],
  ['true', 'true'],
  ['an empty array', '[]'],
  ['an object', '{"a":1}'],
  ['NUL', '"\\u0000"'],
  ['NUL inside', '"ab\\u0000cd"'],
  ['ESC sequence', '"\\u001b[2J"'],
  ['C1 control', '"\\u009b31m"'],
  ['a lone surrogate', '"\\ud800"'],
  ['a huge string', `"${HUGE}"`],
];

const STRING_BAD: Bad[] = [
  ['an empty string', '""'],
  ['blanks', '"   "'],
  ['a newline only', '"\\n"'],
  ['tab and CR', '"a\\tb\\rc"'],
  ['a number', '42'],
  ['zero-width space', '"\\u200b"'],
  ['a SQL quote', `"x'; drop table orders; --"`],
  ['emoji', '"🚚🚚🚚"'],
  ['percent-encoded NUL', '"%00"'],
];

const NUMBER_BAD: Bad[] = [
  ['zero', '0'],
  ['negative zero', '-0'],
  ['minus one', '-1'],
  ['1e308', '1e308'],
  ['-1e308', '-1e308'],
  ['1e-300', '1e-300'],
  ['1e400 (Infinity)', '1e400'],
  ['2^31', '2147483648'],
  ['2^53 + 1', '9007199254740993'],
  ['too many decimals', '12.345'],
  ['a half', '1.5'],
  ['a number as a string', '"12"'],
  ['an exponent as a string', '"1e3"'],
  ['"NaN"', '"NaN"'],
  ['"Infinity"', '"Infinity"'],
  ['hex as a string', '"0x10"'],
  ['a comma decimal', '"12,5"'],
  ['an empty string', '""'],
  ['a date as a number', '8.64e15'],
];

const DATE_BAD: Bad[] = [
  ['an impossible day', '"2026-02-30"'],
  ['an impossible month', '"2026-13-45"'],
  ['year zero', '"0000-00-00"'],
  ['year 9999', '"9999-12-31"'],
  ['a short date', '"2026-1-1"'],
  ['a date and time', '"2026-01-01T00:00:00Z"'],
  ['an expanded-year instant', '"+275760-09-13T00:00:00Z"'],
  ['a negative expanded year', '"-271821-04-20T00:00:00Z"'],
  ['year 1900', '"1900-01-01T00:00:00Z"'],
  ['February 30th with a time', '"2026-02-30T10:00:00Z"'],
  ['hour 25', '"2026-11-23T25:61:00Z"'],
  ['a bad offset', '"2026-11-23T08:15:00+99:99"'],
  ['"now"', '"now"'],
  ['epoch milliseconds', '1795430000000'],
];

function typesOf(schema: Schema | undefined): Set<string> {
  const out = new Set<string>();
  if (!schema) return out;
  if (typeof schema.type === 'string') out.add(schema.type);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const s of (schema[key] as Schema[] | undefined) ?? []) for (const t of typesOf(s)) out.add(t);
  return out;
}

function isDateLike(name: string, schema: Schema): boolean {
  return (
    /date|At$|^from$|^to$|time/i.test(name) ||
    schema.format === 'date' ||
    schema.format === 'date-time' ||
    /\\d\{4\}-/.test(String(schema.pattern ?? ''))
  );
}

/** Bad values for one property, from its schema (an unknown schema gets them all). */
export function badValues(name: string, schema: Schema): Bad[] {
  const types = typesOf(schema);
  const unknown = types.size === 0 || (types.size === 1 && types.has('null'));
  const out: Bad[] = [...ANY_BAD];
  if (unknown || types.has('string')) out.push(...STRING_BAD);
  if (unknown || types.has('number') || types.has('integer') || isDateLike(name, schema))
    out.push(...NUMBER_BAD);
  if (unknown || isDateLike(name, schema)) out.push(...DATE_BAD);
  const max = schema.maxLength as number | undefined;
  if (typeof max === 'number') out.push([`${max + 1} characters`, JSON.stringify('y'.repeat(max + 1))]);
  const maximum = schema.maximum as number | undefined;
  if (typeof maximum === 'number' && maximum < 1e15)
    out.push([`above the maximum ${maximum}`, String(maximum * 10 + 1)]);
  for (const e of (schema.enum as unknown[] | undefined) ?? [])
    if (typeof e === 'string') {
      out.push([`${e} with NUL`, JSON.stringify(`${e}\u0000`)]);
      out.push([
        `${e} in other case`,
        JSON.stringify(e === e.toLowerCase() ? e.toUpperCase() : e.toLowerCase()),
      ]);
    }
  if (types.has('boolean')) out.push(['"yes"', '"yes"'], ['1', '1'], ['"false"', '"false"']);
  if (types.has('array')) {
    const items = (schema.items as Schema | undefined) ?? {};
    out.push(['an array of nulls', '[null,null]'], ['an array of NULs', '["\\u0000"]']);
    if (typeof schema.maxItems === 'number')
      out.push([`${schema.maxItems + 1} items`, JSON.stringify(Array(schema.maxItems + 1).fill({}))]);
    const props = (items.properties as Record<string, Schema> | undefined) ?? {};
    for (const [p, s] of Object.entries(props))
      for (const [label, json] of badValues(p, s).filter((_, i) => i % 3 === 0))
        out.push([`[{${p}: ${label}}]`, `[{"${p}":${json}}]`]);
  }
  if (types.has('object') && schema.properties) {
    for (const [p, s] of Object.entries(schema.properties as Record<string, Schema>))
      for (const [label, json] of badValues(p, s).filter((_, i) => i % 3 === 0))
        out.push([`{${p}: ${label}}`, `{"${p}":${json}}`]);
  }
  return out;
}

/** Path parameter values as sent in the URL (already percent-encoded where that is the point). */
const PATH_BAD: string[] = [
  '%00',
  '1%00',
  '%7F',
  '%C2%9B',
  '%1B%5B2J',
  '%C0%80',
  '%FF',
  '%',
  '%ZZ',
  '0',
  '-1',
  '1.5',
  '1e3',
  '2147483648',
  '99999999999999999999999',
  'Infinity',
  'abc',
  '%20',
  '%E2%80%8B',
  '..',
  '%2F',
  `${'z'.repeat(300)}`,
  '%27%3B%20drop%20table%20trucks%3B%20--',
];

/** Query values as sent (percent-encoded). */
const QUERY_BAD: string[] = [
  '',
  '%00',
  'a%00b',
  '%C2%9B',
  '%FF',
  '%',
  'null',
  'true',
  '-1',
  '0',
  '1.5',
  '1e308',
  '-1e308',
  '1e-300',
  'Infinity',
  'NaN',
  '2147483648',
  '9007199254740993',
  '2026-02-30',
  '2026-13-45',
  '0000-00-00',
  '9999-12-31',
  '%2B275760-09-13T00%3A00%3A00Z',
  'x'.repeat(5000),
];

function decodeQueryValue(v: string): string | undefined {
  try {
    return decodeURIComponent(v.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function decodePath(v: string): string | undefined {
  try {
    return decodeURIComponent(v);
  } catch {
    return undefined;
  }
}

function fillPath(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}

function encodeQuery(query: Record<string, string | string[]>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query))
    for (const one of Array.isArray(v) ? v : [v]) parts.push(`${encodeURIComponent(k)}=${one}`);
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The input the REST adapter builds: the body or query object with the path parameters on top. */
function adapterInput(source: unknown, params: Record<string, string>): unknown {
  if (source === undefined || source === null) return Object.keys(params).length ? { ...params } : undefined;
  if (typeof source !== 'object' || Array.isArray(source)) return source;
  return { ...(source as Json), ...params };
}

const EXTRA_KEYS = ['zzUnknown', '__proto__x', 'constructor', 'role', 'id\u0000', 'k'.repeat(300)];

/**
 * At least `min` bad requests for one operation: every property with wrong types, junk, extremes and
 * impossible dates; each required property missing; unknown extra properties; whole-body junk; bad path
 * parameters; bad query values. `pathValues` fills the path parameters of the body and query cases (real
 * rows, so that bad bodies reach the code behind validation).
 */
export function fuzzCases(op: Operation, pathValues: Record<string, string>, min = 100): FuzzCase[] {
  const cases: FuzzCase[] = [];
  const decodedParams = Object.fromEntries(Object.entries(pathValues).map(([k, v]) => [k, decodePath(v)!]));
  const url = fillPath(op.path, pathValues);
  const isQuery = op.method === 'GET' || op.method === 'DELETE';

  const queryCase = (label: string, query: Record<string, string | string[]>) => {
    const decoded: Record<string, string | string[]> = {};
    let readable = true;
    for (const [k, v] of Object.entries(query)) {
      const d = Array.isArray(v) ? v.map(decodeQueryValue) : decodeQueryValue(v);
      if (d === undefined || (Array.isArray(d) && d.includes(undefined))) readable = false;
      else decoded[k] = d as string | string[];
    }
    cases.push({
      label,
      url: `${url}${encodeQuery(query)}`,
      input: readable ? { value: adapterInput(decoded, decodedParams) } : 'unknown',
    });
  };
  const bodyCase = (label: string, text: string | undefined, contentType = 'application/json') => {
    let input: FuzzCase['input'] = 'refused';
    if (text === undefined) input = { value: adapterInput(undefined, decodedParams) };
    // Fastify reads text/plain as a string; other media types depend on the parsers the app registers.
    else if (contentType === 'text/plain') input = { value: adapterInput(text, decodedParams) };
    else if (contentType !== 'application/json') input = 'unknown';
    else if (text.trim() !== '') {
      try {
        const parsed = JSON.parse(text);
        if (!/"__proto__"\s*:/.test(text)) input = { value: adapterInput(parsed, decodedParams) };
      } catch {
        // Not JSON: refused before any procedure.
      }
    }
    cases.push({ label, url, ...(text === undefined ? {} : { body: text, contentType }), input });
  };

  // Bad path parameters, the rest of the request as in the example.
  const exampleQuery = Object.fromEntries(
    op.queryParams
      .filter((p) => p.example !== undefined)
      .map((p) => [p.name, encodeURIComponent(String(p.example))]),
  );
  const exampleBody = op.body ? JSON.stringify(op.body.example) : undefined;
  for (const param of op.pathParams) {
    for (const bad of PATH_BAD) {
      const values = { ...pathValues, [param.name]: bad };
      const decoded = decodePath(bad);
      const params = Object.fromEntries(
        Object.keys(values).map((k) => [k, k === param.name ? decoded : decodedParams[k]]),
      ) as Record<string, string>;
      const source = isQuery ? exampleQueryDecoded(exampleQuery) : exampleBody && JSON.parse(exampleBody);
      cases.push({
        label: `path ${param.name} = ${bad.slice(0, 40)}`,
        url: `${fillPath(op.path, values)}${isQuery ? encodeQuery(exampleQuery) : ''}`,
        ...(!isQuery && exampleBody ? { body: exampleBody, contentType: 'application/json' } : {}),
        input: decoded === undefined ? 'unknown' : { value: adapterInput(source, params) },
      });
    }
  }

  if (isQuery) {
    for (const param of op.queryParams)
      for (const bad of QUERY_BAD) {
        queryCase(`query ${param.name} = ${bad.slice(0, 40)}`, { ...exampleQuery, [param.name]: bad });
      }
    for (const param of op.queryParams) {
      queryCase(`query ${param.name} twice`, { ...exampleQuery, [param.name]: ['1', '2'] });
      if (param.required) {
        const { [param.name]: _, ...rest } = exampleQuery;
        queryCase(`query ${param.name} missing`, rest);
      }
    }
    for (let i = 0; cases.length < min; i++) {
      const key = EXTRA_KEYS[i % EXTRA_KEYS.length]!;
      const value = QUERY_BAD[Math.floor(i / EXTRA_KEYS.length) % QUERY_BAD.length]!;
      queryCase(`unknown query ${key.slice(0, 20)} = ${value.slice(0, 20)}`, {
        ...exampleQuery,
        [key]: value,
      });
      if (i > 10 * min) break;
    }
    return cases;
  }

  const example = op.body?.example ?? {};
  const properties = (op.body?.schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = (op.body?.schema.required as string[] | undefined) ?? [];
  for (const [name, schema] of Object.entries(properties)) {
    for (const [label, json] of badValues(name, schema)) {
      const rest = JSON.stringify({ ...example, [name]: 0 }).slice(1, -1);
      // The property replaced by its bad value as raw text (a JSON round trip would lose 1e400 and -0).
      const fields = rest.replace(`"${name}":0`, `"${name}":${json}`);
      bodyCase(`${name} = ${label}`, `{${fields}}`);
    }
  }
  for (const name of required) {
    const { [name]: _, ...rest } = example;
    bodyCase(`${name} missing`, JSON.stringify(rest));
  }
  bodyCase('no body', undefined);
  bodyCase('an empty JSON body', '');
  bodyCase('an empty object', '{}');
  bodyCase('a top-level array', JSON.stringify([example]));
  bodyCase('an empty array', '[]');
  bodyCase('a string', '"hello"');
  bodyCase('a number', '42');
  bodyCase('null', 'null');
  bodyCase('not JSON', '{"a":');
  bodyCase('a __proto__ key', withField(example, '__proto__', '{"isAdmin":true}'));
  bodyCase('deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`);
  bodyCase('a text body', 'hello', 'text/plain');
  bodyCase('a form body', 'a=1&b=2', 'application/x-www-form-urlencoded');
  for (let i = 0; cases.length < min; i++) {
    const key = EXTRA_KEYS[i % EXTRA_KEYS.length]!;
    const bad = ANY_BAD.concat(NUMBER_BAD, STRING_BAD)[Math.floor(i / EXTRA_KEYS.length)];
    if (!bad) break;
    bodyCase(`unknown ${key.slice(0, 20)} = ${bad[0]}`, withField(example, key, bad[1]));
  }
  return cases;
}

/** The example's JSON text with one more field, its value given as raw JSON text. */
function withField(example: Json, key: string, json: string): string {
  const fields = JSON.stringify(example).slice(1, -1);
  return `{${fields}${fields ? ',' : ''}${JSON.stringify(key)}:${json}}`;
}

/** Fastify hands GET routes a query object even when the URL has none. */
function exampleQueryDecoded(query: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, decodeQueryValue(v)!]));
}

/** The operation's documented example as a URL (path and query), for a request that should succeed. */
export function exampleUrl(op: Operation, pathValues: Record<string, string> = {}): string {
  const values = Object.fromEntries(
    op.pathParams.map((p) => [p.name, pathValues[p.name] ?? encodeURIComponent(String(p.example ?? ''))]),
  );
  const query = Object.fromEntries(
    op.queryParams
      .filter((p) => p.example !== undefined)
      .map((p) => [p.name, encodeURIComponent(String(p.example))]),
  );
  return `${fillPath(op.path, values)}${encodeQuery(query)}`;
}
