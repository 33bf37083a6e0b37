import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import { BUSINESS_TIME_ZONE } from './constants';
import { toCents } from './domain/money';
import { whatsappLink } from './domain/phone';
import { type CessRule, parseCess, parseWindow } from './domain/trip-profit';

// Node-only (the server and the worker read it once at start); the client never imports it.

const optionalUrl = z.string().url().optional();

function validCron(pattern: string): boolean {
  try {
    CronExpressionParser.parse(pattern, { tz: BUSINESS_TIME_ZONE });
    return pattern.trim().split(/\s+/).length === 5;
  } catch {
    return false;
  }
}
const number = (def: number, min = 0) => z.coerce.number().min(min).default(def);

/** Graph API's base with its version; tests point it at a local fake. */
export const WHATSAPP_GRAPH_DEFAULT = 'https://graph.facebook.com/v23.0';
/** Africa's Talking's live API (its sandbox: https://api.sandbox.africastalking.com). */
export const AT_DEFAULT_URL = 'https://api.africastalking.com';

/** Addresses or CIDRs, comma-separated (empty: any). */
const addressList = z
  .string()
  .default('')
  .transform((v, ctx) => {
    const list = v
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    if (list.every((a) => /^[\d.:a-fA-F]+(\/\d{1,3})?$/.test(a))) return list;
    ctx.addIssue({
      code: 'custom',
      message: 'list addresses or CIDRs, comma-separated (196.201.214.0/24)',
    });
    return z.NEVER;
  });
/** A WhatsApp message template's name as Meta's WhatsApp Manager shows it (lower case, digits, _). */
const templateName = (def: string) =>
  z
    .string()
    .regex(/^[a-z0-9_]{1,512}$/, 'a template name: lower-case letters, digits and underscores')
    .default(def);
/** A template language code as approved in WhatsApp Manager (en, en_US, sw). */
const templateLanguage = (def: string) =>
  z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'a language code as Meta lists it (en, en_US, sw)')
    .default(def);

/** KRA's OSCU sandbox and its GavaConnect token URL; production: https://etims-api.kra.go.ke/etims-api. */
export const ETIMS_SANDBOX_URL = 'https://etims-api-sbx.kra.go.ke/etims-api';
export const ETIMS_SANDBOX_TOKEN_URL = 'https://sbx.kra.go.ke/v1/token/generate';

/**
 * Every environment variable the server and the worker read, in one schema. Nothing else in the
 * project reads `process.env` (server/settings.test.ts fails if anything does); the README's table
 * lists each variable below.
 */
