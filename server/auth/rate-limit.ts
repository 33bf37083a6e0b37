import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterDrizzle,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
} from 'rate-limiter-flexible';
import type { DbOrTx } from '../../drizzle/db';
import { rateLimits } from '../../drizzle/schema';
import { MESSAGES } from '../../shared/constants';
import { appError } from '../errors';

/**
 * Abuse limits. With Redis every server instance shares the counters; without it they live in the
 * database, so embedded mode keeps them across a restart. Every check is time-boxed (LIMIT_TIMEOUT_MS on
 * Redis): a store that is slow or down is passed over for per-process memory counters — sign-in must keep
 * working while Redis recovers, and an attacker still meets a per-process limit meanwhile.
 */
export interface Limiters {
  /** Failed sign-ins from one address (an office shares one, so it is the loosest). */
  loginPerIp: RateLimiterAbstract;
  /** Failed sign-ins to one account from one address: what locks a guesser out. */
  loginPerAccountIp: RateLimiterAbstract;
  /** Failed sign-ins to one account from anywhere: a higher ceiling against guessing from many addresses. */
  loginPerAccount: RateLimiterAbstract;
  /** Wrong current passwords when a signed-in user changes theirs. */
  passwordPerUser: RateLimiterAbstract;
  registerPerIp: RateLimiterAbstract;
  /** Guest orders: each writes an order and alerts every ADMIN and OPS chat. */
  guestOrderPerIp: RateLimiterAbstract;
  chatPerIp: RateLimiterAbstract;
  /** The public tracking link (the page asks every 15 s; an office may share one address). */
  trackPerIp: RateLimiterAbstract;
}

export interface LimitRule {
  points: number;
  duration: number;
}

export const LIMIT_RULES: Record<keyof Limiters, LimitRule> = {
  loginPerIp: { points: 60, duration: 15 * 60 },
  loginPerAccountIp: { points: 10, duration: 15 * 60 },
  loginPerAccount: { points: 50, duration: 15 * 60 },
  passwordPerUser: { points: 10, duration: 15 * 60 },
  registerPerIp: { points: 20, duration: 60 * 60 },
  guestOrderPerIp: { points: 30, duration: 60 * 60 },
  chatPerIp: { points: 30, duration: 60 },
  trackPerIp: { points: 120, duration: 60 },
};

/** The longest a limiter check may wait on Redis before the memory counters decide. */
export const LIMIT_TIMEOUT_MS = 250;
/**
 * The same for counters in the database. The request needs the database right after anyway, so a check
 * waiting for a pooled connection under load is not passed over (that would count it twice); only a
 * database that is away or stuck is.
 */
export const DB_LIMIT_TIMEOUT_MS = 5_000;
/** How long a request waits for a point to be given back (it goes on in the background after). */
const RELEASE_BUDGET_MS = 50;

/** Where the shared counters live: Redis (services mode), the database (no Redis), or nowhere (memory). */
export type LimiterStore = { redis: Redis } | { db: DbOrTx } | undefined;

export function createLimiters(
  store?: LimiterStore,
  rules: Record<keyof Limiters, LimitRule> = LIMIT_RULES,
  timeoutMs = store && 'db' in store ? DB_LIMIT_TIMEOUT_MS : LIMIT_TIMEOUT_MS,
): Limiters {
  const make = (key: keyof Limiters): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix: `rl:${key}`, ...rules[key] });
    if (!store) return memory;
    const shared =
      'redis' in store
        ? new RateLimiterRedis({
            storeClient: store.redis,
            keyPrefix: `rl:${key}`,
            rejectIfRedisNotReady: true,
            ...rules[key],
          })
        : new RateLimiterDrizzle({
            storeClient: store.db,
            schema: rateLimits,
            keyPrefix: `rl:${key}`,
            ...rules[key],
          });
    // The memory counters insure the wrapper, not the store: a stalled store never counts twice.
    return new RLWrapperTimeouts({ limiter: shared, timeoutMs, insuranceLimiter: memory });
  };
  return {
    loginPerIp: make('loginPerIp'),
    loginPerAccountIp: make('loginPerAccountIp'),
    loginPerAccount: make('loginPerAccount'),
    passwordPerUser: make('passwordPerUser'),
    registerPerIp: make('registerPerIp'),
    guestOrderPerIp: make('guestOrderPerIp'),
    chatPerIp: make('chatPerIp'),
    trackPerIp: make('trackPerIp'),
  };
}

export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('rate limited');
  }
}

const waitOf = (res: RateLimiterRes) => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

/** Consumes a point; throws RateLimitedError with the wait when the limit is spent. */
export async function consume(limiter: RateLimiterAbstract, key: string, points = 1): Promise<void> {
  try {
    await limiter.consume(key, points);
  } catch (err) {
    if (err instanceof RateLimiterRes) throw new RateLimitedError(waitOf(err));
    throw err;
  }
}

export type LimitCheck = readonly [limiter: RateLimiterAbstract, key: string];

/**
 * Takes a point from every limit at once (one time-boxed wait, not one per limit). When any is spent the
 * others get theirs back and RateLimitedError carries the longest wait. Reserving before the attempt (and
 * giving back what a success does not count) keeps racing requests from slipping past a limit.
 */
export async function reserve(checks: readonly LimitCheck[]): Promise<void> {
  const results = await Promise.allSettled(checks.map(([limiter, key]) => limiter.consume(key)));
  const refused = results.flatMap((r) =>
    r.status === 'rejected' && r.reason instanceof RateLimiterRes ? [r.reason] : [],
  );
  const failed = results.find((r) => r.status === 'rejected' && !(r.reason instanceof RateLimiterRes));
  if (refused.length === 0 && !failed) return;
  await giveBack(checks.filter((_, i) => results[i]!.status === 'fulfilled'));
  if (refused.length) throw new RateLimitedError(Math.max(...refused.map(waitOf)));
  throw (failed as PromiseRejectedResult).reason;
}

/** Gives the reserved points back (an attempt that does not count), waiting at most RELEASE_BUDGET_MS. */
export function giveBack(checks: readonly LimitCheck[]): Promise<void> {
  return briefly(checks.map(([limiter, key]) => limiter.reward(key)));
}

/** Forgets a key's count (a correct password clears its guesses), waiting at most RELEASE_BUDGET_MS. */
export function forget(checks: readonly LimitCheck[]): Promise<void> {
  return briefly(checks.map(([limiter, key]) => limiter.delete(key)));
}

async function briefly(work: Promise<unknown>[]): Promise<void> {
  const all = Promise.allSettled(work);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    all,
    new Promise((resolve) => {
      timer = setTimeout(resolve, RELEASE_BUDGET_MS);
    }),
  ]);
  clearTimeout(timer);
}

function tooMany(err: RateLimitedError) {
  return appError(
    'TOO_MANY_REQUESTS',
    MESSAGES.tooManyAttempts(Math.ceil(err.retryAfterSeconds / 60)),
    undefined,
    {
      'retry-after': String(err.retryAfterSeconds),
    },
  );
}

/** Runs a limiter call; a spent limit answers 429 with Retry-After (sign-in, registration, guest orders). */
export async function limited<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RateLimitedError) throw tooMany(err);
    throw err;
  }
}
