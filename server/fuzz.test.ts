/**
 * Hostile and broken input (issue 11, item 5): every REST operation of the OpenAPI document gets at least
 * 100 bad requests generated from its own schemas (test/fuzz.ts), sent with a token of a role it lets in
 * so that they reach validation. No answer may be a 5xx; every refusal is JSON `{ error }`.
 *
 * The procedure's own zod schema is the oracle: a request it refuses must be answered 4xx, and the
 * refused ones, sent first, must leave every table as it was. Requests the schema accepts (a number as
 * a string, an unknown field it drops) and the raw routes then only have to stay below 500.
 */
import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { LIMIT_RULES } from '../core/auth/rate-limit';
import { type DbOrTx, rows } from '../drizzle/db';
import type { JobQueue } from '../shared/jobs';
import type { Role } from '../shared/roles';
import { makeAssignment, makeCost, makeDriver, makeOrder, makeStock, makeTruck } from '../test/factories';
import { exampleUrl, type FuzzCase, fuzzCases, type Operation, operationsOf } from '../test/fuzz';
import { createTestApp, type SignedIn, type TestApp, testSettings } from '../test/helpers';
import { buildOpenApiDocument } from './openapi';
import { RAW_ROUTES } from './raw-routes';
import { procedureDefs, restRoutes } from './rest';

const MIN_CASES = 100;
const DEVICE = 'dev-t1';
/**
 * Meta's webhook checks a signature before anything else: each case is signed with the app's secret (as
 * Meta would sign it) so that its body reaches the parsing behind the check; the verify token is the one
 * in the OpenAPI example.
 */
