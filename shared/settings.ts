import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { type CessRule, parseCess, parseWindow } from './domain/trip-profit';

// Node-only (the server and the worker read it once at start); the client never imports it.

const optionalUrl = z.string().url().optional();
const number = (def: number, min = 0) => z.coerce.number().min(min).default(def);

/**
 * Every environment variable the server and the worker read, in one schema. Nothing else in the
 * project reads `process.env` (server/settings.test.ts fails if anything does); the README's table
 * lists each variable below.
 */
export const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
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
  DISPATCH_WHATSAPP: z.string().optional(),
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
  MPESA_CALLBACK_IPS: z
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
    }),
  npm_package_version: z.string().default('0.0.0'),
});

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
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
  /** Where the public reaches this server (https://mchanga.co.ke): callback URLs handed to providers. */
  publicUrl: string | undefined;
  mpesa: MpesaSettings;
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
      whatsapp: e.DISPATCH_WHATSAPP ?? `https://wa.me/${e.DISPATCH_PHONE.replace(/[^0-9]/g, '')}`,
      hours: DISPATCH_HOURS,
    },
    paybillAccount: e.PAYBILL_ACCOUNT,
    geocoderUrl: e.GEOCODER_URL,
    osrmUrl: e.OSRM_URL,
    alerts: { stockLowTonnes: e.STOCK_LOW_TONNES, idleMinutes: e.IDLE_ALERT_MINUTES },
    trips: {
      allowanceCents: Math.round(e.TRIP_ALLOWANCE_KES * 100),
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
