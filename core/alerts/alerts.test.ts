import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlert } from '../../drizzle/outbox';
import { alertDeliveries } from '../../drizzle/schema';
import { formatMoney } from '../../shared/domain/format';
import type { TListedOrder } from '../../shared/schemas/orders';
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

describe('money in alerts', () => {
  it('shows an order of 3 trucks at KES 31,000.50 as the screen does: KES 93,001.50, cents kept', async () => {
    const admin = await t.signIn('ADMIN');
    const made = await t.call('POST', '/api/admin/orders', admin, {
      name: 'Kamau Builders',
      phone: '0722000111',
      site: 'Ruiru, Kamakis',
      sandType: 'coarse',
      trucks: 3,
      distanceKm: 12,
      perTruckOverride: 31000.5,
    });
    expect(made.statusCode).toBe(201);
    const { id } = made.json() as { id: number };
    await t.jobs.drain();

    const listed = (await t.call('GET', '/api/admin/orders', admin)).json() as TListedOrder[];
    const onScreen = formatMoney(listed.find((o) => o.id === id)!.total);
    expect(onScreen).toBe('KES 93,001.50');

    const [delivery] = await t.database.db
      .select({ text: alertDeliveries.text })
      .from(alertDeliveries)
      .where(eq(alertDeliveries.eventKey, `order.created:${id}`));
    expect(delivery?.text).toContain(`, ${onScreen} (Kamau Builders`);
  });
});
