import { describe, expect, it } from 'vitest';
import { batchUrl, type FirstCall, type PrefetchedFirstData } from '../shared/first-data';
import { adoptingFetch, parseBatch, takeFirstAnswers } from './first-data';

const FUEL_CALLS: FirstCall[] = [{ path: 'telemetry.trucks' }, { path: 'fuel.list', input: { limit: 50 } }];
const AUTH = { authorization: 'Bearer tok-1' };

/** A network that answers every batch with one `{ result: { data: "<path> from network" } }` per call. */
function network() {
  const urls: string[] = [];
  const base = async (input: RequestInfo | URL) => {
    urls.push(String(input));
    const calls = parseBatch(String(input)) ?? [];
    return new Response(JSON.stringify(calls.map((c) => ({ result: { data: `${c.path} from network` } }))));
  };
  return { urls, base };
}

function prefetched(response: unknown, startedAt = 0): { __mchangaFirstData?: PrefetchedFirstData } {
  return {
    __mchangaFirstData: {
      url: batchUrl(FUEL_CALLS),
      authorization: AUTH.authorization,
      calls: FUEL_CALLS,
      startedAt,
      response: Promise.resolve(response),
    },
  };
}
const PREFETCHED_ANSWER = [{ result: { data: 'trucks from html' } }, { result: { data: 'logs from html' } }];

describe('parseBatch', () => {
  it('reads the calls of a tRPC GET batch, inputs by index', () => {
    expect(parseBatch(batchUrl(FUEL_CALLS))).toEqual(FUEL_CALLS);
    expect(parseBatch('/trpc/a.b,c.d?batch=1&input=%7B%7D')).toEqual([{ path: 'a.b' }, { path: 'c.d' }]);
    expect(parseBatch('/trpc/a.b?input=%7B%7D')).toBeNull();
    expect(parseBatch('/api/orders')).toBeNull();
    expect(parseBatch('/trpc/a?batch=1&input=not-json')).toBeNull();
  });
});

describe('adoptingFetch', () => {
  it('answers the same calls from the HTML’s request, in the order asked, once', async () => {
    const net = network();
    const scope = prefetched(PREFETCHED_ANSWER);
    const f = adoptingFetch(net.base, scope, () => 500);
    const asked = batchUrl([FUEL_CALLS[1]!, FUEL_CALLS[0]!]);
    const res = await f(asked, { headers: AUTH });
    expect(await res.json()).toEqual([PREFETCHED_ANSWER[1], PREFETCHED_ANSWER[0]]);
    expect(net.urls).toEqual([]);
    expect(scope.__mchangaFirstData).toBeUndefined();
    // The next request for the same calls is a refresh: the network.
    await f(asked, { headers: AUTH });
    expect(net.urls).toEqual([asked]);
  });

  it('fetches only the calls the HTML did not ask for, and merges the answers', async () => {
    const net = network();
    const f = adoptingFetch(net.base, prefetched(PREFETCHED_ANSWER), () => 500);
    const extra: FirstCall = { path: 'admin.trucks.list' };
    const res = await f(batchUrl([FUEL_CALLS[0]!, extra, FUEL_CALLS[1]!]), { headers: AUTH });
    expect(await res.json()).toEqual([
      PREFETCHED_ANSWER[0],
      { result: { data: 'admin.trucks.list from network' } },
      PREFETCHED_ANSWER[1],
    ]);
    expect(net.urls).toEqual([batchUrl([extra])]);
  });

  it('goes to the network for another token, another input, a late request, a POST or a failed prefetch', async () => {
    const cases: [Parameters<ReturnType<typeof adoptingFetch>>, unknown, number][] = [
      [[batchUrl(FUEL_CALLS), { headers: { authorization: 'Bearer other' } }], PREFETCHED_ANSWER, 500],
      [[batchUrl([{ path: 'fuel.list', input: { limit: 10 } }]), { headers: AUTH }], PREFETCHED_ANSWER, 500],
      [[batchUrl(FUEL_CALLS), { headers: AUTH }], PREFETCHED_ANSWER, 10_001],
      [[batchUrl(FUEL_CALLS), { method: 'POST', headers: AUTH }], PREFETCHED_ANSWER, 500],
      [[batchUrl(FUEL_CALLS), { headers: AUTH }], null, 500],
      [[batchUrl(FUEL_CALLS), { headers: AUTH }], { error: 'Too many requests.' }, 500],
    ];
    for (const [args, answer, now] of cases) {
      const net = network();
      const res = await adoptingFetch(net.base, prefetched(answer), () => now)(...args);
      const body = (await res.json()) as { result: { data: string } }[];
      expect(body.every((item) => item.result.data.endsWith('from network'))).toBe(true);
      expect(net.urls.at(-1)).toBe(args[0]);
    }
  });

  it('is the plain fetch when the HTML started nothing', async () => {
    const net = network();
    await adoptingFetch(net.base, {}, () => 0)(batchUrl(FUEL_CALLS), { headers: AUTH });
    expect(net.urls).toEqual([batchUrl(FUEL_CALLS)]);
  });
});

describe('takeFirstAnswers', () => {
  it('gives the answers that succeeded, each with its call, and takes the request (not adopted again)', async () => {
    const scope = prefetched([{ result: { data: 'trucks from html' } }, { error: { message: 'Forbidden' } }]);
    expect(await takeFirstAnswers(0, AUTH.authorization, scope, () => 500)).toEqual([
      { call: FUEL_CALLS[0], data: 'trucks from html' },
    ]);
    expect(scope.__mchangaFirstData).toBeUndefined();
    const net = network();
    await adoptingFetch(net.base, scope, () => 500)(batchUrl(FUEL_CALLS), { headers: AUTH });
    expect(net.urls).toEqual([batchUrl(FUEL_CALLS)]);
  });

  it('waits for an answer on its way at most waitMs, and then leaves it to adoptingFetch', async () => {
    let answer: (value: unknown) => void = () => {};
    const scope = prefetched(null);
    scope.__mchangaFirstData!.response = new Promise((resolve) => {
      answer = resolve;
    });
    setTimeout(() => answer(PREFETCHED_ANSWER), 20);
    expect(await takeFirstAnswers(1_000, AUTH.authorization, scope, () => 500)).toHaveLength(2);

    const late = prefetched(null);
    late.__mchangaFirstData!.response = new Promise(() => {});
    expect(await takeFirstAnswers(20, AUTH.authorization, late, () => 500)).toEqual([]);
    expect(late.__mchangaFirstData).toBeDefined();
  });

  it('gives nothing for another session, an answer too old, a failed request or none started', async () => {
    expect(
      await takeFirstAnswers(0, 'Bearer someone-else', prefetched(PREFETCHED_ANSWER), () => 500),
    ).toEqual([]);
    expect(await takeFirstAnswers(0, undefined, prefetched(PREFETCHED_ANSWER), () => 500)).toEqual([]);
    expect(
      await takeFirstAnswers(0, AUTH.authorization, prefetched(PREFETCHED_ANSWER), () => 10_001),
    ).toEqual([]);
    expect(await takeFirstAnswers(0, AUTH.authorization, prefetched(null), () => 500)).toEqual([]);
    expect(await takeFirstAnswers(0, AUTH.authorization, {}, () => 500)).toEqual([]);
  });
});