export const ZEnv = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: optionalUrl,
    DATABASE_DIRECT_URL: optionalUrl,
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
    WORKER_DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(5),
    REDIS_URL: optionalUrl,
    JWT_SECRET: z.string().optional(),
    TOKEN_TTL: z.string().default('7d'),
    ADMIN_EMAIL: z.string().email().optional(),
    ADMIN_PASSWORD: z.string().optional(),
    BODY_LIMIT: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    TRUST_PROXY: z
      .string()
      .default('false')
      .transform((v, ctx) => {
        const value = v.trim();
        if (value === 'false' || value === '0' || value === '') return false;
        // `true` meant "behind a load balancer": that is one proxy hop, never "trust every X-Forwarded-For".
        if (value === 'true') return 1;
        if (/^\d+$/.test(value)) return Number(value);
        const addresses = value.split(',').map((a) => a.trim());
        if (
          addresses.every(
            (a) =>
              /^[\d.:a-fA-F]+(\/\d{1,3})?$/.test(a) || ['loopback', 'linklocal', 'uniquelocal'].includes(a),
          )
        )
          return addresses;
        ctx.addIssue({
          code: 'custom',
          message:
            "use a number of proxy hops (1 behind one load balancer) or the proxies' addresses (10.0.0.1,10.0.0.0/8)",
        });
        return z.NEVER;
      }),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    MAP_TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
    YARD_NAME: z.string().default('Juja Yard'),
    YARD_LAT: z.coerce.number().min(-90).max(90).default(-1.099),
    YARD_LNG: z.coerce.number().min(-180).max(180).default(37.014),
    YARD_RADIUS_M: z.coerce.number().min(100).max(5000).default(250),
    SITE_RADIUS_M: z.coerce.number().min(100).max(5000).default(150),
    TRACKING_DRIVER_PHONE: z.enum(['true', 'false']).default('false'),
    DISPATCH_PHONE: z.string().default('+254 700 000 000'),
    DISPATCH_EMAIL: z.string().default('dispatch@mchanga.co.ke'),
    // A wa.me link, or the number to build it from (254722000111, 0722 000 111): a mobile, since landlines
    // have no WhatsApp.
    DISPATCH_WHATSAPP: z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined || v.trim() === '') return undefined;
        const link = whatsappLink(v);
        if (link) return link;
        ctx.addIssue({
          code: 'custom',
          message:
            'use a Kenyan mobile number (254722000111) or an https:// link (https://wa.me/254722000111)',
        });
        return z.NEVER;
      }),
    PAYBILL_ACCOUNT: z.string().default('MCHANGA'),
    GEOCODER_URL: optionalUrl,
    OSRM_URL: optionalUrl,
    STOCK_LOW_TONNES: number(100),
    IDLE_ALERT_MINUTES: number(30, 1),
    TRIP_ALLOWANCE_KES: number(500),
    COUNTY_CESS: z
      .string()
      .default('')
      .refine(
        (v) => {
          try {
            parseCess(v);
            return true;
          } catch {
            return false;
          }
        },
        { message: 'list place=KES per trip, comma-separated (Kiambu=300,Machakos=450,*=0)' },
      ),
    TRANSPORT_WINDOW: z
      .string()
      .default('06:00-18:00')
      .refine(
        (v) => {
          try {
            parseWindow(v);
            return true;
          } catch {
            return false;
          }
        },
        { message: 'use HH:MM-HH:MM in Africa/Nairobi time, start first (06:00-18:00)' },
      ),
    ARTICLE_IMAGE_HOSTS: z.string().default(''),
    TELEGRAM_BOT_TOKEN: z.string().optional(),
    TELEGRAM_API_ROOT: optionalUrl,
    OPENAI_API_KEY: z.string().optional(),
    OPENAI_BASE_URL: optionalUrl,
    OPENAI_MODEL: z.string().default('gpt-4o-mini'),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
    IDEMPOTENCY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    UPLOAD_STORAGE: z.enum(['database', 'files']).optional(),
    /** Bearer token for GET /metrics; unset: /metrics answers 404. */
    METRICS_TOKEN: z.string().min(16, 'use at least 16 characters (openssl rand -hex 24)').optional(),
    /** Services mode: the worker serves its own /metrics on this port (with METRICS_TOKEN). */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** When backups run (cron, Africa/Nairobi), or `off`. */
    BACKUP_CRON: z
      .string()
      .default('30 2 * * *')
      .refine(
        (v) => v === 'off' || validCron(v),
        'a cron pattern such as "30 2 * * *" (02:30 daily), or off',
      ),
    BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
    BACKUP_DIR: z.string().optional(),
    POSITION_RETENTION_DAYS: z.coerce.number().int().min(7).max(36500).default(180),
    ACTIVITY_RETENTION_DAYS: z.coerce.number().int().min(1).max(36500).default(730),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/\S+$/, 'use smtp://user:pass@host:587 or smtps://user:pass@host:465')
      .optional(),
    MAIL_FROM: z.string().min(3).optional(),
    PUBLIC_URL: z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/, ''))
      .optional(),
    MPESA_BASE_URL: z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/, ''))
      .default('https://sandbox.safaricom.co.ke'),
    MPESA_CONSUMER_KEY: z.string().optional(),
    MPESA_CONSUMER_SECRET: z.string().optional(),
    MPESA_SHORTCODE: z
      .string()
      .regex(/^\d{5,9}$/, 'the paybill number: 5 to 9 digits')
      .optional(),
    MPESA_PASSKEY: z.string().optional(),
    MPESA_CALLBACK_SECRET: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,128}$/, 'use 16 or more URL-safe characters (openssl rand -hex 24)')
      .optional(),
    MPESA_VALIDATE_ACCOUNT: z.enum(['true', 'false']).default('false'),
    MPESA_CALLBACK_IPS: addressList,
    ETIMS_BASE_URL: z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/, ''))
      .default(ETIMS_SANDBOX_URL),
    ETIMS_TOKEN_URL: z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/, ''))
      .default(ETIMS_SANDBOX_TOKEN_URL),
    ETIMS_CONSUMER_KEY: z.string().optional(),
    ETIMS_CONSUMER_SECRET: z.string().optional(),
    ETIMS_TIN: z
      .string()
      .transform((v) => v.trim().toUpperCase())
      .pipe(
        z
          .string()
          .regex(/^[AP]\d{9}[A-Z]$/, 'the business KRA PIN: A or P, 9 digits, a letter (P051234567X)'),
      )
      .optional(),
    ETIMS_BHF_ID: z
      .string()
      .regex(/^\d{2}$/, 'the KRA branch id: two digits (00 for the head office)')
      .default('00'),
    ETIMS_DEVICE_SERIAL: z.string().max(100, 'at most 100 characters').optional(),
    ETIMS_VAT_REGISTERED: z.enum(['true', 'false']).default('false'),
    WHATSAPP_PHONE_NUMBER_ID: z
      .string()
      .regex(/^\d{5,20}$/, "the WhatsApp business number's id from Meta's app dashboard (digits)")
      .optional(),
    WHATSAPP_ACCESS_TOKEN: z.string().optional(),
    WHATSAPP_APP_SECRET: z.string().optional(),
    WHATSAPP_VERIFY_TOKEN: z.string().optional(),
    WHATSAPP_GRAPH_URL: z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/, ''))
      .default(WHATSAPP_GRAPH_DEFAULT),
    WHATSAPP_TEMPLATE_ORDER_UPDATE: templateName('order_update'),
    WHATSAPP_TEMPLATE_PAYMENT_RECEIVED: templateName('payment_received'),
    WHATSAPP_TEMPLATE_DELIVERED: templateName('order_delivered'),
    WHATSAPP_TEMPLATE_LANG_EN: templateLanguage('en'),
    WHATSAPP_TEMPLATE_LANG_SW: templateLanguage('sw'),
    AT_USERNAME: z.string().optional(),
    AT_API_KEY: z.string().optional(),
    AT_SENDER_ID: z.string().max(11, 'an alphanumeric sender id is at most 11 characters').optional(),
    AT_BASE_URL: z
      .string()
      .url()
      .transform((u) => u.replace(/\/+$/, ''))
      .default(AT_DEFAULT_URL),
    AT_CALLBACK_SECRET: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,128}$/, 'use 16 or more URL-safe characters (openssl rand -hex 24)')
      .optional(),
    AT_CALLBACK_IPS: addressList,
    npm_package_version: z.string().default('0.0.0'),
  })
  .superRefine((e, ctx) => {
    if (e.SMTP_URL && !e.MAIL_FROM)
      ctx.addIssue({
        code: 'custom',
        path: ['MAIL_FROM'],
        message: 'required with SMTP_URL (Mchanga <no-reply@example.co.ke>)',
      });
    if (e.MAIL_FROM && !e.SMTP_URL)
      ctx.addIssue({
        code: 'custom',
        path: ['SMTP_URL'],
        message: 'required with MAIL_FROM (smtp://user:pass@host:587)',
      });
    // The feature is on with the key and the secret: then KRA must also know whose device this is.
    if (!e.ETIMS_CONSUMER_KEY || !e.ETIMS_CONSUMER_SECRET) return;
    for (const name of ['ETIMS_TIN', 'ETIMS_DEVICE_SERIAL'] as const)
      if (!e[name])
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message:
            'required with ETIMS_CONSUMER_KEY and ETIMS_CONSUMER_SECRET (from the eTIMS OSCU approval)',
        });
  });

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * PostgreSQL itself when DATABASE_URL is a pooler (PgBouncer): migrations, their lock, LISTEN and
   * backups (pg_dump, pg_restore) use it.
   * Undefined: DATABASE_URL is direct.
   */
  databaseDirectUrl: string | undefined;
  /** Connections each server process (`server`) and each worker process (`worker`) may hold. */
  databasePoolMax: { server: number; worker: number };
  redisUrl: string | undefined;
  jwtSecret: Uint8Array;
  tokenTtl: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  bodyLimit: number;
  /** Fastify's trustProxy: false, the number of proxy hops in front, or the proxies' addresses/CIDRs. */
  trustProxy: false | number | string[];
  mapTileUrl: string;
  logLevel: string;
  /** The yard, and the radius of its geofence (leaving it starts a load's trip). */
  yard: { name: string; lat: number; lng: number; radiusM: number };
  /** Site geofences (wider for looked-up points) and what the public tracking page may show. */
  tracking: { siteRadiusM: number; showDriverPhone: boolean };
  dispatch: { phone: string; email: string; whatsapp: string; hours: string };
  paybillAccount: string;
  geocoderUrl: string | undefined;
  osrmUrl: string | undefined;
  alerts: { stockLowTonnes: number; idleMinutes: number };
  /** Per-trip costs and the legal transport hours (issue 17). */
  trips: {
    allowanceCents: number;
    cess: CessRule[];
    window: { from: number; to: number };
    windowText: string;
  };
  /** https hosts briefing images may come from (same-site images are always allowed). */
  articleImageHosts: string[];
  telegram: { token: string | undefined; apiRoot: string | undefined };
  openai: { apiKey: string | undefined; baseUrl: string | undefined; model: string };
  workerConcurrency: number;
  /**
   * How long a stored `Idempotency-Key` answers replays before a daily job deletes it. It must outlast the
   * longest a phone's outbox may keep resending an entry: entries wait through an expired session until
   * the user signs in again, so this is weeks, not the session length.
   */
  idempotencyRetentionDays: number;
  /**
   * Where uploaded images live: `database` (the uploads table, seen by every instance and backed up with
   * it; the default with DATABASE_URL) or `files` (DATA_DIR/uploads on this machine; the embedded default).
   */
  uploadStorage: 'database' | 'files';
  /** GET /metrics (issue 25): its bearer token (unset: 404) and the worker's own metrics port. */
  metrics: { token: string | undefined; workerPort: number | undefined };
  /** Backups (issue 25): when (cron in Africa/Nairobi, null when off), how many to keep, and where. */
  backup: { cron: string | null; keep: number; dir: string };
  /** Days of raw GPS fixes kept; older months are dropped whole (the rollups keep what the product needs). */
  positionRetentionDays: number;
  /** How long the staff action log keeps an entry before the daily job deletes it (730 days). */
  activityRetentionDays: number;
  /** Outgoing mail (password resets): both set, or null and the screens say to ask an admin. */
  mail: { smtpUrl: string; from: string } | null;
  /** Where the public reaches this server (https://mchanga.co.ke): callback URLs handed to providers. */
  publicUrl: string | undefined;
  mpesa: MpesaSettings;
  etims: EtimsSettings;
  whatsapp: WhatsAppSettings;
  sms: SmsSettings;
  version: string;
  /** `embedded` = PGlite + in-process jobs; `services` = PostgreSQL and/or Redis. */
  mode: 'embedded' | 'services';
}

