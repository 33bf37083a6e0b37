import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  REDIS_URL: z.string().url().optional(),
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
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  MAP_TILE_URL: z.string().default('https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  YARD_NAME: z.string().default('Juja Yard'),
  YARD_LAT: z.coerce.number().min(-90).max(90).default(-1.099),
  YARD_LNG: z.coerce.number().min(-180).max(180).default(37.014),
  DISPATCH_PHONE: z.string().default('+254 700 000 000'),
  DISPATCH_EMAIL: z.string().default('dispatch@mchanga.co.ke'),
  DISPATCH_WHATSAPP: z.string().optional(),
  PAYBILL_ACCOUNT: z.string().default('MCHANGA'),
  GEOCODER_URL: z.string().url().optional(),
  OSRM_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
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
  trustProxy: boolean;
  mapTileUrl: string;
  logLevel: string;
  yard: { name: string; lat: number; lng: number };
  dispatch: { phone: string; email: string; whatsapp: string; hours: string };
  paybillAccount: string;
  geocoderUrl: string | undefined;
  osrmUrl: string | undefined;
  /** `embedded` = PGlite + in-process jobs; `services` = PostgreSQL and/or Redis. */
  mode: 'embedded' | 'services';
}

export class ConfigError extends Error {}

/** Reads the environment. Every error names the variable and the fix. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (docker compose's `${X:-}`) means unset.
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = ZEnv.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Environment variable ${issue.path.join('.')} is invalid: ${issue.message}`);
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
    yard: { name: e.YARD_NAME, lat: e.YARD_LAT, lng: e.YARD_LNG },
    dispatch: {
      phone: e.DISPATCH_PHONE,
      email: e.DISPATCH_EMAIL,
      whatsapp: e.DISPATCH_WHATSAPP ?? `https://wa.me/${e.DISPATCH_PHONE.replace(/[^0-9]/g, '')}`,
      hours: '06:30-19:00 daily, with overnight pours on request',
    },
    paybillAccount: e.PAYBILL_ACCOUNT,
    geocoderUrl: e.GEOCODER_URL,
    osrmUrl: e.OSRM_URL,
    mode,
  };
}

function resolveJwtSecret(value: string | undefined, mode: Config['mode'], dataDir: string): Uint8Array {
  if (value) {
    if (Buffer.byteLength(value) < 32) {
      throw new ConfigError(
        'JWT_SECRET must be at least 32 bytes. Generate one with: openssl rand -base64 48',
      );
    }
    return new TextEncoder().encode(value);
  }
  if (mode === 'services') {
    throw new ConfigError(
      'JWT_SECRET is required when DATABASE_URL or REDIS_URL is set (every server instance must share it). Generate one with: openssl rand -base64 48',
    );
  }
  // Embedded mode: one machine, one secret, kept beside the database so tokens survive restarts.
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(48).toString('base64'), { mode: 0o600 });
  return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
}
