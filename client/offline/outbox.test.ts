import 'fake-indexeddb/auto';
import { TRPCClientError } from '@trpc/client';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The device outbox (client/offline/outbox.ts) without a screen: IndexedDB is fake-indexeddb (a new,
// empty database per test), the server is a scripted fetch, and each test loads a fresh copy of the
// module (its snapshot, its draining flag). Two copies loaded on one database are two tabs.

type Outbox = typeof import('./outbox');

// ── the server: answers scripted per test ──────────────────────────────────────────────────────────

type Answer = { status: number; body: unknown } | 'offline';

interface Request {
  path: string;
  input: Record<string, unknown>;
  key: string | null;
  auth: string | null;
}

const saved = (data: unknown): Answer => ({ status: 200, body: { result: { data } } });
/** A procedure's refusal, shaped as server/trpc.ts's errorFormatter shapes it. */
const refused = (status: number, message: string, details?: unknown): Answer => ({
  status,
  body: { error: { message, code: -32600, data: { code: 'X', httpStatus: status, path: 'p', details } } },
});
const duplicateAnswer = (message: string, existing: unknown) =>
  refused(409, message, { duplicate: true, message, existing });

let answers: Answer[];
let requests: Request[];

async function fakeFetch(url: string | URL | globalThis.Request, init?: RequestInit): Promise<Response> {
  const headers = new Headers(init?.headers);
  requests.push({
    path: String(url).replace(/^\/trpc\//, ''),
    input: JSON.parse(String(init?.body)) as Record<string, unknown>,
    key: headers.get('idempotency-key'),
    auth: headers.get('authorization'),
  });
  const answer = answers.shift();
  if (!answer) throw new Error(`No answer scripted for request ${requests.length}`);
  if (answer === 'offline') throw new TypeError('Failed to fetch');
  return new Response(JSON.stringify(answer.body), {
    status: answer.status,
    headers: { 'content-type': 'application/json' },
  });
}

// ── the browser: what the module touches ───────────────────────────────────────────────────────────

const navigatorStub = { onLine: true };

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, String(v)),
    removeItem: (k: string) => void items.delete(k),
    clear: () => items.clear(),
  };
}

/** BroadcastChannel between the module copies of one test (its tabs). */
class FakeChannel {
  static open = new Set<FakeChannel>();
  private listeners: ((event: { data: unknown }) => void)[] = [];
  constructor(readonly name: string) {
    FakeChannel.open.add(this);
  }
  addEventListener(_type: 'message', listener: (event: { data: unknown }) => void) {
    this.listeners.push(listener);
  }
  postMessage(data: unknown) {
    for (const other of FakeChannel.open)
      if (other !== this && other.name === this.name)
        for (const l of other.listeners) queueMicrotask(() => l({ data }));
  }
}

class FakeFileReader {
  result: string | null = null;
  error: unknown = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readAsDataURL(blob: Blob) {
    void blob.arrayBuffer().then((buffer) => {
      this.result = `data:${blob.type};base64,${Buffer.from(buffer).toString('base64')}`;
      this.onload?.();
    });
  }
}

function signIn(email: string, role = 'DRIVER') {
  localStorage.setItem('token', `token-of-${email}`);
  localStorage.setItem('role', role);
  localStorage.setItem('userName', 'Wanjiru Kamau');
  localStorage.setItem('userEmail', email);
}

/** A fresh copy of the module: another tab, or the app after a reload, on the same database. */
async function openTab(): Promise<Outbox> {
  vi.resetModules();
  return import('./outbox');
}

/** Fails the test on a drain that swallowed an error (drain() logs and carries on). */
let warn: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  answers = [];
  requests = [];
  navigatorStub.onLine = true;
  FakeChannel.open.clear();
  vi.stubGlobal('indexedDB', new IDBFactory());
  vi.stubGlobal('fetch', fakeFetch);
  vi.stubGlobal('navigator', navigatorStub);
  vi.stubGlobal('localStorage', memoryStorage());
  vi.stubGlobal('BroadcastChannel', FakeChannel);
  vi.stubGlobal('FileReader', FakeFileReader);
  // Entries are ordered by createdAt: a clock that moves on every read keeps that order certain.
  let now = Date.parse('2025-03-01T06:00:00Z');
  vi.spyOn(Date, 'now').mockImplementation(() => (now += 1_000));
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  signIn('driver@mchanga.test');
});