/**
 * Safaricom Daraja. The C2B confirmation works with `callbackSecret` alone (the paybill's URLs are
 * registered once, outside this app); the STK push needs the app's keys, the shortcode, the passkey and
 * PUBLIC_URL (see `stkReady`).
 */
export interface MpesaSettings {
  baseUrl: string;
  consumerKey: string | undefined;
  consumerSecret: string | undefined;
  /** The paybill customers pay to (business short code). */
  shortcode: string | undefined;
  passkey: string | undefined;
  /** The secret last path segment of the callback URLs; without it every callback path answers 404. */
  callbackSecret: string | undefined;
  /** Refuse C2B payments to unknown account numbers at validation (C2B00012) instead of listing them. */
  validateAccount: boolean;
  /** Addresses or CIDRs callbacks may come from; empty means any (the secret path still applies). */
  callbackIps: string[];
}

/**
 * KRA eTIMS through the OSCU system-to-system API (issue 23). On with the consumer key and secret (then the
 * PIN and the device serial are required); off otherwise, and then nothing is sent to KRA.
 */
export interface EtimsSettings {
  baseUrl: string;
  tokenUrl: string;
  consumerKey: string | undefined;
  consumerSecret: string | undefined;
  /** The business's KRA PIN (the OSCU `tin`). */
  tin: string | undefined;
  /** The branch as KRA's OSCU knows it (`bhfId`, two digits). */
  bhfId: string;
  deviceSerial: string | undefined;
  /** VAT-registered: tax type B (16%); otherwise D (non-VAT). */
  vatRegistered: boolean;
}

