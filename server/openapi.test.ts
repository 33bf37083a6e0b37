import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDriver, makeOrder, makeTruck } from '../test/factories';
import { createTestApp, type TestApp } from '../test/helpers';

// Issue 27, item 17: the document holds what the server really answers, checked by a validator (ajv)
// against real answers: a nullable enum takes null, every body may be refused as too large, and the
// assignment's 409 documents its `unpaid` flag.
let t: TestApp;
type Json = Record<string, any>;
let doc: Json;
let ajv: Ajv;

beforeAll(async () => {
  t = await createTestApp();
  doc = (await t.app.inject({ url: '/api/openapi.json' })).json();
  // OpenAPI 3.0 schemas: `nullable`, `example` and friends are not JSON Schema keywords ajv must know.
  ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema({ ...doc, $id: 'openapi' });
});
afterAll(() => t.close());

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** Validates a real answer against the schema the document gives that operation and status. */
function check(path: string, method: string, status: number, body: unknown) {
  const validate = ajv.getSchema(
    `openapi#/${pointer('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema')}`,
  );
  expect(validate, `${method.toUpperCase()} ${path} documents ${status}`).toBeTruthy();
  const ok = validate!(body);
  expect(ok, JSON.stringify(validate!.errors?.slice(0, 3))).toBe(true);
}

describe('the OpenAPI document against real answers', () => {
  it('documents orders with and without a site point (siteSource null is in its enum)', async () => {
    const db = t.database.db;
    await makeOrder(db, { site: 'Behind the big mugumo tree' });
    await makeOrder(db, {
      site: 'Ruiru',
      siteLat: -1.1466,
      siteLng: 36.9609,
      siteRadiusM: 1500,
      siteSource: 'gazetteer',
    });
    const res = await t.call('GET', '/api/admin/orders', await t.signIn('ADMIN'));
    expect(res.statusCode).toBe(200);
    const orders = res.json();
    expect(orders.map((o: { siteSource: string | null }) => o.siteSource)).toEqual(
      expect.arrayContaining([null, 'gazetteer']),
    );
    check('/api/admin/orders', 'get', 200, orders);
  });

  it("documents the assignment's 409 with its unpaid flag", async () => {
    const db = t.database.db;
    const order = await makeOrder(db);
    const driver = await makeDriver(db);
    const truck = await makeTruck(db, { primaryDriverId: driver.id });
    const res = await t.call('POST', `/api/admin/orders/${order.id}/assignments`, await t.signIn('ADMIN'), {
      truckId: truck.id,
      driverId: driver.id,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ unpaid: true });
    check('/api/admin/orders/{id}/assignments', 'post', 409, res.json());
    const documented = doc.components.schemas.UnpaidConflict;
    expect(documented.properties.unpaid).toMatchObject({ type: 'boolean' });
  });

  it('documents 413 on every operation that takes a body, and the answer matches', async () => {
    const withBody = Object.entries(doc.paths as Json).flatMap(([path, ops]) =>
      Object.entries(ops as Json)
        .filter(([, op]) => (op as Json).requestBody)
        .map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op: op as Json })),
    );
    expect(withBody.length).toBeGreaterThanOrEqual(37);
    expect(withBody.filter(({ op }) => !op.responses['413']).map(({ at }) => at)).toEqual([]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    check('/api/auth/login', 'post', 413, res.json());
  });
});
