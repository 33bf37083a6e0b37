import { eq } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drivers, users } from '../../../drizzle/schema';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { signToken } from '../../auth/tokens';
import { ensureAdmin } from './auth.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    limits: { loginPerAccount: { points: 3, duration: 60 }, registerPerIp: { points: 50, duration: 60 } },
  });
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('POST /api/auth/register', () => {
  it('creates a CUSTOMER whatever role is sent, and answers a working token', async () => {
    const res = await post('/api/auth/register', {
      name: 'Wanjiru Kamau',
      email: 'Wanjiru@Example.co.ke',
      phone: '0722 000 111',
      password: '  longenough  ',
      role: 'ADMIN',
    });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.user).toMatchObject({
      role: 'CUSTOMER',
      name: 'Wanjiru Kamau',
      email: 'wanjiru@example.co.ke',
    });
    const me = await t.app.inject({
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().role).toBe('CUSTOMER');
    // The password was trimmed before hashing: the trimmed form signs in.
    expect(
      (await post('/api/auth/login', { email: 'wanjiru@example.co.ke', password: 'longenough' })).statusCode,
    ).toBe(200);
  });

  it('refuses an email already registered with 409, in any letter case', async () => {
    await post('/api/auth/register', { name: 'A', email: 'dup@example.co.ke', password: 'password123' });
    const res = await post('/api/auth/register', {
      name: 'B',
      email: 'DUP@example.co.ke',
      password: 'password123',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      error: 'An account with this email already exists. Please sign in instead.',
    });
  });

  it.each([
    [{ email: 'x@example.co.ke', password: 'password123' }, 'Name is required.'],
    [{ name: 'X', email: 'not-an-email', password: 'password123' }, 'Enter a valid email address.'],
    [
      { name: 'X', email: 'y@example.co.ke', password: ' short  ' },
      'Password must be at least 8 characters long.',
    ],
    [{ name: 'X', password: 'password123' }, 'Email is required.'],
  ])('answers 400 with a readable message for %j', async (payload, message) => {
    const res = await post('/api/auth/register', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });
});

describe('POST /api/auth/login', () => {
  beforeAll(async () => {
    await post('/api/auth/register', {
      name: 'Otieno',
      email: 'otieno@example.co.ke',
      password: 'correct-horse',
    });
  });

  it('answers token and user with id, role, name, email', async () => {
    const res = await post('/api/auth/login', { email: 'OTIENO@example.co.ke', password: 'correct-horse' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      token: expect.any(String),
      user: { role: 'CUSTOMER', name: 'Otieno' },
    });
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const unknown = await post('/api/auth/login', { email: 'nobody@example.co.ke', password: 'whatever1' });
    const wrong = await post('/api/auth/login', { email: 'otieno@example.co.ke', password: 'wrong-pass' });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ error: 'Invalid email or password.' });
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('limits failed attempts per account with 429 and Retry-After', async () => {
    await post('/api/auth/register', {
      name: 'Target',
      email: 'target@example.co.ke',
      password: 'right-pass',
    });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push(
        (await post('/api/auth/login', { email: 'target@example.co.ke', password: 'bad-pass' })).statusCode,
      );
    expect(codes).toEqual([401, 401, 401, 429]);
    const blocked = await post('/api/auth/login', { email: 'target@example.co.ke', password: 'right-pass' });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(blocked.json().error).toMatch(/^Too many attempts/);
  });

  it('limits attempts per IP', async () => {
    const limited = await createTestApp({ limits: { loginPerIp: { points: 2, duration: 60 } } });
    try {
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'a@b.co', password: 'x' },
        });
      expect([
        (await attempt()).statusCode,
        (await attempt()).statusCode,
        (await attempt()).statusCode,
      ]).toEqual([401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  it('answers 400 for malformed JSON and for a body of the wrong shape', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '{"email":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'The request body is not valid JSON.' });
    const wrongShape = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '[1,2]',
      headers: { 'content-type': 'application/json' },
    });
    expect(wrongShape.statusCode).toBe(400);
    expect(wrongShape.json().error).toEqual(expect.any(String));
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await post('/api/auth/login', { email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'The request is too large.' });
  });
});

