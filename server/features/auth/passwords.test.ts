/**
 * Passwords (issue 25): an ADMIN's one-time password that must be changed at the next sign-in, and a
 * forgotten password reset by a one-time link e-mailed from a job through SMTP — against a local SMTP server
 * (smtp-server), each mail parsed as a mail client would (mailparser).
 */
import { and, eq } from 'drizzle-orm';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLog, messages, outbox, passwordResets, users } from '../../../drizzle/schema';
import { MESSAGES } from '../../../shared/constants';
import { smsLength } from '../../../shared/domain/sms';
import { fakeAfricasTalking } from '../../../test/fake-africastalking';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';

const received: ParsedMail[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    simpleParser(stream)
      .then((mail) => {
        received.push(mail);
        callback();
      })
      .catch(callback);
  },
});

let clock = new Date('2026-11-26T06:00:00.000Z');
let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as { port: number };
  t = await createTestApp({
    now: () => clock,
    settings: {
      publicUrl: 'https://mchanga.example',
      mail: { smtpUrl: `smtp://127.0.0.1:${port}?starttls=off`, from: 'Mchanga <no-reply@mchanga.example>' },
    },
  });
  admin = await t.signIn('ADMIN');
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const tokenOf = (mail: ParsedMail) => /token=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
const mailTo = (email: string) => received.filter((m) => m.to && JSON.stringify(m.to).includes(email));

