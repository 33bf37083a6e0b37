import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignments,
  costs,
  fuelLogs,
  idempotencyKeys,
  loadEvents,
  stockTransactions,
} from '../drizzle/schema';
import { makeAssignment, makeDriver, makeOrder, makeTruck } from '../test/factories';
import { createTestApp, type SignedIn, type TestApp } from '../test/helpers';
import { buildOpenApiDocument } from './openapi';

let t: TestApp;
const now = new Date('2026-11-20T09:00:00Z');

beforeAll(async () => {
  t = await createTestApp({ now: () => now });
});
afterAll(() => t.close());

interface OpenApiOperation {
  parameters?: { name: string }[];
  responses: Record<string, unknown>;
}

const key = () => ({ 'idempotency-key': randomUUID() });

async function rowsOf(table: typeof fuelLogs | typeof costs, truckId: string) {
  const [row] = await t.database.db.select({ n: count() }).from(table).where(eq(table.truckId, truckId));
  return row!.n;
}

/** A tRPC mutation over HTTP (one call, not batched), as the device outbox would send it. */
function trpcCall(path: string, who: SignedIn, input: unknown, headers: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: `/trpc/${path}`,
    headers: { ...who.headers, 'content-type': 'application/json', ...headers },
    payload: JSON.stringify(input),
  });
}