afterEach(() => {
  expect(answers, 'every scripted answer was used').toEqual([]);
  expect(warn).not.toHaveBeenCalled();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** Enters writes while offline, so they wait; returns them in the order entered. */
async function queueOffline(outbox: Outbox, ...summaries: string[]) {
  navigatorStub.onLine = false;
  const queued = [];
  for (const summary of summaries) {
    const err = await outbox
      .submitField('cost', { amount: summary.length, note: summary }, summary)
      .catch((e: unknown) => e);
    expect(outbox.isQueued(err)).toBe(true);
    queued.push((err as InstanceType<Outbox['QueuedOffline']>).entry);
  }
  navigatorStub.onLine = true;
  return queued;
}

/**
 * drain() and then the list as the screens see it: drain() refreshes the list after it resolves
 * (`void refresh()` in its finally), so the test reads it once more itself.
 */
async function drain(outbox: Outbox) {
  await outbox.drain();
  await outbox.refresh(false);
}

const view = (outbox: Outbox) =>
  outbox.outboxEntries().map((e) => ({ summary: e.summary, status: e.status, attempts: e.attempts }));

// ── submitting from a screen ───────────────────────────────────────────────────────────────────────

describe('submitField', () => {
  it('sends at once when online, with the token and an idempotency key, and keeps nothing', async () => {
    const outbox = await openTab();
    const sent = vi.fn();
    outbox.onOutboxSent(sent);
    answers.push(saved({ id: 7 }));

    const result = await outbox.submitField('fuel', { truckId: 'T1', litres: 80, cost: 14_000 }, '80 L');

    expect(result).toEqual({ id: 7 });
    expect(requests).toEqual([
      {
        path: 'fuel.create',
        input: { truckId: 'T1', litres: 80, cost: 14_000 },
        key: expect.stringMatching(/^[0-9a-f-]{36}$/),
        auth: 'Bearer token-of-driver@mchanga.test',
      },
    ]);
    expect(outbox.outboxEntries()).toEqual([]);
    expect(sent).toHaveBeenCalledWith(expect.objectContaining({ kind: 'fuel', summary: '80 L' }), { id: 7 });
  });

  it.each([
    ['cost', 'admin.costs.create'],
    ['stock', 'admin.stock.receipt'],
    ['profile', 'driver.updateProfile'],
    ['move', 'admin.orders.setAssignmentStatus'],
    ['assign', 'admin.orders.addAssignment'],
  ] as const)('sends a %s entry to %s', async (kind, path) => {
    const outbox = await openTab();
    answers.push(saved(null));
    await outbox.submitField(kind, { a: 1 }, 'x');
    expect(requests.map((r) => r.path)).toEqual([path]);
  });

  it('keeps one entry for a load move tapped twice offline, and says which state each load is meant to reach', async () => {
    const outbox = await openTab();
    navigatorStub.onLine = false;
    const first = await outbox
      .submitField('move', { id: 5, status: 'IN_TRANSIT' }, 'load 5')
      .catch((e: unknown) => e);
    const second = await outbox
      .submitField('move', { id: 5, status: 'IN_TRANSIT' }, 'load 5')
      .catch((e: unknown) => e);
    expect(outbox.isQueued(first) && outbox.isQueued(second)).toBe(true);
    expect((second as InstanceType<Outbox['QueuedOffline']>).entry.key).toBe(
      (first as InstanceType<Outbox['QueuedOffline']>).entry.key,
    );
    // The next move of the same load, and a move of another load, are entries of their own.
    await outbox.submitField('move', { id: 5, status: 'ARRIVED' }, 'load 5').catch(() => undefined);
    await outbox.submitField('move', { id: 6, status: 'IN_TRANSIT' }, 'load 6').catch(() => undefined);
    expect(view(outbox).map((e) => e.summary)).toEqual(['load 5', 'load 5', 'load 6']);
    expect(outbox.queuedMoves(outbox.outboxEntries())).toEqual(
      new Map([
        [5, 'ARRIVED'],
        [6, 'IN_TRANSIT'],
      ]),
    );
    navigatorStub.onLine = true;
    answers.push(saved(null), saved(null), saved(null));
    await drain(outbox);
    expect(requests.map((r) => `${r.path} ${JSON.stringify(r.input)}`)).toEqual([
      'admin.orders.setAssignmentStatus {"id":5,"status":"IN_TRANSIT"}',
      'admin.orders.setAssignmentStatus {"id":5,"status":"ARRIVED"}',
      'admin.orders.setAssignmentStatus {"id":6,"status":"IN_TRANSIT"}',
    ]);
    expect(outbox.outboxEntries()).toEqual([]);
  });

  it('keeps the entry without sending when the phone is offline', async () => {
    const outbox = await openTab();
    navigatorStub.onLine = false;

    const err = await outbox.submitField('cost', { amount: 500 }, 'Tyre repair').catch((e: unknown) => e);

    expect(outbox.isQueued(err)).toBe(true);
    const queued = err as InstanceType<Outbox['QueuedOffline']>;
    expect(queued.offline).toBe(true);
    expect(queued.message).toBe(outbox.OUTBOX_MESSAGES.queued('cost'));
    expect(requests).toEqual([]);
    expect(view(outbox)).toEqual([{ summary: 'Tyre repair', status: 'waiting', attempts: 0 }]);
    // The screen's text comes from the catalog, keyed by why it waits.
    const t = (key: string, values?: { what: string }) => (values ? `${key}(${values.what})` : key);
    expect(outbox.queuedText(queued, t)).toBe('outbox.queued(outbox.what.cost)');
  });

  it.each([
    ['no answer', 'offline' as const],
    ['a 500', refused(500, 'Internal error')],
    ['a 503 (a dependency down)', refused(503, 'The database is unavailable.')],
    ['a 401 (the session gone)', refused(401, 'Sign in again.')],
    ['a 429', refused(429, 'Too many requests.')],
  ])('keeps the entry, waiting, after %s', async (_what, answer) => {
    const outbox = await openTab();
    answers.push(answer);

    const err = await outbox.submitField('cost', { amount: 500 }, 'Tyre repair').catch((e: unknown) => e);

    expect(outbox.isQueued(err)).toBe(true);
    const queued = err as InstanceType<Outbox['QueuedOffline']>;
    expect(queued.offline).toBe(false);
    expect(queued.message).toBe(outbox.OUTBOX_MESSAGES.notSent('cost'));
    expect(view(outbox)).toEqual([{ summary: 'Tyre repair', status: 'waiting', attempts: 1 }]);
  });

  it.each([
    ['a 400', refused(400, 'Amount must be positive.')],
    ['a 403', refused(403, 'Not allowed.')],
    ['a 409 duplicate', duplicateAnswer('A cost like this was entered today.', { id: 3 })],
    ['a 413 from before tRPC', { status: 413, body: { error: 'The request is too large.' } }],
  ])('gives %s back to the screen (its form still holds the input) and keeps nothing', async (_w, answer) => {
    const outbox = await openTab();
    answers.push(answer);

    const err = await outbox.submitField('cost', { amount: -1 }, 'Bad').catch((e: unknown) => e);

    expect(err).toBeInstanceOf(TRPCClientError);
    expect(outbox.isQueued(err)).toBe(false);
    expect(outbox.outboxEntries()).toEqual([]);
  });

  it('keeps a fuel photo as a Blob and sends it back as the data URL it came as', async () => {
    const outbox = await openTab();
    const photoData = `data:image/jpeg;base64,${Buffer.from('a tiny jpeg').toString('base64')}`;
    navigatorStub.onLine = false;

    await outbox.submitField('fuel', { truckId: 'T1', photoData }, '80 L').catch(() => {});

    const [entry] = outbox.outboxEntries();
    expect(entry?.input).toEqual({ truckId: 'T1' });
    expect(entry?.photo).toBeInstanceOf(Blob);
    expect(entry?.photo?.type).toBe('image/jpeg');

    navigatorStub.onLine = true;
    answers.push(saved({ id: 1 }));
    await drain(outbox);
    expect(requests[0]?.input).toEqual({ truckId: 'T1', photoData });
  });

  it('refuses without a session', async () => {
    localStorage.clear();
    const outbox = await openTab();
    await expect(outbox.submitField('cost', {}, 'x')).rejects.toThrow('Sign in first.');
  });
});

// ── draining the queue ─────────────────────────────────────────────────────────────────────────────

describe('drain', () => {
  it('sends waiting entries oldest first, each once, and empties the queue', async () => {
    const outbox = await openTab();
    const queued = await queueOffline(outbox, 'first', 'second', 'third');
    const sent = vi.fn();
    outbox.onOutboxSent(sent);
    answers.push(saved(1), saved(2), saved(3));

    await drain(outbox);

    expect(requests.map((r) => r.input.note)).toEqual(['first', 'second', 'third']);
    expect(requests.map((r) => r.key)).toEqual(queued.map((e) => e.key));
    expect(sent.mock.calls.map(([entry, result]) => [entry.summary, result])).toEqual([
      ['first', 1],
      ['second', 2],
      ['third', 3],
    ]);
    expect(outbox.outboxEntries()).toEqual([]);
  });

  it.each([
    ['no answer', 'offline' as const],
    ['a 500', refused(500, 'Internal error')],
    ['a 503', refused(503, 'The database is unavailable.')],
  ])('stops at %s, keeps everything in order, and retries with the same key', async (_what, answer) => {
    const outbox = await openTab();
    const [first] = await queueOffline(outbox, 'first', 'second');
    answers.push(answer);

    await drain(outbox);

    expect(requests).toHaveLength(1); // the second is not tried behind a failed first
    expect(view(outbox)).toEqual([
      { summary: 'first', status: 'waiting', attempts: 1 },
      { summary: 'second', status: 'waiting', attempts: 0 },
    ]);

    answers.push(answer);
    await drain(outbox);
    expect(view(outbox)[0]).toEqual({ summary: 'first', status: 'waiting', attempts: 2 });

    answers.push(saved('ok'), saved('ok'));
    await drain(outbox);
    // Three sends of the first entry, one key: the server records it once (server/idempotency.ts).
    expect(requests.map((r) => [r.input.note, r.key])).toEqual([
      ['first', first?.key],
      ['first', first?.key],
      ['first', first?.key],
      ['second', expect.any(String)],
    ]);
    expect(requests[3]?.key).not.toBe(first?.key);
    expect(outbox.outboxEntries()).toEqual([]);
  });

  it("marks a 409 duplicate 'duplicate' with the server's earlier entry, and goes on with the rest", async () => {
    const outbox = await openTab();
    await queueOffline(outbox, 'fuel twice', 'next');
    const existing = { id: 41, litres: 80, createdAt: '2025-03-01T05:00:00.000Z' };
    answers.push(duplicateAnswer('This fuel log looks like one entered 1 hour ago.', existing), saved(2));

    await drain(outbox);

    const [entry] = outbox.outboxEntries();
    expect(outbox.outboxEntries()).toHaveLength(1);
    expect(entry).toMatchObject({
      summary: 'fuel twice',
      status: 'duplicate',
      attempts: 1,
      lastError: 'This fuel log looks like one entered 1 hour ago.',
      duplicate: { message: 'This fuel log looks like one entered 1 hour ago.', existing },
    });
    // Left for the user's choice on its screen: a later drain does not send it again.
    await drain(outbox);
    expect(requests).toHaveLength(2);
  });

  it.each([
    ['a 400', refused(400, 'Litres must be at most 1000.'), 'Litres must be at most 1000.'],
    ['a 403', refused(403, 'This truck is not yours.'), 'This truck is not yours.'],
    ['a 404', refused(404, 'Order not found.'), 'Order not found.'],
    // A 409 that is not a duplicate (e.g. a load already delivered) needs the user too.
    ['a plain 409', refused(409, 'This load is already delivered.'), 'This load is already delivered.'],
  ])("marks %s 'needs attention' with the server's message, and goes on", async (_w, answer, message) => {
    const outbox = await openTab();
    await queueOffline(outbox, 'refused', 'next');
    answers.push(answer, saved(2));

    await drain(outbox);

    expect(outbox.outboxEntries()).toEqual([
      expect.objectContaining({ summary: 'refused', status: 'attention', attempts: 1, lastError: message }),
    ]);
    expect(outbox.outboxEntries()[0]?.duplicate).toBeUndefined();
    await drain(outbox);
    expect(requests).toHaveLength(2);
  });

  it("marks a refusal from before tRPC (413, photo too large) 'needs attention'", async () => {
    const outbox = await openTab();
    await queueOffline(outbox, 'big photo', 'next');
    answers.push({ status: 413, body: { error: 'The request is too large.' } }, saved(2));
    await drain(outbox);
    expect(outbox.outboxEntries()).toEqual([
      expect.objectContaining({
        summary: 'big photo',
        status: 'attention',
        lastError: 'The request is too large.',
      }),
    ]);
  });

  it('keeps a 401 waiting (the session is gone, the entry is not wrong)', async () => {
    const outbox = await openTab();
    await queueOffline(outbox, 'first');
    answers.push(refused(401, 'Sign in again.'));
    await drain(outbox);
    expect(view(outbox)).toEqual([{ summary: 'first', status: 'waiting', attempts: 1 }]);
  });

  it('sends nothing while offline', async () => {
    const outbox = await openTab();
    await queueOffline(outbox, 'first');
    navigatorStub.onLine = false;
    await drain(outbox);
    expect(requests).toEqual([]);
    expect(view(outbox)).toEqual([{ summary: 'first', status: 'waiting', attempts: 0 }]);
  });

  it('runs once when asked twice at the same time', async () => {
    const outbox = await openTab();
    await queueOffline(outbox, 'first', 'second');
    answers.push(saved(1), saved(2));
    await Promise.all([outbox.drain(), outbox.drain()]);
    expect(requests.map((r) => r.input.note)).toEqual(['first', 'second']);
  });

  it("sends only the signed-in user's entries, with their own token", async () => {
    const outbox = await openTab();
    await queueOffline(outbox, "driver's");
    signIn('fuel@mchanga.test', 'FUEL');
    await outbox.refresh();
    expect(outbox.outboxEntries()).toEqual([]);
    await queueOffline(outbox, "attendant's");

    answers.push(saved(1));
    await drain(outbox);
    expect(requests.map((r) => [r.input.note, r.auth])).toEqual([
      ["attendant's", 'Bearer token-of-fuel@mchanga.test'],
    ]);

    signIn('driver@mchanga.test');
    answers.push(saved(2));
    await drain(outbox);
    expect(requests.map((r) => r.auth)).toEqual([
      'Bearer token-of-fuel@mchanga.test',
      'Bearer token-of-driver@mchanga.test',
    ]);
  });

  it('survives a reload: a new copy of the app finds the entries and sends them', async () => {
    const before = await openTab();
    await queueOffline(before, 'first', 'second');
    const after = await openTab();
    answers.push(saved(1), saved(2));
    await drain(after);
    expect(requests.map((r) => r.input.note)).toEqual(['first', 'second']);
  });

  it('tells the other tabs: their lists follow', async () => {
    const tabA = await openTab();
    const tabB = await openTab();
    await tabB.refresh(false);
    await queueOffline(tabA, 'from tab A');
    await vi.waitFor(() =>
      expect(view(tabB)).toEqual([{ summary: 'from tab A', status: 'waiting', attempts: 0 }]),
    );
    answers.push(saved(1));
    await drain(tabB);
    await vi.waitFor(() => expect(tabA.outboxEntries()).toEqual([]));
  });

  it('does not send an entry that another tab already settled', async () => {
    const tabA = await openTab();
    const tabB = await openTab();
    const [entry] = await queueOffline(tabA, 'first');
    await tabB.refresh(false); // tab B's list still holds the entry ...
    FakeChannel.open.clear(); // ... and hears nothing more
    answers.push(saved(1));
    await drain(tabA);
    await drain(tabB);
    expect(requests.map((r) => r.key)).toEqual([entry?.key]);
  });
});

// ── the user's choices and logout ──────────────────────────────────────────────────────────────────

describe('the user', () => {
  it('removes an entry', async () => {
    const outbox = await openTab();
    const [first] = await queueOffline(outbox, 'first', 'second');
    await outbox.removeEntry(first?.key ?? '');
    expect(view(outbox).map((e) => e.summary)).toEqual(['second']);
  });

  it("marks an entry 'needs attention' (a duplicate whose comparison cannot be shown)", async () => {
    const outbox = await openTab();
    const [first] = await queueOffline(outbox, 'first');
    await outbox.markAttention(first!, 'Check this entry.');
    expect(outbox.outboxEntries()[0]).toMatchObject({ status: 'attention', lastError: 'Check this entry.' });
    await drain(outbox);
    expect(requests).toEqual([]);
  });

  it("on logout, wipes that user's entries and leaves another user's", async () => {
    const outbox = await openTab();
    await queueOffline(outbox, "driver's 1", "driver's 2");
    signIn('fuel@mchanga.test', 'FUEL');
    await queueOffline(outbox, "attendant's");

    signIn('driver@mchanga.test');
    await outbox.forgetUser('driver@mchanga.test');
    expect(outbox.outboxEntries()).toEqual([]);

    signIn('fuel@mchanga.test', 'FUEL');
    await outbox.refresh();
    expect(view(outbox).map((e) => e.summary)).toEqual(["attendant's"]);
    // Nothing of the driver's is left to send, under any session.
    const reopened = await openTab();
    signIn('driver@mchanga.test');
    await drain(reopened);
    expect(requests).toEqual([]);
  });
});

// ── when it drains by itself ───────────────────────────────────────────────────────────────────────

describe('startOutbox', () => {
  it('drains at start, when the network returns, and every 10 s while something waits', async () => {
    vi.useFakeTimers({ toFake: ['setInterval'] });
    try {
      const win = new EventTarget();
      vi.stubGlobal('window', win);
      vi.stubGlobal('document', Object.assign(new EventTarget(), { visibilityState: 'visible' }));
      const outbox = await openTab();
      await queueOffline(outbox, 'waiting before start');

      answers.push(saved(1));
      outbox.startOutbox();
      await vi.waitFor(() => expect(outbox.outboxEntries()).toEqual([]));

      await queueOffline(outbox, 'entered offline');
      answers.push(saved(2));
      win.dispatchEvent(new Event('online'));
      await vi.waitFor(() => expect(outbox.outboxEntries()).toEqual([]));

      // A send that found no server: the timer tries again.
      await queueOffline(outbox, 'retried by the timer');
      answers.push('offline');
      await drain(outbox);
      expect(view(outbox)).toEqual([{ summary: 'retried by the timer', status: 'waiting', attempts: 1 }]);
      answers.push(saved(3));
      vi.advanceTimersByTime(10_000);
      await vi.waitFor(() => expect(outbox.outboxEntries()).toEqual([]));
      expect(requests.map((r) => r.input.note)).toEqual([
        'waiting before start',
        'entered offline',
        'retried by the timer',
        'retried by the timer',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});