/**
 * WhatsApp Business Cloud API (issue 29). Sending needs the number id and the access token; the webhook
 * needs the app secret (signature) and the verify token (subscription). Without them the channel is off.
 */
export interface WhatsAppSettings {
  phoneNumberId: string | undefined;
  accessToken: string | undefined;
  appSecret: string | undefined;
  verifyToken: string | undefined;
  /** Graph API base with its version (https://graph.facebook.com/v23.0). */
  graphUrl: string;
  /** Approved utility templates for messages outside the 24-hour window, and their languages. */
  templates: { orderUpdate: string; paymentReceived: string; delivered: string };
  templateLanguages: { en: string; sw: string };
}

/** Africa's Talking SMS (issue 29): on with the username and the API key. */
export interface SmsSettings {
  username: string | undefined;
  apiKey: string | undefined;
  senderId: string | undefined;
  baseUrl: string;
  /** The secret last segment of the delivery-report path; without it the path answers 404. */
  callbackSecret: string | undefined;
  /** Addresses or CIDRs reports may come from; empty means any (the secret path still applies). */
  callbackIps: string[];
}

/** True when WhatsApp messages can be sent (the webhook checks its own secrets). */
export function whatsappOn(settings: Pick<Settings, 'whatsapp'>): boolean {
  return Boolean(settings.whatsapp.phoneNumberId && settings.whatsapp.accessToken);
}

