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
  /**
   * Failed sign-ins to one account from anywhere: a higher ceiling against guessing from many addresses.
   * It slows, it does not lock: past it, an unknown browser and address gets loginPerAccountSlow's
   * attempts, and a known one (knownSignIns, core/auth/device.ts) is not held by it at all.
   */
  loginPerAccount: RateLimiterAbstract;
  /** Past the account's ceiling: the attempts an unknown browser at an unknown address still gets. */
  loginPerAccountSlow: RateLimiterAbstract;
  /** Failed sign-ins to one account from a browser that signed in to it before (its device cookie). */
  loginPerAccountDevice: RateLimiterAbstract;
  /** Not a limit: the account-and-address pairs that signed in successfully (remembered, not counted). */
  knownSignIns: RateLimiterAbstract;
  /** Wrong current passwords when a signed-in user changes theirs. */
  passwordPerUser: RateLimiterAbstract;
  registerPerIp: RateLimiterAbstract;
  /** Forgotten-password requests from one address, and for one e-mail address from anywhere. */
  passwordResetPerIp: RateLimiterAbstract;
  passwordResetPerEmail: RateLimiterAbstract;
  /** Guest orders: each writes an order and alerts every ADMIN and OPS chat. */
  guestOrderPerIp: RateLimiterAbstract;
  chatPerIp: RateLimiterAbstract;
  /** The public tracking link (the page asks every 15 s; an office may share one address). */
  trackPerIp: RateLimiterAbstract;
  /** M-Pesa PIN prompts to one phone number, whoever asks: a stranger's phone cannot be flooded. */
  stkPerPhone: RateLimiterAbstract;
  /** M-Pesa PIN prompts for one order, to any phone. */
  stkPerOrder: RateLimiterAbstract;
}

export interface LimitRule {
  points: number;
  duration: number;
}

export const LIMIT_RULES: Record<keyof Limiters, LimitRule> = {
  loginPerIp: { points: 60, duration: 15 * 60 },
  loginPerAccountIp: { points: 10, duration: 15 * 60 },
  loginPerAccount: { points: 50, duration: 15 * 60 },
  loginPerAccountSlow: { points: 1, duration: 60 },
  loginPerAccountDevice: { points: 10, duration: 15 * 60 },
  // 20 days: the memory counters' timers cannot run longer than 24.8 days.
  knownSignIns: { points: 1, duration: 20 * 24 * 3600 },
  passwordPerUser: { points: 10, duration: 15 * 60 },
  registerPerIp: { points: 20, duration: 60 * 60 },
  passwordResetPerIp: { points: 10, duration: 60 * 60 },
  passwordResetPerEmail: { points: 3, duration: 60 * 60 },
  guestOrderPerIp: { points: 30, duration: 60 * 60 },
  chatPerIp: { points: 30, duration: 60 },
  trackPerIp: { points: 120, duration: 60 },
  // A balance above KES 250,000 takes up to 3 prompts; 2 more allow a wrong PIN or a cancelled prompt.
  stkPerPhone: { points: 5, duration: 15 * 60 },
  stkPerOrder: { points: 5, duration: 15 * 60 },
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
    loginPerAccountSlow: make('loginPerAccountSlow'),
    loginPerAccountDevice: make('loginPerAccountDevice'),
    knownSignIns: make('knownSignIns'),
    passwordPerUser: make('passwordPerUser'),
    registerPerIp: make('registerPerIp'),
    passwordResetPerIp: make('passwordResetPerIp'),
    passwordResetPerEmail: make('passwordResetPerEmail'),
    guestOrderPerIp: make('guestOrderPerIp'),
    chatPerIp: make('chatPerIp'),
    trackPerIp: make('trackPerIp'),
    stkPerPhone: make('stkPerPhone'),
    stkPerOrder: make('stkPerOrder'),
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
  const { taken, refused } = await takeEach(checks);
  if (refused.length === 0) return;
  await giveBack(taken);
  throw new RateLimitedError(Math.max(...refused.map((r) => r.waitSeconds)));
}

/**
 * Takes a point from every limit at once and says which were spent (reserve, when the caller decides what
 * a spent limit means). A store that fails beyond its insurance gives the points back and throws.
 */
export async function takeEach(checks: readonly LimitCheck[]): Promise<{
  taken: LimitCheck[];
  refused: Array<{ check: LimitCheck; waitSeconds: number }>;
}> {
  const results = await Promise.allSettled(checks.map(([limiter, key]) => limiter.consume(key)));
  const taken = checks.filter((_, i) => results[i]!.status === 'fulfilled');
  const failed = results.find((r) => r.status === 'rejected' && !(r.reason instanceof RateLimiterRes));
  if (failed) {
    await giveBack(taken);
    throw (failed as PromiseRejectedResult).reason;
  }
  const refused = checks.flatMap((check, i) => {
    const r = results[i]!;
    return r.status === 'rejected' ? [{ check, waitSeconds: waitOf(r.reason as RateLimiterRes) }] : [];
  });
  return { taken, refused };
}

/** Remembers a key (knownSignIns) for `seconds`, waiting at most RELEASE_BUDGET_MS. */
export function remember([limiter, key]: LimitCheck, seconds: number): Promise<void> {
  return briefly([limiter.set(key, 1, seconds)]);
}

/** Whether a key is remembered; a store that cannot say (down, too slow) answers no. */
export async function remembered([limiter, key]: LimitCheck): Promise<boolean> {
  try {
    return Boolean(await limiter.get(key));
  } catch {
    return false;
  }
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

/** The 429 of a spent limit: Retry-After in seconds, the wait in minutes in the message. */
export function tooManyAttempts(retryAfterSeconds: number) {
  return appError(
    'TOO_MANY_REQUESTS',
    MESSAGES.tooManyAttempts(Math.ceil(retryAfterSeconds / 60)),
    undefined,
    {
      'retry-after': String(retryAfterSeconds),
    },
  );
}

/** Runs a limiter call; a spent limit answers 429 with Retry-After (sign-in, registration, guest orders). */
export async function limited<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof RateLimitedError) throw tooManyAttempts(err.retryAfterSeconds);
    throw err;
  }
}