describe('tokens', () => {
  const me = (token: string) =>
    t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

  it('refuses tampered, expired, unsigned, wrong-audience and wrong-secret tokens with 401', async () => {
    const { token, user } = await t.signIn('OPS');
    const secret = t.deps.config.jwtSecret;
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, role: 'ADMIN' })).toString('base64url')}.${s}`;
    const expired = await new SignJWT({ role: 'OPS', ver: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuer('mchanga')
      .setAudience('mchanga-app')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(secret);
    const unsigned = new UnsecuredJWT({ role: 'ADMIN', ver: 0 })
      .setSubject(String(user.id))
      .setIssuer('mchanga')
      .setAudience('mchanga-app')
      .setIssuedAt()
      .setExpirationTime('1h')
      .encode();
    const wrongAudience = await new SignJWT({ role: 'OPS', ver: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuer('mchanga')
      .setAudience('someone-else')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(secret);
    const noExp = await new SignJWT({ role: 'OPS', ver: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuer('mchanga')
      .setAudience('mchanga-app')
      .setIssuedAt()
      .sign(secret);
    const otherSecret = await signToken(
      { userId: user.id, role: 'OPS', version: 0 },
      new TextEncoder().encode('another-secret-another-secret-another-secret'),
      '1h',
    );
    expect((await me(token)).statusCode).toBe(200);
    for (const bad of [tampered, expired, unsigned, wrongAudience, noExp, otherSecret, 'garbage']) {
      const res = await me(bad);
      expect(res.statusCode, bad).toBe(401);
      expect(res.json().error).toEqual(expect.any(String));
    }
    expect(
      (await t.app.inject({ url: '/api/auth/me', headers: { authorization: 'Basic abc' } })).statusCode,
    ).toBe(401);
  });

  it('logout-everywhere revokes every earlier token', async () => {
    const { token, headers } = await t.signIn('CUSTOMER');
    expect((await me(token)).statusCode).toBe(200);
    expect((await post('/api/auth/logout-all', {}, headers)).statusCode).toBe(200);
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'Your session has expired. Please sign in again.' });
  });

  it('a password change revokes old tokens and returns a new one', async () => {
    const reg = (
      await post('/api/auth/register', {
        name: 'Changer',
        email: 'changer@example.co.ke',
        password: 'first-pass',
      })
    ).json();
    const auth = { authorization: `Bearer ${reg.token}` };
    const wrong = await post(
      '/api/auth/password',
      { currentPassword: 'nope', newPassword: 'second-pass' },
      auth,
    );
    expect(wrong.statusCode).toBe(400);
    const ok = await post(
      '/api/auth/password',
      { currentPassword: 'first-pass', newPassword: 'second-pass' },
      auth,
    );
    expect(ok.statusCode).toBe(200);
    expect((await me(reg.token)).statusCode).toBe(401);
    expect((await me(ok.json().token)).statusCode).toBe(200);
    expect(
      (await post('/api/auth/login', { email: 'changer@example.co.ke', password: 'second-pass' })).statusCode,
    ).toBe(200);
  });
});

describe('admin users', () => {
  it('lets an ADMIN create OPS, DRIVER and FUEL accounts; refuses others with 401/403', async () => {
    const admin = await t.signIn('ADMIN');
    const customer = await t.signIn('CUSTOMER');
    const ops = await post(
      '/api/admin/users',
      { name: 'Ops One', email: 'ops1@example.co.ke', password: 'password123', role: 'OPS' },
      admin.headers,
    );
    expect(ops.statusCode).toBe(201);
    expect(ops.json()).toMatchObject({ role: 'OPS', disabled: false });

    const driver = await post(
      '/api/admin/users',
      {
        name: 'Kip Driver',
        email: 'kip@example.co.ke',
        password: 'password123',
        role: 'DRIVER',
        driverId: 'DRV-KIP',
      },
      admin.headers,
    );
    expect(driver.statusCode).toBe(201);
    expect(driver.json()).toMatchObject({ role: 'DRIVER', driverId: 'DRV-KIP' });
    const [profile] = await t.database.db.select().from(drivers).where(eq(drivers.id, 'DRV-KIP'));
    expect(profile?.name).toBe('Kip Driver');
    const login = await post('/api/auth/login', { email: 'kip@example.co.ke', password: 'password123' });
    expect(login.json().user).toMatchObject({ role: 'DRIVER', driverId: 'DRV-KIP' });

    const secondForDriver = await post(
      '/api/admin/users',
      {
        name: 'Kip Again',
        email: 'kip2@example.co.ke',
        password: 'password123',
        role: 'DRIVER',
        driverId: 'DRV-KIP',
      },
      admin.headers,
    );
    expect(secondForDriver.statusCode).toBe(409);
    expect(
      (await t.database.db.select().from(users).where(eq(users.email, 'kip2@example.co.ke'))).length,
    ).toBe(0);

    const noDriverId = await post(
      '/api/admin/users',
      { name: 'No Id', email: 'noid@example.co.ke', password: 'password123', role: 'DRIVER' },
      admin.headers,
    );
    expect(noDriverId.statusCode).toBe(400);
    expect(noDriverId.json()).toEqual({ error: 'A DRIVER account must be linked to a driver ID.' });

    const makeAdmin = await post(
      '/api/admin/users',
      { name: 'Sneaky', email: 'sneaky@example.co.ke', password: 'password123', role: 'ADMIN' },
      admin.headers,
    );
    expect(makeAdmin.statusCode).toBe(400);

    const asCustomer = await post(
      '/api/admin/users',
      { name: 'X', email: 'x1@example.co.ke', password: 'password123', role: 'OPS' },
      customer.headers,
    );
    expect(asCustomer.statusCode).toBe(403);
    expect(asCustomer.json()).toEqual({ error: 'You do not have access to this.' });
    const anonymous = await post('/api/admin/users', {
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
    const off = await post(`/api/admin/users/${fuel.user.id}/disable`, {}, admin.headers);
    expect(off.statusCode).toBe(200);
    expect(off.json().disabled).toBe(true);
    expect((await t.app.inject({ url: '/api/auth/me', headers: fuel.headers })).statusCode).toBe(401);
    const login = await post('/api/auth/login', {
      email: 'fuel-disable@example.co.ke',
      password: 'password123',
    });
    expect(login.statusCode).toBe(403);
    expect((await post(`/api/admin/users/${fuel.user.id}/enable`, {}, admin.headers)).statusCode).toBe(200);
    expect(
      (await post('/api/auth/login', { email: 'fuel-disable@example.co.ke', password: 'password123' }))
        .statusCode,
    ).toBe(200);
    expect((await post('/api/admin/users/abc/disable', {}, admin.headers)).statusCode).toBe(400);
    expect((await post('/api/admin/users/987654/disable', {}, admin.headers)).statusCode).toBe(404);
  });

  it('lists staff accounts, not customers', async () => {
    const admin = await t.signIn('ADMIN');
    const res = await t.app.inject({ url: '/api/admin/users', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const roles = new Set(res.json().map((u: { role: string }) => u.role));
    expect(roles.has('CUSTOMER')).toBe(false);
    expect(roles.has('ADMIN')).toBe(true);
  });
});

describe('ensureAdmin', () => {
  it('creates the configured admin once and promotes an existing account', async () => {
    expect(await ensureAdmin(t.database.db, 'boss@example.co.ke', 'boss-password')).toEqual({
      created: true,
      promoted: false,
    });
    expect(await ensureAdmin(t.database.db, 'boss@example.co.ke', 'other-password')).toEqual({
      created: false,
      promoted: false,
    });
    const login = await post('/api/auth/login', { email: 'boss@example.co.ke', password: 'boss-password' });
    expect(login.json().user.role).toBe('ADMIN');
    await post('/api/auth/register', {
      name: 'Promote Me',
      email: 'promote@example.co.ke',
      password: 'password123',
    });
    expect(await ensureAdmin(t.database.db, 'promote@example.co.ke', 'ignored-pass')).toEqual({
      created: false,
      promoted: true,
    });
  });
});
