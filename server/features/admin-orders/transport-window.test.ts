import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../../drizzle/schema';
import { makeDriver, makeOrder, makeTruck } from '../../../test/factories';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';

let now = new Date('2026-11-26T09:00:00Z'); // 12:00 Nairobi
let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ now: () => now });
  admin = await t.signIn('ADMIN');
});
afterAll(() => t.close());

const windowAlerts = async (assignmentId: number) =>
  (
    await t.database.db
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        sql`${outbox.payload}->>'kind' = 'load.outside_window' and (${outbox.payload}->>'assignmentId')::int = ${assignmentId}`,
      )
  ).length;

async function schedule(scheduledAt: string, overnightPour = false) {
  const order = await makeOrder(t.database.db, {
    status: 'RECEIVED',
    paymentStatus: 'CONFIRMED',
    overnightPour,
  });
  const res = await t.call('POST', `/api/admin/orders/${order.id}/assignments`, admin, {
    truckId: (await makeTruck(t.database.db)).id,
    driverId: (await makeDriver(t.database.db)).id,
    scheduledAt,
  });
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('transport window (06:00-18:00 Nairobi)', () => {
  it.each([
    ['05:59 Nairobi', '2026-11-27T02:59:00Z', true],
    ['06:00 Nairobi', '2026-11-27T03:00:00Z', false],
    ['17:59 Nairobi', '2026-11-27T14:59:00Z', false],
    ['18:00 Nairobi', '2026-11-27T15:00:00Z', true],
  ])('a load scheduled at %s is taken and flagged: %s', async (_l, at, flagged) => {
    const load = await schedule(at);
    expect(load.outsideWindow).toBe(flagged);
    expect(await windowAlerts(load.id)).toBe(flagged ? 1 : 0);
    // The Orders tab's listing flags the load the same way.
    const listed = (await t.call('GET', '/api/admin/orders', admin)).json();
    const listedLoad = listed
      .flatMap((o: { assignments: { id: number; outsideWindow?: boolean }[] }) => o.assignments)
      .find((a: { id: number }) => a.id === load.id);
    expect(listedLoad.outsideWindow).toBe(flagged);
  });

  it('an order may ask for an overnight pour; its night load is still taken and flagged to operations', async () => {
    const ops = await t.signIn('CUSTOMER');
    const placed = await t.call('POST', '/api/orders', ops, {
      site: 'Ruiru',
      sandType: 'coarse',
      trucks: 1,
      overnightPour: true,
    });
    expect(placed.statusCode).toBe(201);
    const listed = (await t.call('GET', '/api/admin/orders', admin)).json();
    expect(listed.find((o: { id: number }) => o.id === placed.json().id).overnight_pour).toBe(true);
    const load = await schedule('2026-11-27T19:00:00Z', true);
    expect(load.outsideWindow).toBe(true);
    expect(await windowAlerts(load.id)).toBe(1);
  });

  it('a load moved on the road at night is flagged; by day it is not', async () => {
    const day = await schedule('2026-11-27T05:00:00Z');
    expect(
      (await t.call('PATCH', `/api/admin/assignments/${day.id}`, admin, { status: 'IN_TRANSIT' })).statusCode,
    ).toBe(200);
    expect(await windowAlerts(day.id)).toBe(0);
    const night = await schedule('2026-11-27T05:00:00Z');
    now = new Date('2026-11-26T17:30:00Z'); // 20:30 Nairobi
    expect(
      (await t.call('PATCH', `/api/admin/assignments/${night.id}`, admin, { status: 'IN_TRANSIT' }))
        .statusCode,
    ).toBe(200);
    expect(await windowAlerts(night.id)).toBe(1);
    now = new Date('2026-11-26T09:00:00Z');
  });
});
