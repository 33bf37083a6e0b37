import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import postgres from 'postgres';
import { inject } from 'vitest';
import { createDb, type Database } from '../drizzle/db';
import { drivers } from '../drizzle/schema';
import { buildApp } from '../server/app';
import { createLimiters, LIMIT_RULES, type Limiters, type LimitRule } from '../server/auth/rate-limit';
import type { Config } from '../server/config';
import { type AppDeps, type CtxUser, createInnerContext, toCtxUser } from '../server/context';
import { createUser, issueSession } from '../server/features/auth/auth.service';
import { createCaller } from '../server/router';
import type { JobQueue } from '../shared/jobs';
import type { Role } from '../shared/roles';
import { createHandlers } from '../worker/handlers';
import type { TelegramConfig } from '../worker/jobs/alert-telegram';
import { InProcessRunner } from '../worker/transport/in-process';
import { withDatabase } from './global-db';

/** A fresh, migrated database for one test file: PGlite from the run's dump, or a cloned PostgreSQL db. */
export async function createTestDatabase(): Promise<Database> {
  const template = inject('pgTemplate');
  const url = process.env.DATABASE_URL;
  if (template && url) {
    const name = `${template.replace('tpl', 't')}_${randomBytes(4).toString('hex')}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name} template ${template}`);
    await admin.end();
    return createDb({ databaseUrl: withDatabase(url, name), migrate: false, poolSize: 5 });
  }
  const dump = readFileSync(inject('pgliteDump'));
  return createDb({ loadDataDir: new Blob([dump]), migrate: false });
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: '/tmp/mchanga-test',
    databaseUrl: undefined,
    redisUrl: undefined,
    jwtSecret: new TextEncoder().encode('test-secret-that-is-long-enough-for-hs256-0123456789'),
    tokenTtl: '1h',
    adminEmail: undefined,
    adminPassword: undefined,
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    mapTileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    logLevel: 'silent',
    yard: { name: 'Juja Yard', lat: -1.099, lng: 37.014 },
    dispatch: {
      phone: '+254 700 000 000',
      email: 'dispatch@mchanga.co.ke',
      whatsapp: 'https://wa.me/254700000000',
      hours: '06:30-19:00 daily, with overnight pours on request',
    },
    paybillAccount: 'MCHANGA',
    geocoderUrl: undefined,
    osrmUrl: undefined,
    mode: 'embedded',
    ...overrides,
  };
}

const quietLog = { info() {}, warn() {}, error() {} };

export interface TestApp {
  deps: AppDeps;
  database: Database;
  jobs: InProcessRunner;
  app: Awaited<ReturnType<typeof buildApp>>;
  /** A signed-in user of the given role with a valid bearer token. */
  signIn(
    role: Role,
    overrides?: { email?: string; name?: string; driverId?: string | null },
  ): Promise<SignedIn>;
  /** The tRPC caller as a user (or anonymous), without HTTP. */
  caller(user?: CtxUser | null): ReturnType<typeof createCaller>;
  close(): Promise<void>;
}

export interface SignedIn {
  user: CtxUser;
  token: string;
  headers: { authorization: string };
}

let seq = 0;

export async function createTestApp(
  options: {
    now?: () => Date;
    limits?: Partial<Record<keyof Limiters, LimitRule>>;
    jobs?: JobQueue;
    config?: Partial<Config>;
    telegram?: TelegramConfig;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  // Handlers queue follow-up jobs (alert fan-out) on this same runner, bound once it exists.
  let late: InProcessRunner | undefined;
  const runner = new InProcessRunner(
    createHandlers({
      database,
      ...(options.now ? { now: options.now } : {}),
      ...(options.telegram ? { telegram: options.telegram } : {}),
      enqueue: (name, payload, opts) => late!.enqueue(name, payload, opts),
    }),
    { schedules: false },
  );
  late = runner;
  const deps: AppDeps = {
    database,
    config: testConfig(options.config),
    jobs: options.jobs ?? runner,
    limiters: createLimiters(undefined, { ...LIMIT_RULES, ...options.limits }),
    log: quietLog,
    now: options.now,
  };
  const app = await buildApp(deps);
  await app.ready();
  return {
    deps,
    database,
    jobs: runner,
    app,
    async signIn(role, overrides = {}) {
      seq += 1;
      const driverId =
        'driverId' in overrides ? overrides.driverId : role === 'DRIVER' ? `DRV-T${seq}` : null;
      if (driverId)
        await database.db
          .insert(drivers)
          .values({ id: driverId, name: `Driver ${seq}` })
          .onConflictDoNothing();
      const row = await createUser(database.db, {
        name: overrides.name ?? `${role[0]}${role.slice(1).toLowerCase()} User ${seq}`,
        email:
          overrides.email ?? `${role.toLowerCase()}${seq}-${randomBytes(3).toString('hex')}@example.co.ke`,
        phone: '0712345678',
        password: 'password123',
        role,
        driverId,
      });
      const session = await issueSession(deps.config, row);
      return {
        user: toCtxUser(row),
        token: session.token,
        headers: { authorization: `Bearer ${session.token}` },
      };
    },
    caller(user = null) {
      return createCaller({ ...createInnerContext(deps, user) });
    },
    async close() {
      await app.close();
      await runner.close();
      await database.close();
    },
  };
}
