import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { DbOrTx } from '../../drizzle/db';
import * as q from './telemetry.queries';

const DEVICE_CACHE_MS = 5_000;

/**
 * Device id → truck id, refreshed every few seconds, and at once for an id it does not know (so a device
 * an admin just set works at once); DeviceGuard bounds how often an address can make it look.
 */
export class DeviceDirectory {
  private map = new Map<string, string>();
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  constructor(private readonly db: DbOrTx) {}

  async truckFor(deviceId: string): Promise<string | undefined> {
    if (Date.now() - this.loadedAt > DEVICE_CACHE_MS || !this.map.has(deviceId)) await this.reload();
    return this.map.get(deviceId);
  }

  private reload(): Promise<void> {
    this.loading ??= q
      .deviceTrucks(this.db)
      .then((rows) => {
        this.map = new Map(rows.map((r) => [r.device_id, r.id]));
        this.loadedAt = Date.now();
      })
      .finally(() => {
        this.loading = undefined;
      });
    return this.loading;
  }
}

export interface GuessRule {
  /** Unknown-device answers an address may get per window. */
  points: number;
  /** The window, in seconds. */
  duration: number;
}

/** A mistyped id shows its 404 many times over before this; a guesser gets 20 tries per quarter hour. */
export const UNKNOWN_DEVICE_RULE: GuessRule = { points: 20, duration: 15 * 60 };
const REMEMBERED_MAX = 20_000;

export class TooManyGuesses extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('too many unknown device ids');
  }
}

/**
 * Device-id guessing, limited per address. Each unknown-device answer (404) costs the address a point;
 * once its points are spent, the address gets 429 for every device id, known or not, before any lookup,
 * so a guess past the limit learns nothing (no 404/200 oracle). Devices that were accepted from that
 * address within the window keep working, so a misconfigured phone does not cut off the trucks that
 * share its office Wi-Fi or mobile carrier's address.
 *
 * Counters live in this process (a stalled Redis never holds a tracker); with several servers an address
 * meets the limit on each.
 */
export class DeviceGuard {
  private readonly unknown: RateLimiterMemory;
  /** `address\ndevice` → when it was last accepted from there. */
  private readonly accepted = new Map<string, number>();

  constructor(private readonly rule: GuessRule = UNKNOWN_DEVICE_RULE) {
    this.unknown = new RateLimiterMemory({ keyPrefix: 'telemetry-unknown', ...rule });
  }

  /** Throws TooManyGuesses when the address has spent its points and any of these devices is new to it. */
  async check(ip: string, deviceIds: string[]): Promise<void> {
    const res = await this.unknown.get(ip);
    if (!res || res.consumedPoints < this.rule.points) return;
    const since = Date.now() - this.rule.duration * 1000;
    if (deviceIds.every((id) => (this.accepted.get(`${ip}\n${id}`) ?? 0) > since)) return;
    throw new TooManyGuesses(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
  }

  /** An unknown-device answer: costs the address a point per unknown id. */
  async missed(ip: string, count: number): Promise<void> {
    await this.unknown.penalty(ip, count);
  }

  /** Known devices, accepted from this address. */
  known(ip: string, deviceIds: string[]) {
    const now = Date.now();
    for (const id of deviceIds) {
      const key = `${ip}\n${id}`;
      this.accepted.delete(key);
      this.accepted.set(key, now);
    }
    while (this.accepted.size > REMEMBERED_MAX) this.accepted.delete(this.accepted.keys().next().value!);
  }
}
