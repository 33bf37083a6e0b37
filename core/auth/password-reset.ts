/**
 * Passwords without the old one (issue 25): an ADMIN's one-time password for a staff member, and a
 * forgotten password reset by a one-time link e-mailed from a job and, where SMS is set up and the account
 * has a phone, a one-time code sent by SMS from another job. The request only writes a row per channel and
 * its outbox entry; the job makes the secret when it sends (its sha256 stored, never the secret), so no
 * secret sits in a job payload or in the message history ops read, and it works once, for
 * PASSWORD_RESET_TTL_MINUTES.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../drizzle/db';
import { writeOutbox } from '../../drizzle/outbox';
import { passwordResets, users } from '../../drizzle/schema';
import { MESSAGES, PASSWORD_RESET_TTL_MINUTES } from '../../shared/constants';
import { REDACTED } from '../../shared/domain/activity';
import { normaliseMsisdn } from '../../shared/domain/mpesa';
import { isEmployee } from '../../shared/roles';
import type { TPasswordResetConfirm } from '../../shared/schemas/auth';
import { type Settings, smsOn } from '../../shared/settings';
import { AT_ACCEPTED, AT_RETRYABLE, AtClient, AtError, atConfigOf } from '../../shared/sms/africastalking';
import type { CtxUser } from '../access/actor';
import { recordChange } from '../activity/activity';
import { appError } from '../errors';
import { type JobContext, PermanentJobError } from '../jobs/context';
import { MailRefusedError, mailerFor } from '../mail/mailer';
import { findUserByEmail } from './auth.queries';
import { actorOf } from './auth.service';
import { hashPassword } from './passwords';
import { consume, type Limiters, limited } from './rate-limit';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Readable and strong: 16 characters from 32 (no 0/O, 1/l/I), about 80 bits. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789ABCDEFGHJKLMNPQRSTUVWXYZ'.slice(0, 32);
function oneTimePassword(): string {
  const bytes = randomBytes(16);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 32];
  return `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}-${out.slice(12, 16)}`;
}

/** What the password screens may offer: a link by e-mail (SMTP set up), a code by SMS (Africa's Talking set up). */
export function passwordOptions(settings: Pick<Settings, 'mail' | 'sms'>) {
  return { emailReset: settings.mail !== null, smsReset: smsOn(settings) };
}

/**
 * A code read off an SMS and typed on a phone: compared without case (a phone keyboard capitalises the first
 * letter), and never the e-mailed token's shape, so the two cannot be confused.
 */
const codeHashOf = (typed: string) => sha256(typed.trim().toLowerCase());

/**
 * ADMIN: a staff member's password becomes a one-time one, answered once; their sessions end and the next
 * sign-in must choose a new password. Never the ADMIN's own (the password screen is for that), never a
 * customer's (they reset theirs by e-mail).
 */
export async function resetStaffPassword(
  db: DbOrTx,
  admin: CtxUser,
  userId: number,
  now: Date,
): Promise<{ id: number; oneTimePassword: string }> {
  if (userId === admin.id) throw appError('BAD_REQUEST', MESSAGES.resetOwnPassword);
  const password = oneTimePassword();
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!before) throw appError('NOT_FOUND', 'User not found.');
    if (!isEmployee(before.role)) throw appError('BAD_REQUEST', MESSAGES.resetStaffOnly);
    await tx
      .update(users)
      .set({
        passwordHash,
        mustChangePassword: true,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        updatedAt: now,
      })
      .where(eq(users.id, userId));
    await recordChange(tx, {
      entity: 'user',
      entityId: userId,
      changes: {
        password: { from: REDACTED, to: REDACTED },
        mustChangePassword: { from: before.mustChangePassword, to: true },
        sessions: { from: 'signed in', to: 'signed out everywhere' },
      },
    });
  });
  return { id: userId, oneTimePassword: password };
}

/**
 * A forgotten password: always the same answer, whether or not the address has an account (the caller
 * answers 202). Limited per address and per e-mail. With an active account and mail set up, a reset row
 * and its mail job commit together; the mail goes out from the job.
 */
