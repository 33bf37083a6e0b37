import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMIT_TIMEOUT_MS, reserve } from '../../../core/auth/rate-limit';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { privateRedis } from '../../../test/redis-server';
import { until } from '../../../test/until';

const redisUrl = process.env.REDIS_URL;

/**
 * Sign-in, registration and chat with their limits on a private Redis that the test pauses (CLIENT PAUSE:
 * a stalled Redis) and stops. They answer within the limiter's time-box plus their own work, and the limits
 * keep applying per process meanwhile.
 */
describe.skipIf(!redisUrl)('limits on a Redis that stalls or stops', () => {
  let redis: Awaited<ReturnType<typeof privateRedis>>;
  let client: Redis;
  let t: TestApp;
  let seq = 0;

  beforeAll(async () => {
    redis = await privateRedis();
    await redis.start();
    // As server/main.ts builds it.
    client = new Redis(redis.url, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    client.on('error', () => {});
    t = await createTestApp({
      limiterStore: { redis: client },
      limits: {
        loginPerIp: { points: 3, duration: 600 },
        registerPerIp: { points: 3, duration: 600 },
        chatPerIp: { points: 3, duration: 600 },
      },
    });
    const owner = await post('/api/auth/register', '10.20.0.1', {
      name: 'Stall Owner',
      email: 'stall@example.co.ke',
      password: 'right-pass',
    });
    expect(owner.statusCode).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    client?.disconnect();
    await redis?.stop();
  });

  async function post(url: string, ip: string, payload: object) {
    const start = performance.now();
    const res = await t.app.inject({ method: 'POST', url, remoteAddress: ip, payload });
    return { statusCode: res.statusCode, ms: performance.now() - start };
  }
  const signIn = (ip: string, password = 'right-pass') =>
    post('/api/auth/login', ip, { email: 'stall@example.co.ke', password });
  const register = (ip: string) =>
    post('/api/auth/register', ip, {
      name: 'New Customer',
      email: `stall-${++seq}-${Date.now()}@example.co.ke`,
      password: 'password123',
    });
  const chat = (ip: string) =>
    post('/api/chatbot', ip, { messages: [{ role: 'user', content: 'What are your hours?' }] });

  /** Each call's own work, measured while Redis answers (the slowest of three). */
  async function ownWork(net: string) {
    await until(async () => client.status === 'ready', 10_000, 'the limiter to reach Redis');
    const worst = async (call: () => Promise<{ ms: number }>) =>
      Math.max(...[await call(), await call(), await call()].map((r) => r.ms));
    return {
      signIn: await worst(() => signIn(`${net}.1`)),
      register: await worst(() => register(`${net}.2`)),
      chat: await worst(() => chat(`${net}.3`)),
    };
  }

  async function checkWhileBroken(label: string, base: Awaited<ReturnType<typeof ownWork>>, net: string) {
    // The limiter itself waits no longer than its time-box.
    const start = performance.now();
    await reserve([[t.deps.limiters.chatPerIp, `${net}.9`]]);
    const limiterMs = performance.now() - start;
    const ok = {
      signIn: await signIn(`${net}.1`),
      register: await register(`${net}.2`),
      chat: await chat(`${net}.3`),
    };
    console.info(
      `${label}: limiter ${limiterMs.toFixed(0)} ms; sign-in ${ok.signIn.ms.toFixed(0)} ms (healthy ${base.signIn.toFixed(0)}), registration ${ok.register.ms.toFixed(0)} ms (healthy ${base.register.toFixed(0)}), chat ${ok.chat.ms.toFixed(0)} ms (healthy ${base.chat.toFixed(0)})`,
    );
    expect(limiterMs).toBeLessThan(LIMIT_TIMEOUT_MS + 100); // timers run late on a busy machine
    expect([ok.signIn.statusCode, ok.register.statusCode, ok.chat.statusCode]).toEqual([200, 201, 200]);
    // The time-box, a point given back (at most 50 ms), and slack for argon2's own variance on a busy machine.
    const budget = LIMIT_TIMEOUT_MS + 50 + 250;
    expect(ok.signIn.ms).toBeLessThan(base.signIn + budget);
    expect(ok.register.ms).toBeLessThan(base.register + budget);
    expect(ok.chat.ms).toBeLessThan(base.chat + budget);

    // The limits still hold, from this process's memory counters.
    const failures = [];
    for (let i = 0; i < 4; i++) failures.push((await signIn(`${net}.4`, 'wrong-pass')).statusCode);
    expect(failures).toEqual([401, 401, 401, 429]);
    const registrations = [];
    for (let i = 0; i < 4; i++) registrations.push((await register(`${net}.5`)).statusCode);
    expect(registrations).toEqual([201, 201, 201, 429]);
    const questions = [];
    for (let i = 0; i < 4; i++) questions.push((await chat(`${net}.6`)).statusCode);
    expect(questions).toEqual([200, 200, 200, 429]);
  }

  it('a stopped Redis holds no sign-in, registration or chat', async () => {
    const base = await ownWork('10.20.1');
    await redis.stop();
    try {
      await checkWhileBroken('Redis stopped', base, '10.21.0');
    } finally {
      await redis.start();
    }
  });

  it('nor does a paused one beyond the time-box', async () => {
    const base = await ownWork('10.20.2');
    // Long enough for every call below; the file ends with it (Redis cannot be unpaused early).
    await redis.pause(20_000);
    await checkWhileBroken('Redis paused', base, '10.22.0');
  });
});