/** True when SMS can be sent through Africa's Talking. */
export function smsOn(settings: Pick<Settings, 'sms'>): boolean {
  return Boolean(settings.sms.username && settings.sms.apiKey);
}

/** True when sales go to KRA eTIMS: the GavaConnect key and secret are set (PIN and serial come with them). */
/**
 * The database URL for whatever needs a session of its own: pg_dump and pg_restore. Through a pooler in
 * transaction mode pg_dump's session settings (`set_config('search_path', '', false)`, timeouts of 0)
 * would stay on a pooled connection the app then uses (CI saw the fleet map fail with 42P01 mid-backup).
 */
export function sessionDatabaseUrl(
  settings: Pick<Settings, 'databaseUrl' | 'databaseDirectUrl'>,
): string | undefined {
  return settings.databaseDirectUrl ?? settings.databaseUrl;
}

export function etimsOn(settings: Pick<Settings, 'etims'>): boolean {
  const e = settings.etims;
  return Boolean(e.consumerKey && e.consumerSecret && e.tin && e.deviceSerial);
}

/** True when the STK push can be offered: every setting it needs is present. */
export function stkReady(settings: Pick<Settings, 'publicUrl' | 'mpesa'>): boolean {
  const m = settings.mpesa;
  return Boolean(
    m.consumerKey && m.consumerSecret && m.shortcode && m.passkey && m.callbackSecret && settings.publicUrl,
  );
}

export class SettingsError extends Error {}

export const DISPATCH_HOURS = '06:30-19:00 daily, with overnight pours on request';