export async function requestPasswordReset(
  db: DbOrTx,
  limiters: Pick<Limiters, 'passwordResetPerIp' | 'passwordResetPerEmail'>,
  settings: Pick<Settings, 'mail' | 'sms'>,
  ip: string,
  email: string,
  now: Date,
): Promise<{ accepted: true }> {
  await limited(() => consume(limiters.passwordResetPerIp, ip));
  await limited(() => consume(limiters.passwordResetPerEmail, email.toLowerCase()));
  const { emailReset, smsReset } = passwordOptions(settings);
  if (!emailReset && !smsReset) return { accepted: true };
  const user = await findUserByEmail(db, email);
  if (!user || user.disabledAt) return { accepted: true };
  const bySms = smsReset && normaliseMsisdn(user.phone) !== null;
  if (!emailReset && !bySms) return { accepted: true };
  await db.transaction(async (tx) => {
    const newReset = async () => {
      const [row] = await tx
        .insert(passwordResets)
        .values({
          userId: user.id,
          expiresAt: new Date(now.getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000),
          createdAt: now,
        })
        .returning({ id: passwordResets.id });
      return row!.id;
    };
    if (emailReset) await writeOutbox(tx, 'mail.passwordReset', { resetId: await newReset() });
    if (bySms) await writeOutbox(tx, 'sms.passwordReset', { resetId: await newReset() });
  });
  return { accepted: true };
}

/** The link's token: works once, before it expires; every other session ends. */
export async function confirmPasswordReset(
  db: DbOrTx,
  input: TPasswordResetConfirm,
  now: Date,
): Promise<{ ok: true }> {
  const tokenHash = sha256(input.token);
  const codeHash = codeHashOf(input.token);
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    const [reset] = await tx
      .select()
      .from(passwordResets)
      .where(
        and(
          or(eq(passwordResets.tokenHash, tokenHash), eq(passwordResets.codeHash, codeHash)),
          isNull(passwordResets.usedAt),
          gt(passwordResets.expiresAt, now),
        ),
      )
      .for('update');
    if (!reset) throw appError('BAD_REQUEST', MESSAGES.resetLinkInvalid);
    const [user] = await tx.select().from(users).where(eq(users.id, reset.userId)).for('update');
    if (!user || user.disabledAt) throw appError('BAD_REQUEST', MESSAGES.resetLinkInvalid);
    // This link or code and any other still open for the account are spent.
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    await tx
      .update(users)
      .set({
        passwordHash,
        mustChangePassword: false,
        tokenVersion: sql`${users.tokenVersion} + 1`,
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    await recordChange(tx, {
      action: 'auth.passwordReset',
      entity: 'user',
      entityId: user.id,
      actor: actorOf(user),
      changes: {
        password: { from: REDACTED, to: REDACTED },
        sessions: { from: 'signed in', to: 'signed out everywhere' },
      },
    });
  });
  return { ok: true };
}

const MAIL_TEXT = {
  en: (name: string, link: string | null, token: string) => ({
    subject: 'Reset your Mchanga password',
    text: [
      `Hello ${name},`,
      '',
      'Someone (we hope you) asked to reset the password of your Mchanga account.',
      link
        ? `Open this link to choose a new password:\n${link}`
        : 'Open the "Reset password" screen and enter this code:',
      '',
      `Code: ${token}`,
      '',
      `It works once, for ${PASSWORD_RESET_TTL_MINUTES} minutes. If you did not ask, ignore this e-mail: your password stays as it is.`,
    ].join('\n'),
  }),
  sw: (name: string, link: string | null, token: string) => ({
    subject: 'Badilisha nenosiri lako la Mchanga',
    text: [
      `Habari ${name},`,
      '',
      'Mtu (tunatumaini ni wewe) ameomba kubadilisha nenosiri la akaunti yako ya Mchanga.',
      link
        ? `Fungua kiungo hiki uchague nenosiri jipya:\n${link}`
        : 'Fungua skrini ya "Badilisha nenosiri" uweke msimbo huu:',
      '',
      `Msimbo: ${token}`,
      '',
      `Unafanya kazi mara moja, kwa dakika ${PASSWORD_RESET_TTL_MINUTES}. Kama hukuomba, puuza barua hii: nenosiri lako halitabadilika.`,
    ].join('\n'),
  }),
};

/** A reset row and its account, while it is still to be sent (not sent, used or expired); else why not. */
async function resetToSend(ctx: Pick<JobContext, 'db' | 'now'>, resetId: number) {
  const [row] = await ctx.db
    .select({ reset: passwordResets, user: users })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(eq(passwordResets.id, resetId));
  if (!row) return { why: 'gone' as const };
  const { reset } = row;
  if (reset.sentAt || reset.usedAt || reset.expiresAt <= ctx.now()) return { why: 'done' as const };
  return row;
}