const WEBHOOK_SECRET = 'fuzz-meta-app-secret';
const SIGNED = new Set(
  RAW_ROUTES.filter((r) => r.access === 'signature').map((r) => r.operation.operationId),
);
const signature = (body: string) =>
  `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;

let t: TestApp;
/** Jobs are recorded, not run: the answers are under test here, and the briefing alone would take seconds. */
const QUEUE: JobQueue = {
  transport: 'in-process',
  enqueue: async () => ({ id: 'fuzz' }),
  health: async () => ({ ok: true }),
  close: async () => {},
};
beforeAll(async () => {
  // Limits far away, so that the thousands of requests from one address reach validation, not a 429.
  const limits = Object.fromEntries(
    Object.keys(LIMIT_RULES).map((k) => [k, { points: 1_000_000, duration: 60 }]),
  );
  t = await createTestApp({
    limits,
    jobs: QUEUE,
    settings: {
      whatsapp: { ...testSettings().whatsapp, appSecret: WEBHOOK_SECRET, verifyToken: 'my-verify-token' },
    },
  });
});
afterAll(() => t.close());

/** The first role an operation lets in (none for public and device routes). */
function roleOf(operationId: string): Role | undefined {
  const rest = restRoutes().find((r) => r.procedure === operationId);
  if (rest) return rest.roles?.[0];
  const raw = RAW_ROUTES.find((r) => r.operation.operationId === operationId);
  return Array.isArray(raw?.access) ? (raw.access as Role[])[0] : undefined;
}

type Verdict = 'valid' | 'invalid' | 'unknown';

/** What the procedure's schema makes of the case's input; `unknown` for raw routes and broken encodings. */
function verdict(op: Operation, c: FuzzCase): Verdict {
  if (c.input === 'refused') return 'invalid';
  if (c.input === 'unknown') return 'unknown';
  const def = procedureDefs()[op.operationId]?._def;
  if (!def) return 'unknown';
  const schema = def.inputs?.[0] as z.ZodType | undefined;
  if (!schema) return 'valid';
  return schema.safeParse(c.input.value).success ? 'valid' : 'invalid';
}

interface Planned {
  op: Operation;
  c: FuzzCase;
  verdict: Verdict;
  signedIn: SignedIn | null;
}

/** Each operation's requests in order; up to `width` operations at a time. */
async function byOperation(items: Planned[], width: number, run: (item: Planned) => Promise<void>) {
  const groups = new Map<string, Planned[]>();
  for (const item of items)
    groups.set(item.op.operationId, [...(groups.get(item.op.operationId) ?? []), item]);
  const queues = [...groups.values()];
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let q = queues.shift(); q; q = queues.shift()) for (const item of q) await run(item);
    }),
  );
}

async function tableCounts(db: DbOrTx): Promise<Record<string, number>> {
  const tables = await rows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const [row] = await rows<{ n: number }>(db, sql`select count(*)::int as n from ${sql.identifier(name)}`);
    counts[name] = Number(row!.n);
  }
  return counts;
}

describe('hostile and broken input', () => {
  it('answers every bad request of every operation below 500 with a JSON error, and refused ones change no row', async () => {
    const db = t.database.db;
    const truck = await makeTruck(db, { deviceId: DEVICE });
    const driver = await makeDriver(db);
    const order = await makeOrder(db, { trucks: 3 });
    const assignment = await makeAssignment(db, {
      orderId: order.id,
      truckId: truck.id,
      driverId: driver.id,
    });
    const cost = await makeCost(db, { truckId: truck.id });
    const stock = await makeStock(db, { tonnes: 400 });
    const spare = await t.signIn('OPS');
    const who: Partial<Record<Role, SignedIn>> = {
      ADMIN: await t.signIn('ADMIN'),
      OPS: await t.signIn('OPS'),
      FUEL: await t.signIn('FUEL'),
      DRIVER: await t.signIn('DRIVER', { driverId: driver.id }),
      CUSTOMER: await t.signIn('CUSTOMER'),
    };
    const mine = await makeOrder(db, { customerId: who.CUSTOMER!.user.id });

    // Real rows behind the path parameters, so that bad bodies reach the code behind validation.
    const pathValues: Record<string, Record<string, string | number>> = {
      'admin.orders.setAssignmentStatus': { id: assignment.id },
      'admin.audit.review': { entity: 'cost', id: cost.id },
      'admin.audit.void': { entity: 'cost', id: cost.id },
      'admin.costs.update': { id: cost.id },
      'admin.drivers.update': { id: driver.id },
      'admin.notifications.update': { id: spare.user.id },
      'admin.orders.assignments': { id: order.id },
      'admin.orders.addAssignment': { id: order.id },
      'admin.orders.reviewPayment': { id: order.id },
      'admin.stock.updateNote': { id: stock.id },
      'admin.trucks.update': { id: truck.id },
      'admin.users.disable': { id: spare.user.id },
      'admin.users.enable': { id: spare.user.id },
      'orders.confirmPayment': { id: mine.id },
    };

    const doc = buildOpenApiDocument('fuzz');
    const ops = operationsOf(doc);
    const plan: Planned[] = [];
    const perOp: Record<string, number> = {};
    for (const op of ops) {
      const values = Object.fromEntries(
        op.pathParams.map((p) => [
          p.name,
          encodeURIComponent(String(pathValues[op.operationId]?.[p.name] ?? p.example ?? '1')),
        ]),
      );
      const role = roleOf(op.operationId);
      // Session-changing calls (sign out everywhere, new password) get a user of their own.
      const signedIn = role
        ? op.operationId.startsWith('auth.')
          ? await t.signIn(role)
          : (who[role] ?? null)
        : null;
      const cases = fuzzCases(op, values, MIN_CASES);
      perOp[`${op.method} ${op.path}`] = cases.length;
      for (const c of cases) plan.push({ op, c, verdict: verdict(op, c), signedIn });
    }

    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    const reached = new Set<string>();
    const send = async ({ op, c, verdict, signedIn }: Planned) => {
      const res = await t.app.inject({
        method: op.method,
        url: c.url,
        headers: {
          ...(signedIn?.headers ?? {}),
          ...(c.contentType ? { 'content-type': c.contentType } : {}),
          ...(SIGNED.has(op.operationId) && c.body !== undefined
            ? { 'x-hub-signature-256': signature(c.body) }
            : {}),
        },
        ...(c.body !== undefined ? { payload: c.body } : {}),
      });
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
      if (![401, 403, 429].includes(res.statusCode)) reached.add(op.operationId);
      const where = `${op.method} ${op.path} [${c.label}] → ${res.statusCode}`;
      if (res.statusCode >= 500) failures.push(`${where} ${res.body.slice(0, 200)}`);
      else if (res.statusCode >= 400) {
        const error = (() => {
          try {
            return (res.json() as { error?: unknown }).error;
          } catch {
            return undefined;
          }
        })();
        if (typeof error !== 'string')
          failures.push(`${where} without a JSON error: ${res.body.slice(0, 200)}`);
      } else if (verdict === 'invalid') failures.push(`${where}: its schema refuses this input`);
    };

    // A tracker that has reported from this address keeps its answers while bad device ids spend the
    // address's guesses: the device routes' bad inputs then reach the parsing behind the device check.
    const devices = RAW_ROUTES.filter((r) => r.access === 'device').map((r) => r.operation.operationId);
    for (const op of ops.filter((o) => o.method === 'GET' && devices.includes(o.operationId)))
      expect((await t.app.inject({ method: 'GET', url: exampleUrl(op) })).statusCode).toBe(200);

    // 1. What the schemas refuse: 4xx, and not one row written anywhere (no writes: run side by side).
    await t.jobs.drain();
    const before = await tableCounts(db);
    await byOperation(
      plan.filter((p) => p.verdict === 'invalid'),
      4,
      send,
    );
    await t.jobs.drain();
    expect(await tableCounts(db)).toEqual(before);

    // 2. What they accept, and the raw routes: never a 5xx. Reads side by side; writes one at a time,
    // so that a failure here is the input's and not a race between operations.
    const accepted = plan.filter((p) => p.verdict !== 'invalid');
    await byOperation(
      accepted.filter((p) => p.op.method === 'GET'),
      4,
      send,
    );
    await byOperation(
      accepted.filter((p) => p.op.method !== 'GET'),
      1,
      send,
    );

    const counts = Object.values(perOp);
    const fives = Object.entries(statuses)
      .filter(([s]) => Number(s) >= 500)
      .reduce((n, [, k]) => n + k, 0);
    console.log(
      `fuzz: ${ops.length} operations × ${Math.min(...counts)}–${Math.max(...counts)} inputs = ${plan.length} ` +
        `requests (${plan.length - accepted.length} refused by their schema), 5xx = ${fives}; ` +
        `statuses ${JSON.stringify(statuses)}`,
    );
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(MIN_CASES);
    expect(failures.slice(0, 40), `${failures.length} failures`).toEqual([]);
    // Every operation answered past its role gate (an operation that only ever said 401/403/429 was not fuzzed).
    expect(ops.map((o) => o.operationId).filter((id) => !reached.has(id))).toEqual([]);
  }, 180_000);

  it.each([
    ['POST', '/api/orders/guest', null, { name: '\u0000' }, 'Name cannot contain control characters.'],
    ['POST', '/api/auth/register', null, { name: 'a\u0000b' }, 'Name cannot contain control characters.'],
    [
      'PUT',
      '/api/driver/profile',
      'DRIVER',
      { name: '\u0000' },
      'Driver name cannot contain control characters.',
    ],
    [
      'GET',
      '/api/admin/finance/summary?to=2026-13-45',
      'ADMIN',
      undefined,
      'Dates are YYYY-MM-DD, and the day must exist.',
    ],
    [
      'GET',
      '/api/admin/finance/timeseries?from=2026-02-30',
      'ADMIN',
      undefined,
      'Dates are YYYY-MM-DD, and the day must exist.',
    ],
    [
      'GET',
      '/api/admin/audit/duplicates?from=0000-00-00',
      'ADMIN',
      undefined,
      'Dates are YYYY-MM-DD, and the day must exist.',
    ],
    [
      'POST',
      '/api/admin/costs',
      'ADMIN',
      { amount: 1e-300 },
      'Amounts in KES have at most two decimals (cents).',
    ],
    [
      'POST',
      '/api/admin/costs',
      'ADMIN',
      { incurredAt: '+275760-09-13T00:00:00Z' },
      'Enter a valid date and time.',
    ],
    [
      'POST',
      '/api/fuel/logs',
      'FUEL',
      { capturedAt: '1900-01-01T00:00:00Z' },
      'Enter a date and time between 2000 and 2100.',
    ],
    ['POST', '/api/admin/stock/receipt', 'ADMIN', { trucks: 1e308 }, 'A receipt is at most 1,000 trucks.'],
    ['POST', '/api/admin/stock/receipt', 'ADMIN', { costPerTonne: '1e3' }, 'Provide cost per tonne (KES).'],
    ['PATCH', '/api/admin/trucks/%00', 'ADMIN', { plate: 'KDA 1' }, 'No truck with that ID exists.'],
    [
      'PATCH',
      '/api/admin/costs/2147483648',
      'ADMIN',
      { truckId: 'T-1', type: 'REPAIR', amount: 10, description: 'Tyre' },
      'Cost record not found.',
    ],
  ] as const)('%s %s %j answers 400: %s', async (method, url, role, body, message) => {
    const valid: Record<string, Record<string, unknown>> = {
      '/api/orders/guest': {
        phone: '0712345678',
        site: 'Juja',
        sandType: 'coarse',
        trucks: 1,
        dateNeeded: '2026-12-01',
      },
      '/api/auth/register': { email: 'nul@example.co.ke', password: 'password123' },
      '/api/driver/profile': {},
      '/api/admin/costs': { truckId: 'T-1', type: 'REPAIR', amount: 10, description: 'Tyre' },
      '/api/fuel/logs': { truckId: 'T-1', cost: 100 },
      '/api/admin/stock/receipt': { truckId: 'T-1', trucks: 1, costPerTonne: 100 },
    };
    const who = role ? await t.signIn(role) : null;
    const payload = body && { ...valid[url.split('?')[0]!], ...body };
    const res = await t.call(method, url, who, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });
});
