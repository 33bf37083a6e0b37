import 'fake-indexeddb/auto';
import { dehydrate, QueryClient, QueryObserver } from '@tanstack/react-query';
import { IDBFactory } from 'fake-indexeddb';
import { createStore, keys, set } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The staff member's kept screens' data (client/offline/persist.ts) on fake-indexeddb: a fresh database
// and a fresh module per test, a session in a memory localStorage, the page's document as a stub.

type Persist = typeof import('./persist');
type Outbox = typeof import('./outbox');

const DAY = 24 * 3600_000;
let now: number;

function signIn(email: string, role: string) {
  localStorage.setItem('token', `token-of-${email}`);
  localStorage.setItem('role', role);
  localStorage.setItem('userEmail', email);
}

async function load(): Promise<{ persist: Persist; outbox: Outbox }> {
  vi.resetModules();
  const persist = await import('./persist');
  const outbox = await import('./outbox');
  return { persist, outbox };
}

beforeEach(() => {
  const items = new Map<string, string>();
  vi.stubGlobal('indexedDB', new IDBFactory());
  vi.stubGlobal('localStorage', {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  });
  vi.stubGlobal('navigator', { onLine: false });
  vi.stubGlobal(
    'document',
    Object.assign(new EventTarget(), { visibilityState: 'visible', getElementById: () => null }),
  );
  now = Date.parse('2025-03-01T06:00:00Z');
  vi.spyOn(Date, 'now').mockImplementation(() => now);
  vi.useFakeTimers({ toFake: ['setTimeout'] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** A query client whose cache holds these answers, kept by persistQueries as the app does. */
async function keepAnswers(persist: Persist, answers: Record<string, unknown>) {
  const app = new QueryClient();
  const stop = persist.persistQueries(app);
  for (const [key, data] of Object.entries(answers)) app.setQueryData([key], data);
  await vi.advanceTimersByTimeAsync(1_000); // saved at most once a second
  stop();
  await vi.waitFor(async () => expect((await keys(createStore('mchanga-cache', 'queries'))).length).toBe(1));
}

async function restoredInto(persist: Persist) {
  const next = new QueryClient();
  await persist.restoreQueries(next);
  return next;
}

describe('restoreQueries', () => {
  it.each(['ADMIN', 'OPS', 'DRIVER', 'FUEL'])("brings back a %s's answers, marked stale", async (role) => {
    signIn('staff@mchanga.test', role);
    const { persist } = await load();
    await keepAnswers(persist, { loads: [{ id: 1 }], trucks: ['KDA 123A'] });

    const next = await restoredInto(persist);

    expect(next.getQueryData(['loads'])).toEqual([{ id: 1 }]);
    expect(next.getQueryData(['trucks'])).toEqual(['KDA 123A']);
    // painted at once, asked again when its screen mounts
    expect(next.getQueryState(['loads'])?.isInvalidated).toBe(true);
  });

  it("keeps nothing of a customer's", async () => {
    signIn('customer@mchanga.test', 'CUSTOMER');
    const { persist } = await load();
    const app = new QueryClient();
    const stop = persist.persistQueries(app);
    app.setQueryData(['orders'], [{ id: 9 }]);
    await vi.advanceTimersByTimeAsync(1_000);
    stop();
    expect(await keys(createStore('mchanga-cache', 'queries'))).toEqual([]);
    expect((await restoredInto(persist)).getQueryData(['orders'])).toBeUndefined();
  });

  it('keeps answers put into the cache before it started once a screen mounts them', async () => {
    signIn('ops@mchanga.test', 'OPS');
    const { persist } = await load();
    const app = new QueryClient();
    app.setQueryData(['loads'], [{ id: 7 }]); // the HTML's first data request, adopted before the first render
    const stop = persist.persistQueries(app);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await keys(createStore('mchanga-cache', 'queries'))).toEqual([]);
    const unmount = new QueryObserver(app, { queryKey: ['loads'], enabled: false }).subscribe(() => {});
    await vi.advanceTimersByTimeAsync(1_000);
    unmount();
    stop();
    await vi.waitFor(async () =>
      expect((await keys(createStore('mchanga-cache', 'queries'))).length).toBe(1),
    );
    expect((await restoredInto(persist)).getQueryData(['loads'])).toEqual([{ id: 7 }]);
  });

  it("gives one staff member nothing of another's", async () => {
    signIn('ops@mchanga.test', 'OPS');
    const { persist } = await load();
    await keepAnswers(persist, { loads: [{ id: 1 }] });
    signIn('driver@mchanga.test', 'DRIVER');
    expect((await restoredInto(persist)).getQueryData(['loads'])).toBeUndefined();
  });

  it.each([
    ['a week old', 7 * DAY, true],
    ['a week and a second old', 7 * DAY + 1_000, false],
  ])('restores answers %s: %s', async (_what, age, restored) => {
    signIn('ops@mchanga.test', 'OPS');
    const { persist } = await load();
    await keepAnswers(persist, { loads: [{ id: 1 }] });
    now += age;
    expect((await restoredInto(persist)).getQueryData(['loads'])).toEqual(restored ? [{ id: 1 }] : undefined);
  });

  it.each([
    ['this build', 'v1', true],
    ['an older build', 'v0', false],
  ])('restores a record of %s: %s', async (_what, buster, restored) => {
    signIn('ops@mchanga.test', 'OPS');
    const { persist } = await load();
    const earlier = new QueryClient();
    earlier.setQueryData(['loads'], [{ id: 1 }]);
    await set(
      'queries:ops@mchanga.test',
      { buster, savedAt: now, state: dehydrate(earlier) },
      createStore('mchanga-cache', 'queries'),
    );
    expect((await restoredInto(persist)).getQueryData(['loads'])).toEqual(restored ? [{ id: 1 }] : undefined);
  });

  it('keeps only answers that arrived (not errors, not pending)', async () => {
    signIn('ops@mchanga.test', 'OPS');
    const { persist } = await load();
    const app = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const stop = persist.persistQueries(app);
    app.setQueryData(['loads'], [{ id: 1 }]);
    await app.prefetchQuery({ queryKey: ['broken'], queryFn: () => Promise.reject(new Error('503')) });
    void app.prefetchQuery({ queryKey: ['pending'], queryFn: () => new Promise(() => {}) });
    await vi.advanceTimersByTimeAsync(1_000);
    stop();
    await vi.waitFor(async () =>
      expect((await keys(createStore('mchanga-cache', 'queries'))).length).toBe(1),
    );

    const next = await restoredInto(persist);
    expect(next.getQueryData(['loads'])).toEqual([{ id: 1 }]);
    expect(next.getQueryState(['broken'])).toBeUndefined();
    expect(next.getQueryState(['pending'])).toBeUndefined();
  });
});

describe('forgetDevice (Logout)', () => {
  it('keeps nothing again while Logout waits for the server, and keeps the next session again', async () => {
    signIn('ops@mchanga.test', 'OPS');
    const { persist } = await load();
    const app = new QueryClient();
    const stop = persist.persistQueries(app);
    app.setQueryData(['loads'], [{ id: 1 }]);
    await vi.advanceTimersByTimeAsync(1_000);
    const queries = createStore('mchanga-cache', 'queries');
    await vi.waitFor(async () => expect(await keys(queries)).toHaveLength(1));

    await persist.forgetDevice('ops@mchanga.test');
    // An answer arrives while Logout still holds the session (it is telling the server).
    app.setQueryData(['loads'], [{ id: 2 }]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await keys(queries)).toEqual([]);

    // The next sign-in (a new token) is kept again.
    localStorage.setItem('token', 'a-new-session');
    app.setQueryData(['loads'], [{ id: 3 }]);
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.waitFor(async () => expect(await keys(queries)).toEqual(['queries:ops@mchanga.test']));
    stop();
  });

  it("removes every kept answer record and that user's outbox, not another user's outbox", async () => {
    signIn('ops@mchanga.test', 'OPS');
    const { persist, outbox } = await load();
    await keepAnswers(persist, { loads: [{ id: 1 }] });
    await outbox.submitField('cost', { amount: 1 }, "ops' cost").catch(() => {});
    signIn('driver@mchanga.test', 'DRIVER');
    await set('queries:driver@mchanga.test', { buster: 'v1' }, createStore('mchanga-cache', 'queries'));
    await outbox.submitField('fuel', { litres: 1 }, "driver's fuel").catch(() => {});

    signIn('ops@mchanga.test', 'OPS');
    await persist.forgetDevice('ops@mchanga.test');

    expect(await keys(createStore('mchanga-cache', 'queries'))).toEqual([]);
    expect(outbox.outboxEntries()).toEqual([]);
    signIn('driver@mchanga.test', 'DRIVER');
    await outbox.refresh(false);
    expect(outbox.outboxEntries().map((e) => e.summary)).toEqual(["driver's fuel"]);
  });
});
