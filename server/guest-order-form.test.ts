import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../drizzle/schema';
import { createTestApp, type TestApp } from '../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The landing form as a browser without JavaScript posts it (application/x-www-form-urlencoded). */
function post(fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url: '/order/guest',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

const FILLED = {
  site: 'Membley estate, Ruiru',
  sandType: 'coarse',
  trucks: '2',
  distance: '',
  name: 'Wairimu <Hardware>',
  phone: '0711 000 777',
  email: '',
  dateNeeded: '2026-12-15',
};

describe('POST /order/guest (the landing form without JavaScript)', () => {
  it('places the order and answers a page with its number, total, account number, tracking link and code', async () => {
    const res = await post({ ...FILLED, overnightPour: 'on' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const id = Number(/Order #(\d+) received/.exec(res.body)?.[1]);
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, id));
    expect(row).toMatchObject({
      site: 'Membley estate, Ruiru',
      trucks: 2,
      overnightPour: true,
      customerId: null,
    });
    expect(res.body).toContain('KES 64,000');
    expect(res.body).toContain(`MCH${id}`);
    expect(res.body).toContain(`href="/track/${row!.trackingToken}"`);
    expect(res.body).toContain(row!.deliveryCode);
    // What the customer typed is escaped, never markup.
    expect(row!.name).toBe('Wairimu <Hardware>');
    expect(res.body).not.toContain('<Hardware>');
  });

  it('shows the form check (400) and places nothing when a field is wrong', async () => {
    const before = (await t.database.db.select().from(orders)).length;
    const res = await post({ ...FILLED, site: '' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Site is required.');
    expect(res.body).toContain('href="/"');
    const login = await post({
      ...FILLED,
      wantsLogin: 'on',
      password: 'long-enough-1',
      confirm: 'long-enough-1',
    });
    expect(login.statusCode).toBe(400);
    expect(login.body).toContain('Email is required to create your portal login.');
    expect((await t.database.db.select().from(orders)).length).toBe(before);
  });

  it('makes the portal login when asked, as the app does', async () => {
    const email = `nojs-${Date.now()}@example.co.ke`;
    const res = await post({
      ...FILLED,
      email,
      wantsLogin: 'on',
      password: 'jenga-pass-1',
      confirm: 'jenga-pass-1',
    });
    expect(res.statusCode).toBe(201);
    const login = await t.call('POST', '/api/auth/login', null, { email, password: 'jenga-pass-1' });
    expect(login.statusCode).toBe(200);
  });
});
