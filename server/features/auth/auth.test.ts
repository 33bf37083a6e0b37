import { eq } from 'drizzle-orm';
import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin } from '../../../core/auth/auth.service';
import { signToken } from '../../../core/auth/tokens';
import { users } from '../../../drizzle/schema';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    limits: {
      loginPerAccountIp: { points: 3, duration: 60 },
      loginPerAccount: { points: 5, duration: 60 },
      passwordPerUser: { points: 3, duration: 60 },
      registerPerIp: { points: 50, duration: 60 },
    },
  });
});
afterAll(() => t.close());

/** A sign-in from a given address (the limits are per address). */
const loginFrom = (app: TestApp, ip: string, email: string, password: string) =>
  app.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email, password } });

async function registered(email: string, password: string) {
  const res = await t.call('POST', '/api/auth/register', null, { name: 'Owner', email, password });
  expect(res.statusCode).toBe(201);
  return res.json() as { token: string; user: { id: number } };
}

describe('POST /api/auth/register', () => {
  it('creates a CUSTOMER whatever role is sent, and answers a working token', async () => {
    const res = await t.call('POST', '/api/auth/register', null, {
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
      (
        await t.call('POST', '/api/auth/login', null, {
          email: 'wanjiru@example.co.ke',
          password: 'longenough',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('refuses an email already registered with 409, in any letter case', async () => {
    await t.call('POST', '/api/auth/register', null, {
      name: 'A',
      email: 'dup@example.co.ke',
      password: 'password123',
    });
    const res = await t.call('POST', '/api/auth/register', null, {
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
    const res = await t.call('POST', '/api/auth/register', null, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
  });
});

describe('POST /api/auth/login', () => {
  beforeAll(async () => {
    await t.call('POST', '/api/auth/register', null, {
      name: 'Otieno',
      email: 'otieno@example.co.ke',
      password: 'correct-horse',
    });
  });

  it('answers token and user with id, role, name, email', async () => {
    const res = await t.call('POST', '/api/auth/login', null, {
      email: 'OTIENO@example.co.ke',
      password: 'correct-horse',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      token: expect.any(String),
      user: { role: 'CUSTOMER', name: 'Otieno' },
    });
  });

  it('answers the same 401 for an unknown email and a wrong password', async () => {
    const unknown = await t.call('POST', '/api/auth/login', null, {
      email: 'nobody@example.co.ke',
      password: 'whatever1',
    });
    const wrong = await t.call('POST', '/api/auth/login', null, {
      email: 'otieno@example.co.ke',
      password: 'wrong-pass',
    });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ error: 'Invalid email or password.' });
    expect(wrong.json()).toEqual(unknown.json());
  });

  it('limits failed attempts per account and address with 429 and Retry-After; the owner elsewhere still signs in', async () => {
    await t.call('POST', '/api/auth/register', null, {
      name: 'Target',
      email: 'target@example.co.ke',
      password: 'right-pass',
    });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push(
        (
          await t.call('POST', '/api/auth/login', null, {
            email: 'target@example.co.ke',
            password: 'bad-pass',
          })
        ).statusCode,
      );
    expect(codes).toEqual([401, 401, 401, 429]);
    const blocked = await t.call('POST', '/api/auth/login', null, {
      email: 'target@example.co.ke',
      password: 'right-pass',
    });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toMatch(/^\d+$/);
    expect(blocked.json().error).toMatch(/^Too many attempts/);
    // The guesser's failures lock only their own address out of this account.
    expect((await loginFrom(t, '10.1.0.9', 'target@example.co.ke', 'right-pass')).statusCode).toBe(200);
  });

  it('has a higher per-account ceiling that counts failures from every address, and slows past it', async () => {
    await registered('ceiling@example.co.ke', 'right-pass');
    const codes: number[] = [];
    for (const ip of ['10.2.0.1', '10.2.0.1', '10.2.0.1', '10.2.0.2', '10.2.0.2'])
      codes.push((await loginFrom(t, ip, 'ceiling@example.co.ke', 'bad-pass')).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401]);
    // Past the ceiling an unknown address gets one attempt a minute: slowed, not locked out.
    const fromThird = await loginFrom(t, '10.2.0.3', 'ceiling@example.co.ke', 'bad-pass');
    expect(fromThird.statusCode).toBe(401);
    const again = await loginFrom(t, '10.2.0.4', 'ceiling@example.co.ke', 'right-pass');
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  it("a success clears its address's count for the account (the account's ceiling keeps the failures)", async () => {
    await registered('clears@example.co.ke', 'right-pass');
    // 2 + 2 failures from one address, allowed 3: the success between them cleared the first two.
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++)
        expect((await loginFrom(t, '10.3.0.1', 'clears@example.co.ke', 'bad-pass')).statusCode).toBe(401);
      expect((await loginFrom(t, '10.3.0.1', 'clears@example.co.ke', 'right-pass')).statusCode).toBe(200);
    }
  });

  it('answers a disabled account the same 401 for the right and a wrong password', async () => {
    const { user } = await registered('disabled@example.co.ke', 'right-pass');
    await t.database.db.update(users).set({ disabledAt: new Date() }).where(eq(users.id, user.id));
    const right = await loginFrom(t, '10.4.0.1', 'disabled@example.co.ke', 'right-pass');
    const wrong = await loginFrom(t, '10.4.0.2', 'disabled@example.co.ke', 'wrong-pass');
    const unknown = await loginFrom(t, '10.4.0.3', 'nobody-here@example.co.ke', 'right-pass');
    expect([right.statusCode, wrong.statusCode, unknown.statusCode]).toEqual([401, 401, 401]);
    expect(right.json()).toEqual({ error: 'Invalid email or password.' });
    expect(wrong.json()).toEqual(right.json());
    expect(unknown.json()).toEqual(right.json());
  });

  it('limits failed attempts per IP, and only failures: an office signs in as often as it needs', async () => {
    const limited = await createTestApp({ limits: { loginPerIp: { points: 2, duration: 60 } } });
    try {
      await limited.call('POST', '/api/auth/register', null, {
        name: 'Office',
        email: 'office@example.co.ke',
        password: 'right-pass',
      });
      const attempt = (password: string) =>
        loginFrom(limited, '10.5.0.1', 'office@example.co.ke', password).then((r) => r.statusCode);
      const successes = [];
      for (let i = 0; i < 8; i++) successes.push(await attempt('right-pass'));
      expect(successes).toEqual(Array(8).fill(200));
      expect([
        await attempt('x'),
        await attempt('x'),
        await attempt('x'),
        await attempt('right-pass'),
      ]).toEqual([401, 401, 429, 429]);
      // Another address is not affected.
      expect((await loginFrom(limited, '10.5.0.2', 'office@example.co.ke', 'right-pass')).statusCode).toBe(
        200,
      );
    } finally {
      await limited.close();
    }
  });

  it('lets no racing guess past a limit: 12 parallel wrong passwords, 2 allowed → 2 × 401 and 10 × 429', async () => {
    const limited = await createTestApp({ limits: { loginPerIp: { points: 2, duration: 60 } } });
    try {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () => loginFrom(limited, '10.6.0.1', 'racer@example.co.ke', 'wrong')),
      );
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes).toEqual([...Array(2).fill(401), ...Array(10).fill(429)]);
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
    const res = await t.call('POST', '/api/auth/login', null, {
      email: 'a@b.co',
      password: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'The request is too large.' });
  });
});

describe('tokens', () => {
  const me = (token: string) =>
    t.app.inject({ url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });

  it('refuses tampered, expired, unsigned, wrong-audience and wrong-secret tokens with 401', async () => {
    const { token, user } = await t.signIn('OPS');
    const secret = t.deps.settings.jwtSecret;
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
    const inFuture = await new SignJWT({ role: 'OPS', ver: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(user.id))
      .setIssuer('mchanga')
      .setAudience('mchanga-app')
      .setIssuedAt(Math.floor(Date.now() / 1000) + 3600)
      .setExpirationTime('2h')
      .sign(secret);
    const nonCanonical = await Promise.all(
      [`${user.id}e0`, `0${user.id}`, ` ${user.id}`, `${user.id}.0`, `+${user.id}`].map((sub) =>
        new SignJWT({ role: 'OPS', ver: 0 })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setSubject(sub)
          .setIssuer('mchanga')
          .setAudience('mchanga-app')
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(secret),
      ),
    );
    const otherSecret = await signToken(
      { userId: user.id, role: 'OPS', version: 0 },
      new TextEncoder().encode('another-secret-another-secret-another-secret'),
      '1h',
    );
    expect((await me(token)).statusCode).toBe(200);
    for (const bad of [
      tampered,
      expired,
      unsigned,
      wrongAudience,
      noExp,
      inFuture,
      ...nonCanonical,
      otherSecret,
      'garbage',
    ]) {
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
    expect((await t.call('POST', '/api/auth/logout-all', null, {}, headers)).statusCode).toBe(200);
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    // `revoked` tells the device to delete what it kept of this user (issue 22, item 13).
    expect(res.json()).toEqual({
      error: 'Your session has expired. Please sign in again.',
      reason: 'revoked',
    });
    const overTrpc = await t.app.inject({
      url: '/trpc/auth.me',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(overTrpc.statusCode).toBe(401);
    expect(overTrpc.json().error.data.details).toEqual({ reason: 'revoked' });
  });

  it('a password change revokes old tokens and returns a new one', async () => {
    const reg = (
      await t.call('POST', '/api/auth/register', null, {
        name: 'Changer',
        email: 'changer@example.co.ke',
        password: 'first-pass',
      })
    ).json();
    const auth = { authorization: `Bearer ${reg.token}` };
    const wrong = await t.call(
      'POST',
      '/api/auth/password',
      null,
      { currentPassword: 'nope', newPassword: 'second-pass' },
      auth,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ error: 'Your current password is not correct.' });
    const ok = await t.call(
      'POST',
      '/api/auth/password',
      null,
      { currentPassword: 'first-pass', newPassword: 'second-pass' },
      auth,
    );
    expect(ok.statusCode).toBe(200);
    expect((await me(reg.token)).statusCode).toBe(401);
    expect((await me(ok.json().token)).statusCode).toBe(200);
    expect(
      (
        await t.call('POST', '/api/auth/login', null, {
          email: 'changer@example.co.ke',
          password: 'second-pass',
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('POST /api/auth/password', () => {
  it('limits current-password guesses per user (429 with Retry-After, even for the right one)', async () => {
    const me = await registered('guessed@example.co.ke', 'first-pass');
    const other = await registered('bystander@example.co.ke', 'other-pass');
    const change = (token: string, currentPassword: string) =>
      t.call(
        'POST',
        '/api/auth/password',
        null,
        { currentPassword, newPassword: 'second-pass' },
        { authorization: `Bearer ${token}` },
      );
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await change(me.token, `guess-${i}`)).statusCode);
    expect(codes).toEqual([400, 400, 400, 429]);
    const right = await change(me.token, 'first-pass');
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toMatch(/^\d+$/);
    expect(right.json().error).toMatch(/^Too many attempts/);
    // Somebody else's allowance is their own.
    expect((await change(other.token, 'other-pass')).statusCode).toBe(200);
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
    const login = await t.call('POST', '/api/auth/login', null, {
      email: 'boss@example.co.ke',
      password: 'boss-password',
    });
    expect(login.json().user.role).toBe('ADMIN');
    await t.call('POST', '/api/auth/register', null, {
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

describe('PUT /api/auth/language', () => {
  it("remembers the account's language and returns it at the next sign-in and from /me; refuses others with 400", async () => {
    const { token } = await registered('lugha@example.co.ke', 'a-long-passphrase');
    const first = await t.call('POST', '/api/auth/login', null, {
      email: 'lugha@example.co.ke',
      password: 'a-long-passphrase',
    });
    expect(first.json().user.language).toBe('en');
    const as = (tok: string) => ({ token: tok, headers: { authorization: `Bearer ${tok}` } }) as SignedIn;
    const set = await t.call('PUT', '/api/auth/language', as(token), { language: 'sw' });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ email: 'lugha@example.co.ke', language: 'sw' });
    const again = await t.call('POST', '/api/auth/login', null, {
      email: 'lugha@example.co.ke',
      password: 'a-long-passphrase',
    });
    expect(again.json().user.language).toBe('sw');
    expect((await t.call('GET', '/api/auth/me', as(again.json().token))).json().language).toBe('sw');
    const bad = await t.call('PUT', '/api/auth/language', as(token), { language: 'fr' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'Language must be en (English) or sw (Kiswahili).' });
    expect((await t.call('PUT', '/api/auth/language', null, { language: 'sw' })).statusCode).toBe(401);
  });
});
