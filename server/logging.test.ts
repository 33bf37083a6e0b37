import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/helpers';
import { buildApp } from './app';
import { loggerOptions } from './logging';

// Issue 11, item 6: a failing request's log line carries no query parameter or secret.
let t: TestApp;
let app: Awaited<ReturnType<typeof buildApp>>;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  app = await buildApp(t.deps, { logger: loggerOptions('info', sink) });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

describe('logs of failing requests', () => {
  it('hold no password, hash, token, email or phone, though the failed queries carried them', async () => {
    const secret = {
      email: 'wanjiku.secret@example.co.ke',
      password: 'a-very-secret-passphrase',
      phone: '0799123456',
    };
    const ok = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { name: 'Wanjiku', ...secret },
    });
    expect(ok.statusCode).toBe(201);
    const token = ok.json().token as string;
    const hash = (await t.database.db.execute(
      sql`select password_hash from users where email = ${secret.email}`,
    )) as unknown;
    const hashText = JSON.stringify(hash).match(/\$argon2id\$[^"]+/)?.[0];
    expect(hashText).toBeTruthy();

    // Every new account now fails at its INSERT (whose parameters hold the hash, email and phone).
    await t.database.db.execute(
      sql`alter table users add constraint test_refuse_new check (id < 0) not valid`,
    );
    const other = {
      name: 'Otieno',
      email: 'otieno.secret@example.co.ke',
      password: 'another-secret-pass',
      phone: '0788654321',
    };
    const failed = await app.inject({ method: 'POST', url: '/api/auth/register', payload: other });
    expect(failed.statusCode).toBe(500);
    // A signed-in call that fails the same way (its bearer token must not be logged either).
    const changed = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { authorization: `Bearer ${token}` },
      payload: { ...other, email: 'third.secret@example.co.ke' },
    });
    expect(changed.statusCode).toBe(500);
    await t.database.db.execute(sql`alter table users drop constraint test_refuse_new`);

    const log = lines.join('');
    expect(log).toMatch(/request failed|procedure failed/);
    for (const leak of [
      other.email,
      other.password,
      other.phone,
      '$argon2',
      token,
      secret.password,
      hashText!,
    ])
      expect(log, leak).not.toContain(leak);
  });
});