describe('forgotten password by e-mail', () => {
  it('answers 202 the same for any address; only an account gets a mail, from the job, with a one-time link', async () => {
    const customer = await t.signIn('CUSTOMER', { name: 'Mary Njeri' });
    const options = await t.call('GET', '/api/auth/password-reset');
    expect(options.json()).toEqual({ emailReset: true, smsReset: false });

    const known = await t.call('POST', '/api/auth/password-reset', null, { email: customer.user.email });
    const unknown = await t.call('POST', '/api/auth/password-reset', null, {
      email: 'nobody-here@example.co.ke',
    });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.json()).toEqual({ accepted: true });
    expect(unknown.json()).toEqual(known.json());

    // Nothing is sent in the request: the outbox holds the job, its payload names the row and no secret.
    const queued = await t.database.db.select().from(outbox).where(eq(outbox.job, 'mail.passwordReset'));
    expect(queued.length).toBeGreaterThanOrEqual(1);
    for (const row of queued) expect(Object.keys(row.payload as object)).toEqual(['resetId']);

    await t.jobs.drain();
    const mails = mailTo(customer.user.email);
    expect(mails).toHaveLength(1);
    expect(mailTo('nobody-here@example.co.ke')).toHaveLength(0);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Reset your Mchanga password');
    expect(mail.from?.text).toContain('no-reply@mchanga.example');
    expect(mail.text).toContain('Hello Mary Njeri');
    expect(mail.text).toContain('https://mchanga.example/reset-password?token=');
    const token = tokenOf(mail)!;
    // Only its hash is kept.
    const [row] = await t.database.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, customer.user.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.tokenHash).not.toContain(token);

    const confirmed = await t.call('POST', '/api/auth/password-reset/confirm', null, {
      token,
      newPassword: 'a-brand-new-passphrase',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // Other sessions end; the new password signs in; the old one does not.
    expect((await t.call('GET', '/api/auth/me', customer)).statusCode).toBe(401);
    const signIn = (password: string) =>
      t.call('POST', '/api/auth/login', null, { email: customer.user.email, password });
    expect((await signIn('password123')).statusCode).toBe(401);
    expect((await signIn('a-brand-new-passphrase')).statusCode).toBe(200);

    // Works once.
    const again = await t.call('POST', '/api/auth/password-reset/confirm', null, {
      token,
      newPassword: 'yet-another-passphrase',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: MESSAGES.resetLinkInvalid });

    const [entry] = await t.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'auth.passwordReset'), eq(activityLog.userId, customer.user.id)));
    expect(entry).toMatchObject({ entity: 'user', role: 'CUSTOMER' });
    expect(JSON.stringify(entry!.changes)).not.toContain('a-brand-new-passphrase');
  });

  it('the link expires', async () => {
    const fuel = await t.signIn('FUEL');
    expect(
      (await t.call('POST', '/api/auth/password-reset', null, { email: fuel.user.email })).statusCode,
    ).toBe(202);
    await t.jobs.drain();
    const token = tokenOf(mailTo(fuel.user.email)[0]!)!;
    const started = clock;
    clock = new Date(started.getTime() + 31 * 60_000);
    try {
      const late = await t.call('POST', '/api/auth/password-reset/confirm', null, {
        token,
        newPassword: 'too-late-passphrase',
      });
      expect(late.statusCode).toBe(400);
      expect(late.json().error).toBe(MESSAGES.resetLinkInvalid);
    } finally {
      clock = started;
    }
  });

  it('is rate-limited per e-mail address (429), and a forged token is refused', async () => {
    const email = 'someone-limited@example.co.ke';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await t.call('POST', '/api/auth/password-reset', null, { email })).statusCode);
    expect(statuses).toEqual([202, 202, 202, 429]);
    const forged = await t.call('POST', '/api/auth/password-reset/confirm', null, {
      token: 'A'.repeat(43),
      newPassword: 'whatever-passphrase',
    });
    expect(forged.statusCode).toBe(400);
    const bad = await t.call('POST', '/api/auth/password-reset', null, { email: 'not an email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('error');
  });

  it('without SMTP settings: nothing is queued and the screens are told to send people to an admin', async () => {
    const bare = await createTestApp();
    try {
      const customer = await bare.signIn('CUSTOMER');
      expect((await bare.call('GET', '/api/auth/password-reset')).json()).toEqual({
        emailReset: false,
        smsReset: false,
      });
      const res = await bare.call('POST', '/api/auth/password-reset', null, { email: customer.user.email });
      expect(res.statusCode).toBe(202);
      expect(await bare.database.db.select().from(passwordResets)).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});

describe('forgotten password by SMS', () => {
  it("sends a one-time code to the account's phone from a job, kept out of the message history; typed in any case it works once", async () => {
    const at = fakeAfricasTalking({ username: 'mchanga', apiKey: 'at-key-0123' });
    const atUrl = await at.start();
    const sms = await createTestApp({
      now: () => clock,
      settings: {
        sms: {
          username: 'mchanga',
          apiKey: 'at-key-0123',
          senderId: 'MCHANGA',
          baseUrl: atUrl,
          callbackSecret: 'at-callback-secret-0123456789',
          callbackIps: [],
        },
      },
    });
    try {
      expect((await sms.call('GET', '/api/auth/password-reset')).json()).toEqual({
        emailReset: false,
        smsReset: true,
      });
      const customer = await sms.signIn('CUSTOMER');
      const noPhone = await sms.signIn('CUSTOMER');
      await sms.database.db.update(users).set({ phone: null }).where(eq(users.id, noPhone.user.id));
      for (const who of [customer, noPhone])
        expect(
          (await sms.call('POST', '/api/auth/password-reset', null, { email: who.user.email })).statusCode,
        ).toBe(202);
      // One job, for the account with a phone; its payload names the row, never a code.
      const queued = await sms.database.db.select().from(outbox).where(eq(outbox.job, 'sms.passwordReset'));
      expect(queued).toHaveLength(1);
      expect(queued[0]!.payload).toEqual({ resetId: expect.any(Number) });
      expect(await sms.database.db.select().from(outbox).where(eq(outbox.job, 'mail.passwordReset'))).toEqual(
        [],
      );

      await sms.jobs.drain();
      expect(at.sent).toHaveLength(1);
      const sent = at.sent[0]!;
      expect(sent).toMatchObject({ to: '+254712345678', from: 'MCHANGA', apiKey: 'at-key-0123' });
      expect(smsLength(sent.message).segments).toBe(1);
      const code = /code: ([a-z0-9]{4}(?:-[a-z0-9]{4}){3})\./.exec(sent.message)?.[1];
      expect(code, sent.message).toBeDefined();
      // Only its hash is kept, and ops' conversation view never holds it.
      const [row] = await sms.database.db
        .select()
        .from(passwordResets)
        .where(eq(passwordResets.userId, customer.user.id));
      expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row!.sentAt).not.toBeNull();
      expect(JSON.stringify(await sms.database.db.select().from(messages))).not.toContain(code!);
      // A second run of the job sends nothing again.
      await sms.jobs.drain();
      expect(at.sent).toHaveLength(1);

      // Typed on a phone that capitalised it: still the code. Other sessions end; it works once.
      const typed = code!.charAt(0).toUpperCase() + code!.slice(1);
      const confirmed = await sms.call('POST', '/api/auth/password-reset/confirm', null, {
        token: typed,
        newPassword: 'an-sms-passphrase',
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      expect((await sms.call('GET', '/api/auth/me', customer)).statusCode).toBe(401);
      expect(
        (
          await sms.call('POST', '/api/auth/login', null, {
            email: customer.user.email,
            password: 'an-sms-passphrase',
          })
        ).statusCode,
      ).toBe(200);
      const again = await sms.call('POST', '/api/auth/password-reset/confirm', null, {
        token: code,
        newPassword: 'another-sms-passphrase',
      });
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ error: MESSAGES.resetLinkInvalid });
    } finally {
      await sms.close();
      await at.stop();
    }
  });
});

