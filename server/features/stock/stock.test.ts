import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costs } from '../../../drizzle/schema';
import { makeStock, makeTruck } from '../../../test/factories';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

// Yard stock is a sum over every movement: the test that asserts its figures gets a database of its own.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('yard stock', () => {
  it('records a receipt with its STOCK_PURCHASE cost and answers the stock in tonnes and truckloads', async () => {
    const fresh = await createTestApp();
    try {
      const ops = await fresh.signIn('OPS');
      const truck = await makeTruck(fresh.database.db);
      expect((await fresh.call('GET', '/api/admin/stock', ops)).json()).toEqual({
        yard_name: 'Juja Yard',
        tonnes: 0,
        trucks_coarse: 0,
        trucks_smooth: 0,
        trucks_total: 0,
        unit_tonnes: 20,
      });
      const receipt = await fresh.call('POST', '/api/admin/stock/receipt', ops, {
        truckId: truck.id,
        trucks: 2.5,
        category: 'coarse',
        costPerTonne: 400,
      });
      expect(receipt.statusCode).toBe(201);
      expect(receipt.json()).toMatchObject({
        kind: 'RECEIPT',
        trucks: 2.5,
        tonnes: 50,
        category: 'coarse',
        truck_id: truck.id,
        reason: 'Yard receipt',
      });
      const [purchase] = await fresh.database.db
        .select()
        .from(costs)
        .where(eq(costs.stockTxId, receipt.json().id));
      expect(purchase).toMatchObject({
        type: 'STOCK_PURCHASE',
        amountCents: 50 * 400 * 100,
        truckId: truck.id,
        source: 'STOCK',
      });
      expect((await fresh.call('GET', '/api/admin/stock', ops)).json()).toEqual({
        yard_name: 'Juja Yard',
        tonnes: 50,
        trucks_coarse: 2.5,
        trucks_smooth: 0,
        trucks_total: 2.5,
        unit_tonnes: 20,
      });
      await makeStock(fresh.database.db, { tonnes: 15, category: 'smooth' });
      await makeStock(fresh.database.db, { kind: 'DELIVERY', tonnes: -20, trucks: -1, category: 'coarse' });
      expect((await fresh.call('GET', '/api/admin/stock', ops)).json()).toEqual({
        yard_name: 'Juja Yard',
        tonnes: 45,
        trucks_coarse: 1.5,
        trucks_smooth: 0.75,
        trucks_total: 2.25,
        unit_tonnes: 20,
      });
    } finally {
      await fresh.close();
    }
  });

  it('lists movements newest first', async () => {
    const ops = await t.signIn('OPS');
    const older = await makeStock(t.database.db, { tonnes: 20, createdAt: new Date('2026-11-01T08:00:00Z') });
    const newer = await makeStock(t.database.db, { tonnes: 40, createdAt: new Date('2026-11-02T08:00:00Z') });
    const ids = (await t.call('GET', '/api/admin/stock/tx', ops)).json().map((r: { id: number }) => r.id);
    expect(ids.length).toBeGreaterThan(1);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
  });

  it('edits stock notes (ADMIN only) with the spec message; OPS cannot edit', async () => {
    const admin = await t.signIn('ADMIN');
    const ops = await t.signIn('OPS');
    const tx = await makeStock(t.database.db, { tonnes: 20 });
    const url = `/api/admin/stock/tx/${tx.id}`;
    const blank = await t.call('PATCH', url, admin, { reason: '  ' });
    expect(blank.json()).toEqual({ error: 'Add a short note for this transaction.' });
    expect((await t.call('PATCH', url, admin, { reason: 'Lorry from Mwea' })).json().reason).toBe(
      'Lorry from Mwea',
    );
    expect((await t.call('PATCH', url, ops, { reason: 'x' })).statusCode).toBe(403);
    const unknown = await t.call('PATCH', '/api/admin/stock/tx/99999', admin, { reason: 'Lorry' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Stock transaction not found.' });
  });

  it('validates receipts with the spec messages', async () => {
    const admin = await t.signIn('ADMIN');
    const truck = await makeTruck(t.database.db);
    for (const [payload, message] of [
      [{ truckId: '', trucks: 1, costPerTonne: 10 }, 'Select the truck receiving stock.'],
      [{ truckId: 'NOPE', trucks: 1, costPerTonne: 10 }, 'Select the truck receiving stock.'],
      [
        { truckId: truck.id, trucks: 0, costPerTonne: 10 },
        'Enter trucks received (must be greater than zero).',
      ],
      [{ truckId: truck.id, trucks: 1, costPerTonne: 0 }, 'Provide cost per tonne (KES).'],
    ] as const) {
      const res = await t.call('POST', '/api/admin/stock/receipt', admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
    expect((await t.call('GET', '/api/admin/stock', await t.signIn('FUEL'))).statusCode).toBe(403);
  });
});

describeRoleMatrix('stock', () => t, [
  ['GET', '/api/admin/stock', ['ADMIN', 'OPS']],
  ['GET', '/api/admin/stock/tx', ['ADMIN', 'OPS']],
  ['POST', '/api/admin/stock/receipt', ['ADMIN', 'OPS']],
  ['PATCH', '/api/admin/stock/tx/1', ['ADMIN']],
]);
