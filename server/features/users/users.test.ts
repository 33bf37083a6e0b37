import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drivers, users } from '../../../drizzle/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { describeRoleMatrix } from '../../../test/role-matrix';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('admin users', () => {
  it('lets an ADMIN create OPS, DRIVER and FUEL accounts; refuses others with 401/403', async () => {
    const admin = await t.signIn('ADMIN');
    const customer = await t.signIn('CUSTOMER');
    const ops = await t.call('POST', '/api/admin/users', admin, {
      name: 'Ops One',
      email: 'ops1@example.co.ke',
      password: 'password123',
      role: 'OPS',
    });
    expect(ops.statusCode).toBe(201);
    expect(ops.json()).toMatchObject({ role: 'OPS', disabled: false });

    const driver = await t.call('POST', '/api/admin/users', admin, {
      name: 'Kip Driver',
      email: 'kip@example.co.ke',
      password: 'password123',
      role: 'DRIVER',
      driverId: 'DRV-KIP',
    });
    expect(driver.statusCode).toBe(201);
    expect(driver.json()).toMatchObject({ role: 'DRIVER', driverId: 'DRV-KIP' });
    const [profile] = await t.database.db.select().from(drivers).where(eq(drivers.id, 'DRV-KIP'));
    expect(profile?.name).toBe('Kip Driver');
    const login = await t.call('POST', '/api/auth/login', null, {
      email: 'kip@example.co.ke',
      password: 'password123',
    });
    expect(login.json().user).toMatchObject({ role: 'DRIVER', driverId: 'DRV-KIP' });

    const secondForDriver = await t.call('POST', '/api/admin/users', admin, {
      name: 'Kip Again',
      email: 'kip2@example.co.ke',
      password: 'password123',
      role: 'DRIVER',
      driverId: 'DRV-KIP',
    });
    expect(secondForDriver.statusCode).toBe(409);
    expect(
      (await t.database.db.select().from(users).where(eq(users.email, 'kip2@example.co.ke'))).length,
    ).toBe(0);

    const noDriverId = await t.call('POST', '/api/admin/users', admin, {
      name: 'No Id',
      email: 'noid@example.co.ke',
      password: 'password123',
      role: 'DRIVER',
    });
    expect(noDriverId.statusCode).toBe(400);
    expect(noDriverId.json()).toEqual({ error: 'A DRIVER account must be linked to a driver ID.' });

    const makeAdmin = await t.call('POST', '/api/admin/users', admin, {
      name: 'Sneaky',
      email: 'sneaky@example.co.ke',
      password: 'password123',
      role: 'ADMIN',
    });
    expect(makeAdmin.statusCode).toBe(400);

    const asCustomer = await t.call('POST', '/api/admin/users', customer, {
      name: 'X',
      email: 'x1@example.co.ke',
      password: 'password123',
      role: 'OPS',
    });
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json()).toEqual({ error: 'You do not have access to this.' });
    const anonymous = await t.call('POST', '/api/admin/users', null, {
      name: 'X',
      email: 'x2@example.co.ke',
      password: 'password123',
      role: 'OPS',
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('disabling a user revokes their tokens and blocks sign-in; enabling restores sign-in', async () => {
    const admin = await t.signIn('ADMIN');
    const fuel = await t.signIn('FUEL', { email: 'fuel-disable@example.co.ke' });
    const off = await t.call('POST', `/api/admin/users/${fuel.user.id}/disable`, admin, {});
    expect(off.statusCode).toBe(200);
    expect(off.json().disabled).toBe(true);
    expect((await t.app.inject({ url: '/api/auth/me', headers: fuel.headers })).statusCode).toBe(401);
    const login = await t.call('POST', '/api/auth/login', null, {
      email: 'fuel-disable@example.co.ke',
      password: 'password123',
    });
    // The same answer as a wrong password: sign-in confirms neither the password nor the account.
    expect(login.statusCode).toBe(401);
    expect(login.json()).toEqual({ error: 'Invalid email or password.' });
    expect((await t.call('POST', `/api/admin/users/${fuel.user.id}/enable`, admin, {})).statusCode).toBe(200);
    expect(
      (
        await t.call('POST', '/api/auth/login', null, {
          email: 'fuel-disable@example.co.ke',
          password: 'password123',
        })
      ).statusCode,
    ).toBe(200);
    expect((await t.call('POST', '/api/admin/users/abc/disable', admin, {})).statusCode).toBe(400);
    expect((await t.call('POST', '/api/admin/users/987654/disable', admin, {})).statusCode).toBe(404);
  });

  it('lists staff accounts, not customers', async () => {
    // Its own accounts: the list is checked against people this test made, whatever ran before it.
    const admin = await t.signIn('ADMIN');
    const customer = await t.signIn('CUSTOMER');
    const staff = [admin, await t.signIn('OPS'), await t.signIn('DRIVER'), await t.signIn('FUEL')];
    const res = await t.app.inject({ url: '/api/admin/users', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const listed = res.json() as { email: string; role: string }[];
    const roleOf = new Map(listed.map((u) => [u.email, u.role]));
    for (const s of staff) expect(roleOf.get(s.user.email), s.user.role).toBe(s.user.role);
    expect(roleOf.has(customer.user.email)).toBe(false);
    expect(listed.filter((u) => u.role === 'CUSTOMER')).toEqual([]);
    expect(res.body).not.toMatch(/password|\$argon2/i);
  });
});

describeRoleMatrix('users', () => t, [
  ['GET', '/api/admin/users', ['ADMIN']],
  ['POST', '/api/admin/users', ['ADMIN']],
  ['POST', '/api/admin/users/1/disable', ['ADMIN']],
  ['POST', '/api/admin/users/1/enable', ['ADMIN']],
]);