describe("ADMIN resets a staff member's password", () => {
  it('answers a one-time password once; it signs in, must be changed, and opens nothing else until then', async () => {
    const ops = await t.signIn('OPS');
    const res = await t.call('POST', `/api/admin/users/${ops.user.id}/reset-password`, admin, {});
    expect(res.statusCode, res.body).toBe(200);
    const { oneTimePassword } = res.json() as { oneTimePassword: string };
    expect(oneTimePassword).toMatch(/^[a-zA-Z2-9]{4}(-[a-zA-Z2-9]{4}){3}$/);
    // Their sessions ended; the old password is gone.
    expect((await t.call('GET', '/api/auth/me', ops)).statusCode).toBe(401);
    expect(
      (await t.call('POST', '/api/auth/login', null, { email: ops.user.email, password: 'password123' }))
        .statusCode,
    ).toBe(401);

    const login = await t.call('POST', '/api/auth/login', null, {
      email: ops.user.email,
      password: oneTimePassword,
    });
    expect(login.statusCode).toBe(200);
    const session = login.json() as { token: string; user: { mustChangePassword: boolean } };
    expect(session.user.mustChangePassword).toBe(true);
    const headers = { authorization: `Bearer ${session.token}` };
    const blocked = await t.app.inject({ method: 'GET', url: '/api/admin/stock', headers });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ error: MESSAGES.mustChangePassword });
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me', headers })).json()).toMatchObject({
      mustChangePassword: true,
    });

    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password',
      headers,
      payload: { currentPassword: oneTimePassword, newPassword: 'my-own-passphrase' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const fresh = changed.json() as { token: string; user: { mustChangePassword: boolean } };
    expect(fresh.user.mustChangePassword).toBe(false);
    const open = await t.app.inject({
      method: 'GET',
      url: '/api/admin/stock',
      headers: { authorization: `Bearer ${fresh.token}` },
    });
    expect(open.statusCode).toBe(200);

    const entries = await t.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.entity, 'user'), eq(activityLog.entityId, String(ops.user.id))));
    const reset = entries.find((e) => e.action === 'admin.users.resetPassword');
    expect(reset).toMatchObject({ userId: admin.user.id, role: 'ADMIN' });
    expect(JSON.stringify(entries.map((e) => e.changes))).not.toContain(oneTimePassword);
  });

  it('only ADMIN; never their own nor a customer’s; unknown users 404', async () => {
    const target = await t.signIn('FUEL');
    for (const role of ['OPS', 'DRIVER', 'FUEL', 'CUSTOMER'] as const)
      expect(
        (await t.call('POST', `/api/admin/users/${target.user.id}/reset-password`, await t.signIn(role), {}))
          .statusCode,
      ).toBe(403);
    expect(
      (await t.call('POST', `/api/admin/users/${target.user.id}/reset-password`, null, {})).statusCode,
    ).toBe(401);
    const own = await t.call('POST', `/api/admin/users/${admin.user.id}/reset-password`, admin, {});
    expect(own.statusCode).toBe(400);
    expect(own.json().error).toBe(MESSAGES.resetOwnPassword);
    const customer = await t.signIn('CUSTOMER');
    const theirs = await t.call('POST', `/api/admin/users/${customer.user.id}/reset-password`, admin, {});
    expect(theirs.statusCode).toBe(400);
    expect(theirs.json().error).toBe(MESSAGES.resetStaffOnly);
    expect((await t.call('POST', '/api/admin/users/999999/reset-password', admin, {})).statusCode).toBe(404);
  });
});
