import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../drizzle/outbox';
import { alertDeliveries } from '../../drizzle/schema';
import { createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('alert.fanout', () => {
  it('records one delivery per ADMIN and OPS recipient, once, however often the event is emitted', async () => {
    const admin = await t.signIn('ADMIN');
    const ops = await t.signIn('OPS');
    await t.signIn('CUSTOMER');
    await t.signIn('FUEL');
    await raiseAlert(t.database.db, { kind: 'order.created', orderId: 41 });
    await raiseAlert(t.database.db, { kind: 'order.created', orderId: 41 });
    await t.jobs.drain();
    const rows = await t.database.db.select().from(alertDeliveries);
    expect(rows.map((r) => r.recipientId).sort()).toEqual([admin.user.id, ops.user.id].sort());
    expect(rows.every((r) => r.eventKey === 'order.created:41' && r.status === 'RECORDED')).toBe(true);
  });
});
