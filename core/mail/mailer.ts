/**
 * Outgoing e-mail (issue 25): a thin client over nodemailer, driven by SMTP_URL and MAIL_FROM and off when
 * they are unset. Only jobs send (from the outbox), never a user's request.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Settings } from '../../shared/settings';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<{ messageId: string }>;
}

/** A permanent refusal (5xx from the server: a bad address): retrying cannot help. */
export class MailRefusedError extends Error {}

const transports = new Map<string, Transporter>();

/** The configured mailer, or null when SMTP is not set up. */
export function mailerFor(settings: Pick<Settings, 'mail'>): Mailer | null {
  const mail = settings.mail;
  if (!mail) return null;
  let transport = transports.get(mail.smtpUrl);
  if (!transport) {
    const url = new URL(mail.smtpUrl);
    transport = nodemailer.createTransport({
      host: url.hostname,
      port: Number(url.port) || (url.protocol === 'smtps:' ? 465 : 587),
      secure: url.protocol === 'smtps:',
      ...(url.username
        ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
        : {}),
      // A local relay without a certificate (tests, a LAN relay) may say so in the URL.
      ...(url.searchParams.get('tls') === 'insecure' ? { tls: { rejectUnauthorized: false } } : {}),
      ...(url.searchParams.get('starttls') === 'off' ? { ignoreTLS: true } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
    transports.set(mail.smtpUrl, transport);
  }
  const sender = transport;
  return {
    async send({ to, subject, text }) {
      try {
        const info = await sender.sendMail({ from: mail.from, to, subject, text });
        return { messageId: String(info.messageId ?? '') };
      } catch (err) {
        const code = (err as { responseCode?: number }).responseCode;
        if (code !== undefined && code >= 500)
          throw new MailRefusedError(`SMTP refused the message (${code})`);
        throw err;
      }
    },
  };
}