/**
 * The mail job: makes the token, keeps its hash, sends the link. Sent once (sentAt); an expired or used
 * reset sends nothing. A retry after a failed send makes a new token (the unsent one never worked). The
 * link is built only from PUBLIC_URL, never from a request's Host header (which a caller controls).
 */
export async function sendPasswordResetMail(
  ctx: Pick<JobContext, 'db' | 'now' | 'settings'> & Partial<Pick<JobContext, 'log'>>,
  resetId: number,
) {
  const mailer = mailerFor(ctx.settings);
  if (!mailer) return { sent: false, why: 'mail off' };
  const open = await resetToSend(ctx, resetId);
  if ('why' in open) return { sent: false, why: open.why };
  const { user } = open;
  const token = randomBytes(32).toString('base64url');
  await ctx.db
    .update(passwordResets)
    .set({ tokenHash: sha256(token) })
    .where(and(eq(passwordResets.id, resetId), isNull(passwordResets.sentAt)));
  const link = ctx.settings.publicUrl ? `${ctx.settings.publicUrl}/reset-password?token=${token}` : null;
  const mail = MAIL_TEXT[user.language === 'sw' ? 'sw' : 'en'](user.name, link, token);
  try {
    await mailer.send({ to: user.email, ...mail });
  } catch (err) {
    if (err instanceof MailRefusedError) throw new PermanentJobError(err.message, { cause: err });
    throw err;
  }
  await ctx.db.update(passwordResets).set({ sentAt: ctx.now() }).where(eq(passwordResets.id, resetId));
  ctx.log?.info({ resetId }, 'password reset mail sent');
  return { sent: true };
}

const SMS_TEXT = {
  en: (code: string) =>
    `Mchanga password reset code: ${code}. It works once, for ${PASSWORD_RESET_TTL_MINUTES} minutes. Did not ask? Ignore this SMS.`,
  sw: (code: string) =>
    `Msimbo wa kubadilisha nenosiri la Mchanga: ${code}. Unafanya kazi mara moja, kwa dakika ${PASSWORD_RESET_TTL_MINUTES}. Hukuomba? Puuza SMS hii.`,
};

/**
 * The SMS job: makes the code, keeps its hash, sends it to the account's phone through Africa's Talking
 * straight from here (not through the conversation history, where ops would read it). Sent once (sentAt);
 * an expired or used reset sends nothing; a retry after a failed send makes a new code. A number the rail
 * refuses for good (blacklisted, invalid) is not tried again.
 */
export async function sendPasswordResetSms(
  ctx: Pick<JobContext, 'db' | 'now' | 'settings'> & Partial<Pick<JobContext, 'log'>>,
  resetId: number,
  options: { fetch?: typeof fetch } = {},
) {
  const config = atConfigOf(ctx.settings);
  if (!config) return { sent: false, why: 'sms off' };
  const open = await resetToSend(ctx, resetId);
  if ('why' in open) return { sent: false, why: open.why };
  const { user } = open;
  const msisdn = normaliseMsisdn(user.phone);
  if (!msisdn) return { sent: false, why: 'no phone' };
  const code = oneTimePassword().toLowerCase();
  await ctx.db
    .update(passwordResets)
    .set({ codeHash: codeHashOf(code) })
    .where(and(eq(passwordResets.id, resetId), isNull(passwordResets.sentAt)));
  const text = SMS_TEXT[user.language === 'sw' ? 'sw' : 'en'](code);
  let answer: Awaited<ReturnType<AtClient['send']>>;
  try {
    answer = await new AtClient(config, options).send(`+${msisdn}`, text);
  } catch (err) {
    if (err instanceof AtError && err.permanent) throw new PermanentJobError(err.message, { cause: err });
    throw err;
  }
  if (!AT_ACCEPTED.has(answer.statusCode)) {
    const why = `Africa's Talking: ${answer.status} (${answer.statusCode})`;
    if (AT_RETRYABLE.has(answer.statusCode)) throw new Error(why);
    throw new PermanentJobError(why);
  }
  await ctx.db.update(passwordResets).set({ sentAt: ctx.now() }).where(eq(passwordResets.id, resetId));
  ctx.log?.info({ resetId }, 'password reset SMS sent');
  return { sent: true };
}