/** Reads the environment once. Every error names the variable and the fix. */
/** A process entry's settings: a wrong value ends the start with one line naming it (`what` says who). */
export function loadSettingsOrExit(what: string): Settings {
  try {
    return loadSettings();
  } catch (err) {
    if (err instanceof SettingsError) {
      console.error(`Cannot start${what}: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
}

export function loadSettings(env: Record<string, string | undefined> = process.env): Settings {
  // An empty variable (docker compose's `${X:-}`) means unset.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = ZEnv.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SettingsError(`Environment variable ${issue.path.join('.')} is invalid: ${issue.message}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  const mode = e.DATABASE_URL || e.REDIS_URL ? 'services' : 'embedded';
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL,
    databasePoolMax: { server: e.DATABASE_POOL_MAX, worker: e.WORKER_DATABASE_POOL_MAX },
    redisUrl: e.REDIS_URL,
    jwtSecret: resolveJwtSecret(e.JWT_SECRET, mode, dataDir),
    tokenTtl: e.TOKEN_TTL,
    adminEmail: e.ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    bodyLimit: e.BODY_LIMIT,
    trustProxy: e.TRUST_PROXY,
    mapTileUrl: e.MAP_TILE_URL,
    logLevel: e.LOG_LEVEL,
    yard: { name: e.YARD_NAME, lat: e.YARD_LAT, lng: e.YARD_LNG, radiusM: e.YARD_RADIUS_M },
    tracking: { siteRadiusM: e.SITE_RADIUS_M, showDriverPhone: e.TRACKING_DRIVER_PHONE === 'true' },
    dispatch: {
      phone: e.DISPATCH_PHONE,
      email: e.DISPATCH_EMAIL,
      // Without DISPATCH_WHATSAPP the dispatch phone's WhatsApp, when it is a mobile ('' when not).
      whatsapp: e.DISPATCH_WHATSAPP ?? whatsappLink(e.DISPATCH_PHONE) ?? '',
      hours: DISPATCH_HOURS,
    },
    paybillAccount: e.PAYBILL_ACCOUNT,
    geocoderUrl: e.GEOCODER_URL,
    osrmUrl: e.OSRM_URL,
    alerts: { stockLowTonnes: e.STOCK_LOW_TONNES, idleMinutes: e.IDLE_ALERT_MINUTES },
    trips: {
      allowanceCents: toCents(e.TRIP_ALLOWANCE_KES),
      cess: parseCess(e.COUNTY_CESS),
      window: parseWindow(e.TRANSPORT_WINDOW),
      windowText: e.TRANSPORT_WINDOW,
    },
    articleImageHosts: e.ARTICLE_IMAGE_HOSTS.split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    telegram: { token: e.TELEGRAM_BOT_TOKEN, apiRoot: e.TELEGRAM_API_ROOT },
    openai: { apiKey: e.OPENAI_API_KEY, baseUrl: e.OPENAI_BASE_URL, model: e.OPENAI_MODEL },
    workerConcurrency: e.WORKER_CONCURRENCY,
    idempotencyRetentionDays: e.IDEMPOTENCY_RETENTION_DAYS,
    uploadStorage: e.UPLOAD_STORAGE ?? (e.DATABASE_URL ? 'database' : 'files'),
    metrics: { token: e.METRICS_TOKEN, workerPort: e.METRICS_PORT },
    backup: {
      cron: e.BACKUP_CRON === 'off' ? null : e.BACKUP_CRON,
      keep: e.BACKUP_KEEP,
      dir: resolve(e.BACKUP_DIR ?? join(dataDir, 'backups')),
    },
    positionRetentionDays: e.POSITION_RETENTION_DAYS,
    activityRetentionDays: e.ACTIVITY_RETENTION_DAYS,
    mail: e.SMTP_URL && e.MAIL_FROM ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM } : null,
    publicUrl: e.PUBLIC_URL,
    mpesa: {
      baseUrl: e.MPESA_BASE_URL,
      consumerKey: e.MPESA_CONSUMER_KEY,
      consumerSecret: e.MPESA_CONSUMER_SECRET,
      shortcode: e.MPESA_SHORTCODE,
      passkey: e.MPESA_PASSKEY,
      callbackSecret: e.MPESA_CALLBACK_SECRET,
      validateAccount: e.MPESA_VALIDATE_ACCOUNT === 'true',
      callbackIps: e.MPESA_CALLBACK_IPS,
    },
    etims: {
      baseUrl: e.ETIMS_BASE_URL,
      tokenUrl: e.ETIMS_TOKEN_URL,
      consumerKey: e.ETIMS_CONSUMER_KEY,
      consumerSecret: e.ETIMS_CONSUMER_SECRET,
      tin: e.ETIMS_TIN,
      bhfId: e.ETIMS_BHF_ID,
      deviceSerial: e.ETIMS_DEVICE_SERIAL,
      vatRegistered: e.ETIMS_VAT_REGISTERED === 'true',
    },
    whatsapp: {
      phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
      accessToken: e.WHATSAPP_ACCESS_TOKEN,
      appSecret: e.WHATSAPP_APP_SECRET,
      verifyToken: e.WHATSAPP_VERIFY_TOKEN,
      graphUrl: e.WHATSAPP_GRAPH_URL,
      templates: {
        orderUpdate: e.WHATSAPP_TEMPLATE_ORDER_UPDATE,
        paymentReceived: e.WHATSAPP_TEMPLATE_PAYMENT_RECEIVED,
        delivered: e.WHATSAPP_TEMPLATE_DELIVERED,
      },
      templateLanguages: { en: e.WHATSAPP_TEMPLATE_LANG_EN, sw: e.WHATSAPP_TEMPLATE_LANG_SW },
    },
    sms: {
      username: e.AT_USERNAME,
      apiKey: e.AT_API_KEY,
      senderId: e.AT_SENDER_ID,
      baseUrl: e.AT_BASE_URL,
      callbackSecret: e.AT_CALLBACK_SECRET,
      callbackIps: e.AT_CALLBACK_IPS,
    },
    version: e.npm_package_version,
    mode,
  };
}

function resolveJwtSecret(value: string | undefined, mode: Settings['mode'], dataDir: string): Uint8Array {
  if (value) {
    if (Buffer.byteLength(value) < 32) {
      throw new SettingsError(
        'JWT_SECRET must be at least 32 bytes. Generate one with: openssl rand -base64 48',
      );
    }
    return new TextEncoder().encode(value);
  }
  if (mode === 'services') {
    throw new SettingsError(
      'JWT_SECRET is required when DATABASE_URL or REDIS_URL is set (every server instance must share it). Generate one with: openssl rand -base64 48',
    );
  }
  // Embedded mode: one machine, one secret, kept beside the database so tokens survive restarts.
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64'), { mode: 0o600 });
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}