describe('Idempotency-Key', () => {
  it('answers a replayed fuel log (with its photo) with the first result and stores one row', async () => {
    const fuel = await t.signIn('FUEL');
    const truck = await makeTruck(t.database.db);
    const body = {
      truckId: truck.id,
      litres: 80,
      odometer: 1000,
      cost: 14000,
      note: 'Rubis Juja',
      capturedAt: '2026-11-20T08:00:00.000Z',
      photoData:
        'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    };
    const headers = key();
    const first = await t.call('POST', '/api/fuel/logs', fuel, body, headers);
    expect(first.statusCode).toBe(201);
    const again = await t.call('POST', '/api/fuel/logs', fuel, body, headers);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await rowsOf(fuelLogs, truck.id)).toBe(1);
    expect(await rowsOf(costs, truck.id)).toBe(1);
    // Without the key the same entry is a suspected duplicate, as before.
    expect((await t.call('POST', '/api/fuel/logs', fuel, body)).statusCode).toBe(409);
  });

  it('serialises 20 racing replays of one key into one row and 20 identical answers', async () => {
    const fuel = await t.signIn('FUEL');
    const truck = await makeTruck(t.database.db);
    const body = { truckId: truck.id, litres: 50, odometer: 2000, cost: 9000, note: '' };
    const headers = key();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.call('POST', '/api/fuel/logs', fuel, body, headers)),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(await rowsOf(fuelLogs, truck.id)).toBe(1);
    const stored = await t.database.db
      .select()
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, headers['idempotency-key']));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      route: 'fuel.create',
      responseStatus: 201,
      createdId: String(answers[0]!.json().id),
    });
  });

  it('refuses the same key with a different body (422), and keys are per user', async () => {
    const ops = await t.signIn('OPS');
    const other = await t.signIn('OPS');
    const truck = await makeTruck(t.database.db);
    const body = { truckId: truck.id, type: 'REPAIR', amount: 1200, description: 'Brake pads' };
    const headers = key();
    expect((await t.call('POST', '/api/admin/costs', ops, body, headers)).statusCode).toBe(201);
    const changed = await t.call('POST', '/api/admin/costs', ops, { ...body, amount: 1300 }, headers);
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toEqual({
      error: 'This Idempotency-Key was already used for a different request.',
    });
    // Another user's identical key is their own: a new entry, here a suspected duplicate of the first.
    expect((await t.call('POST', '/api/admin/costs', other, body, headers)).statusCode).toBe(409);
    expect(await rowsOf(costs, truck.id)).toBe(1);
  });

  it('keeps nothing for a refused write: the corrected entry with the same key is recorded', async () => {
    const ops = await t.signIn('OPS');
    const truck = await makeTruck(t.database.db);
    const headers = key();
    const body = { truckId: truck.id, type: 'REPAIR', amount: 0, description: 'Mirror' };
    const refused = await t.call('POST', '/api/admin/costs', ops, body, headers);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'Enter an amount greater than zero.' });
    const fixed = await t.call('POST', '/api/admin/costs', ops, { ...body, amount: 800 }, headers);
    expect(fixed.statusCode).toBe(201);
    expect(await rowsOf(costs, truck.id)).toBe(1);
  });

  it('works over tRPC, and a key used over tRPC replays over REST', async () => {
    const ops = await t.signIn('OPS');
    const truck = await makeTruck(t.database.db);
    const body = { truckId: truck.id, type: 'LOADING', amount: 500, description: 'Loader at Juja' };
    const headers = key();
    const overTrpc = await trpcCall('admin.costs.create', ops, body, headers);
    expect(overTrpc.statusCode).toBe(200);
    const created = overTrpc.json().result.data;
    expect((await trpcCall('admin.costs.create', ops, body, headers)).json().result.data).toEqual(created);
    const overRest = await t.call('POST', '/api/admin/costs', ops, body, headers);
    expect(overRest.statusCode).toBe(201);
    expect(overRest.json()).toEqual(created);
    expect(await rowsOf(costs, truck.id)).toBe(1);
    const changed = await trpcCall('admin.costs.create', ops, { ...body, amount: 501 }, headers);
    expect(changed.statusCode).toBe(422);
  });

  it('replays a stock receipt, a driver profile save and a load move without doing them twice', async () => {
    const admin = await t.signIn('ADMIN');
    const truck = await makeTruck(t.database.db);
    const receipt = { truckId: truck.id, trucks: 2, category: 'coarse', costPerTonne: 900 };
    const headers = key();
    const first = await t.call('POST', '/api/admin/stock/receipt', admin, receipt, headers);
    expect(first.statusCode).toBe(201);
    const again = await t.call('POST', '/api/admin/stock/receipt', admin, receipt, headers);
    expect(again.json()).toEqual(first.json());
    const receipts = await t.database.db
      .select({ n: count() })
      .from(stockTransactions)
      .where(eq(stockTransactions.truckId, truck.id));
    expect(receipts[0]!.n).toBe(1);

    const driver = await makeDriver(t.database.db);
    const self = await t.signIn('DRIVER', { driverId: driver.id });
    const profile = { name: 'Peter Kamau', email: 'peter@example.co.ke', phone: '0712345678' };
    const profileKey = key();
    const saved = await t.call('PUT', '/api/driver/profile', self, profile, profileKey);
    expect(saved.statusCode).toBe(200);
    expect((await t.call('PUT', '/api/driver/profile', self, profile, profileKey)).json()).toEqual(
      saved.json(),
    );

    const order = await makeOrder(t.database.db, { status: 'RECEIVED' });
    const load = await makeAssignment(t.database.db, {
      orderId: order.id,
      truckId: truck.id,
      driverId: driver.id,
    });
    const moveKey = key();
    const moves = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.call('PATCH', `/api/admin/assignments/${load.id}`, self, { status: 'IN_TRANSIT' }, moveKey),
      ),
    );
    expect(moves.map((m) => m.statusCode)).toEqual(Array(5).fill(200));
    expect(moves.map((m) => m.json().status)).toEqual(Array(5).fill('IN_TRANSIT'));
    const events = await t.database.db
      .select({ n: count() })
      .from(loadEvents)
      .where(and(eq(loadEvents.assignmentId, load.id), eq(loadEvents.toStatus, 'IN_TRANSIT')));
    expect(events[0]!.n).toBe(1);
  });

  it("makes one load of an assignment the phone's outbox sends again with its key", async () => {
    const admin = await t.signIn('ADMIN');
    const driver = await makeDriver(t.database.db);
    const truck = await makeTruck(t.database.db, { primaryDriverId: driver.id });
    const order = await makeOrder(t.database.db, {
      status: 'RECEIVED',
      paymentStatus: 'CONFIRMED',
      trucks: 2,
    });
    const body = { truckId: truck.id, driverId: driver.id, tonnes: 20 };
    const assignKey = key();
    const url = `/api/admin/orders/${order.id}/assignments`;
    const first = await t.call('POST', url, admin, body, assignKey);
    expect(first.statusCode).toBe(201);
    const again = await t.call('POST', url, admin, body, assignKey);
    expect(again.statusCode).toBe(201);
    expect(again.json().id).toBe(first.json().id);
    const loads = await t.database.db
      .select({ n: count() })
      .from(assignments)
      .where(eq(assignments.orderId, order.id));
    expect(loads[0]!.n).toBe(1);
  });

  it('refuses a malformed key with 400', async () => {
    const ops = await t.signIn('OPS');
    const truck = await makeTruck(t.database.db);
    const body = { truckId: truck.id, type: 'OTHER', amount: 10, description: 'Water' };
    const res = await t.call('POST', '/api/admin/costs', ops, body, { 'idempotency-key': 'x'.repeat(201) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Idempotency-Key must be 1 to 200 visible characters.' });
  });

  it('documents the header and the 422 on exactly the field writes', () => {
    const doc = buildOpenApiDocument('test') as { paths: Record<string, Record<string, OpenApiOperation>> };
    const withKey = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.parameters?.some((p) => p.name === 'Idempotency-Key'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(withKey.sort()).toEqual([
      'PATCH /api/admin/assignments/{id}',
      'POST /api/admin/costs',
      'POST /api/admin/orders/{id}/assignments',
      'POST /api/admin/stock/receipt',
      'POST /api/fuel/logs',
      'POST /api/orders',
      'PUT /api/driver/profile',
    ]);
    expect(doc.paths['/api/fuel/logs']?.post?.responses[422]).toBeDefined();
  });
});
