import type { Redis } from 'ioredis';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';

/**
 * Login and registration limits. With Redis every server instance shares the counters; when Redis is
 * down the limiter falls back to per-process memory counters (deliberately: sign-in must keep working
 * while Redis recovers, and an attacker still meets a per-process limit).
 */
export interface Limiters {
  loginPerIp: RateLimiterAbstract;
  loginPerAccount: RateLimiterAbstract;
  registerPerIp: RateLimiterAbstract;
  chatPerIp: RateLimiterAbstract;
}

export interface LimitRule {
  points: number;
  duration: number;
}

export const LIMIT_RULES: Record<keyof Limiters, LimitRule> = {
  // Offices share one IP behind a router, so per-IP limits are looser than per-account ones.
  loginPerIp: { points: 60, duration: 15 * 60 },
  loginPerAccount: { points: 10, duration: 15 * 60 },
  registerPerIp: { points: 20, duration: 60 * 60 },
  chatPerIp: { points: 30, duration: 60 },
};

export function createLimiters(
  redis?: Redis,
  rules: Record<keyof Limiters, LimitRule> = LIMIT_RULES,
): Limiters {
  const make = (key: keyof Limiters): RateLimiterAbstract => {
    const memory = new RateLimiterMemory({ keyPrefix: `rl:${key}`, ...rules[key] });
    if (!redis) return memory;
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `rl:${key}`,
      ...rules[key],
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `rl-ins:${key}`, ...rules[key] }),
    });
  };
  return {
    loginPerIp: make('loginPerIp'),
    loginPerAccount: make('loginPerAccount'),
    registerPerIp: make('registerPerIp'),
    chatPerIp: make('chatPerIp'),
  };
}

export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('rate limited');
  }
}

/** Consumes a point; throws RateLimitedError with the wait when the limit is spent. */
export async function consume(limiter: RateLimiterAbstract, key: string, points = 1): Promise<void> {
  try {
    await limiter.consume(key, points);
  } catch (err) {
    if (err instanceof RateLimiterRes)
      throw new RateLimitedError(Math.max(1, Math.ceil(err.msBeforeNext / 1000)));
    throw err;
  }
}

/** Checks without consuming: is this key already over its limit? */
export async function assertNotBlocked(limiter: RateLimiterAbstract, key: string): Promise<void> {
  const res = await limiter.get(key);
  if (res && res.consumedPoints >= limiter.points) {
    throw new RateLimitedError(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
  }
}
