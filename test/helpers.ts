import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import postgres from 'postgres';
import { inject } from 'vitest';
import { toCtxUser } from '../core/access/actor';
import { createUser, issueSession } from '../core/auth/auth.service';
import {
  createLimiters,
  LIMIT_RULES,
  type LimiterStore,
  type Limiters,
  type LimitRule,
} from '../core/auth/rate-limit';
import { syncEtimsBranch } from '../core/etims/etims.service';
import { createDb, type Database } from '../drizzle/db';
import { drivers } from '../drizzle/schema';
import { buildApp } from '../server/app';
import { type AppDeps, type CtxUser, createInnerContext } from '../server/context';
import { createCaller } from '../server/router';
import type { Llm } from '../shared/ai/llm';
import type { JobQueue } from '../shared/jobs';
import { silentLogger } from '../shared/logger';
import type { Role } from '../shared/roles';
import type { Settings } from '../shared/settings';
import { InProcessRunner } from '../worker/transport/in-process';
import { withDatabase } from './global-db';
import { testSettings } from './settings';

export { testSettings } from './settings';

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

/**
 * A PGlite database in either run: for the embedded mode's own parts (the in-process runner), which production
 * only ever runs on PGlite. Fake timers cannot drive a socket to PostgreSQL, and they need not.
 */
export async function createEmbeddedTestDatabase(): Promise<Database> {
  const dump = inject('pgliteDump');
  return dump
    ? createDb({ loadDataDir: new Blob([readFileSync(dump)]), migrate: false })
    : createDb({ migrate: true });
}

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
  /** A REST call as a user (or anonymous), through the whole HTTP stack. */
  call(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    who?: SignedIn | null,
    payload?: unknown,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
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
    /** Where the limit counters live: the test database unless a test brings its own Redis. */
    limiterStore?: LimiterStore;
    jobs?: JobQueue;
    settings?: Partial<Settings>;
    llm?: Llm | null;
    /** Relay the outbox on a timer (default); off lets a test hold alerts back and relay by hand. */
    relayOutbox?: boolean;
    /** A database the test made itself (closed with the app); a fresh test database by default. */
    database?: Database;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const settings = testSettings(options.settings);
  await syncEtimsBranch(database.db, settings, new Date());
  const llm = options.llm ?? null;
  const runner = new InProcessRunner(
    { database, settings, llm, now: options.now ?? (() => new Date()), log: silentLogger },
    { schedules: false, ...(options.relayOutbox === false ? {} : { outboxIntervalMs: 50 }) },
  );
  const deps: AppDeps = {
    database,
    settings,
    jobs: options.jobs ?? runner,
    llm,
    limiters: createLimiters(options.limiterStore ?? { db: database.db }, {
      ...LIMIT_RULES,
      ...options.limits,
    }),
    log: silentLogger,
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
      const session = await issueSession(deps.settings, row);
      return {
        user: toCtxUser(row),
        token: session.token,
        headers: { authorization: `Bearer ${session.token}` },
      };
    },
    call(method, url, who, payload, headers) {
      return app.inject({
        method,
        url,
        headers: { ...(who?.headers ?? {}), ...headers },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
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
