/**
 * The device outbox: field writes (fuel logs with their photo, costs, stock receipts, the driver's
 * profile, load moves) are written to IndexedDB before they are sent, each with an idempotency key made
 * here, and sent with it as `Idempotency-Key` (server/idempotency.ts): a write the server already took
 * is answered with its first result, never recorded twice. So a send may be repeated as often as needed.
 *
 * The queue drains on the browser's online event, every 10 s while something waits, when the page comes
 * back into view, and on Background Sync (client/sw.ts) where the browser has it. One tab drains at a
 * time (Web Locks). An answer decides an entry's fate: saved → gone; the server's duplicate answer (409)
 * → 'duplicate' until the user confirms or cancels it on its screen; any other refusal (4xx) → 'attention'
 * with the server's message, until the user removes it. No answer, 5xx or 401 → it stays waiting.
 * Nothing is dropped without the user choosing to.
 */
import { createTRPCUntypedClient, httpLink, TRPCClientError } from '@trpc/client';
import { createStore, del, entries, get, set } from 'idb-keyval';
import { getSession, type SessionEndReason, sessionEndReason } from '../session';
import { sessionEnded, sessionLost } from '../session-lost';

export type OutboxKind = 'fuel' | 'cost' | 'stock' | 'profile' | 'move' | 'assign';

const PROCEDURES: Record<OutboxKind, string> = {
  fuel: 'fuel.create',
  cost: 'admin.costs.create',
  stock: 'admin.stock.receipt',
  profile: 'driver.updateProfile',
  move: 'admin.orders.setAssignmentStatus',
  assign: 'admin.orders.addAssignment',
};

/** The screen each kind is entered on (its duplicate panel and 'needs attention' list live there). */
export const SCREEN_OF: Record<OutboxKind, string> = {
  fuel: '/fuel',
  cost: '/ops',
  stock: '/ops',
  profile: '/driver',
  move: '/driver',
  assign: '/ops',
};

export const KIND_LABEL: Record<OutboxKind, string> = {
  fuel: 'Fuel log',
  cost: 'Cost',
  stock: 'Stock receipt',
  profile: 'Driver profile',
  move: 'Load status',
  assign: 'Truck assignment',
};

export const OUTBOX_MESSAGES = {
  queued: (what: string) =>
    `Your phone is offline. The ${what} is saved on this phone and will be sent when the connection returns.`,
  notSent: (what: string) =>
    `The server could not be reached. The ${what} is saved on this phone and will be sent automatically.`,
} as const;

export type OutboxStatus = 'waiting' | 'attention' | 'duplicate';

export interface OutboxEntry {
  /** Also the Idempotency-Key: made on the device, once per entry. */
  key: string;
  kind: OutboxKind;
  /** The signed-in user's email when it was entered: only their session sends it. */
  user: string;
  /** The procedure's input, without a photo. */
  input: Record<string, unknown>;
  /** A fuel log's photo as a Blob (smaller than its data URL), joined back into the input when sent. */
  photo?: Blob;
  /** A line for the waiting list, e.g. 'KDA 123A · 80 L · KES 14,000'. */
  summary: string;
  createdAt: number;
  status: OutboxStatus;
  attempts: number;
  lastError?: string;
  /** The server's duplicate answer: its message and the earlier entry. */
  duplicate?: { message: string; existing: unknown };
}

const store = createStore('mchanga-outbox', 'entries');

// ── state every screen sees ─────────────────────────────────────────────────────────────────────────

let snapshot: OutboxEntry[] = [];
const listeners = new Set<() => void>();
const sentListeners = new Set<(entry: OutboxEntry, result: unknown) => void>();

function emit() {
  for (const l of listeners) l();
}

/** This user's entries, oldest first. */
export function outboxEntries(): OutboxEntry[] {
  return snapshot;
}

export function subscribeOutbox(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Called after an entry reached the server (screens reload their lists). */
export function onOutboxSent(listener: (entry: OutboxEntry, result: unknown) => void) {
  sentListeners.add(listener);
  return () => {
    sentListeners.delete(listener);
  };
}

const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel('mchanga-outbox');
channel?.addEventListener('message', () => void refresh(false));

export async function refresh(broadcast = true) {
  const email = getSession()?.userEmail;
  const all = (await entries<string, OutboxEntry>(store)).map(([, e]) => e);
  snapshot = all.filter((e) => e.user === email).sort((a, b) => a.createdAt - b.createdAt);
  emit();
  if (broadcast) channel?.postMessage('changed');
}

async function put(entry: OutboxEntry) {
  await set(entry.key, entry, store);
}

// ── sending ─────────────────────────────────────────────────────────────────────────────────────────

const client = createTRPCUntypedClient({
  links: [
    // One call per request: the Idempotency-Key header belongs to that one call.
    httpLink({
      url: '/trpc',
      headers({ op }) {
        const token = getSession()?.token;
        const key = (op.context as { idempotencyKey?: string }).idempotencyKey;
        return {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(key ? { 'idempotency-key': key } : {}),
        };
      },
    }),
  ],
});

function dataUrlOf(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/** Decoded here: the page's content security policy does not let fetch() read data: URLs. */
function blobOf(dataUrl: string): Blob {
  const comma = dataUrl.indexOf(',');
  const type = /^data:([^;,]+)/.exec(dataUrl)?.[1] ?? 'application/octet-stream';
  const binary = atob(dataUrl.slice(comma + 1));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type });
}

type Outcome =
  | { kind: 'saved'; result: unknown }
  | { kind: 'unsent'; error: unknown }
  | { kind: 'refused'; error: unknown }
  /** The session was revoked or the account disabled: the user's entries are deleted, not kept. */
  | { kind: 'revoked'; reason: SessionEndReason; error: unknown };

/** Ends the revoked session: the session, the kept screens and this user's entries leave the phone. */
async function revoked(outcome: Extract<Outcome, { kind: 'revoked' }>) {
  await sessionEnded(outcome.reason);
  await refresh();
  sessionLost();
}

async function sendOnce(entry: OutboxEntry): Promise<Outcome> {
  const input = entry.photo ? { ...entry.input, photoData: await dataUrlOf(entry.photo) } : entry.input;
  try {
    const result = await client.mutation(PROCEDURES[entry.kind], input, {
      context: { idempotencyKey: entry.key },
    });
    return { kind: 'saved', result };
  } catch (error) {
    const status = httpStatusOf(error);
    // Signed out everywhere (or disabled): this user's entries leave the phone with their session.
    if (status === 401 && error instanceof TRPCClientError) {
      const reason = sessionEndReason(error.data);
      if (reason === 'revoked' || reason === 'disabled') return { kind: 'revoked', reason, error };
    }
    // No answer, the server or a dependency down, or the session gone: try again later.
    if (!status || status >= 500 || status === 401 || status === 429) return { kind: 'unsent', error };
    return { kind: 'refused', error };
  }
}

/**
 * The answer's HTTP status: the procedure's own (`data.httpStatus`), or the response's when the request
 * was refused before tRPC (a photo over the body limit: 413 `{ "error": ... }`); none without an answer.
 */
function httpStatusOf(error: unknown): number | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const data = error.data as { httpStatus?: number } | undefined;
  const response = (error.meta as { response?: { status?: number } } | undefined)?.response;
  return data?.httpStatus ?? response?.status;
}

interface ErrorData {
  httpStatus?: number;
  details?: { duplicate?: boolean; message?: string; existing?: unknown };
}

function duplicateDetails(error: unknown) {
  const data = error instanceof TRPCClientError ? (error.data as ErrorData | undefined) : undefined;
  const details = data?.details;
  return data?.httpStatus === 409 && details?.duplicate === true
    ? { message: details.message ?? '', existing: details.existing }
    : null;
}

function messageOf(error: unknown): string {
  if (error instanceof TRPCClientError) {
    const body = (error.meta as { responseJSON?: { error?: unknown } } | undefined)?.responseJSON;
    if (body && typeof body.error === 'string') return body.error;
    if (error.message) return error.message;
  }
  return 'The server refused this entry.';
}

async function settle(entry: OutboxEntry, outcome: Outcome) {
  if (outcome.kind === 'revoked') return;
  if (outcome.kind === 'saved') {
    await del(entry.key, store);
    for (const l of sentListeners) l(entry, outcome.result);
  } else if (outcome.kind === 'refused') {
    const duplicate = duplicateDetails(outcome.error);
    await put({
      ...entry,
      attempts: entry.attempts + 1,
      status: duplicate ? 'duplicate' : 'attention',
      lastError: messageOf(outcome.error),
      ...(duplicate ? { duplicate } : {}),
    });
  } else {
    await put({ ...entry, attempts: entry.attempts + 1, lastError: messageOf(outcome.error) });
  }
}

/** Thrown to a screen when its entry could not be sent now: it waits in the outbox. */
export class QueuedOffline extends Error {
  constructor(
    readonly entry: OutboxEntry,
    /** Kept because the phone is offline (not because the server could not be reached). */
    readonly offline: boolean,
  ) {
    const what = KIND_LABEL[entry.kind].toLowerCase();
    super(offline ? OUTBOX_MESSAGES.queued(what) : OUTBOX_MESSAGES.notSent(what));
    this.name = 'QueuedOffline';
  }
}

export function isQueued(value: unknown): value is QueuedOffline {
  return value instanceof QueuedOffline;
}

/**
 * A kept entry's message in the screen's language: `t` of the catalog (client/i18n, `outbox.*`), whose
 * English is OUTBOX_MESSAGES's wording.
 */
export function queuedText(
  queued: QueuedOffline,
  t: (key: string, values?: { what: string }) => string,
): string {
  const what = t(`outbox.what.${queued.entry.kind}`);
  return t(queued.offline ? 'outbox.queued' : 'outbox.notSent', { what });
}

/**
 * The waiting entry that already asks for the same load move (the same load to the same status): a
 * second tap while the first waits is that entry, not a second one.
 */
export function waitingMoveLike(
  entries: readonly OutboxEntry[],
  kind: OutboxKind,
  input: Record<string, unknown>,
): OutboxEntry | undefined {
  if (kind !== 'move') return undefined;
  return entries.find(
    (e) =>
      e.kind === 'move' &&
      e.status === 'waiting' &&
      e.input.id === input.id &&
      e.input.status === input.status,
  );
}

/** The load moves waiting on this phone, by load id: the status each is meant to reach (the latest). */
export function queuedMoves(entries: readonly OutboxEntry[]): Map<number, string> {
  const moves = new Map<number, string>();
  for (const e of entries)
    if (e.kind === 'move' && e.status === 'waiting' && typeof e.input.id === 'number')
      moves.set(e.input.id, String(e.input.status));
  return moves;
}

/**
 * A field write from a screen: stored first, then sent at once when the phone is online. Resolves with
 * the server's answer; rejects with the server's refusal (the screen shows it, as before: its form still
 * holds what was typed, so the entry leaves the outbox) or with `QueuedOffline` when it waits.
 */
export async function submitField<R = unknown>(
  kind: OutboxKind,
  input: Record<string, unknown>,
  summary: string,
): Promise<R> {
  const session = getSession();
  if (!session) throw new Error('Sign in first.');
  await refresh(false);
  const same = waitingMoveLike(outboxEntries(), kind, input);
  if (same) throw new QueuedOffline(same, !navigator.onLine);
  const { photoData, ...rest } = input as { photoData?: unknown };
  const photo = typeof photoData === 'string' && photoData ? blobOf(photoData) : undefined;
  const entry: OutboxEntry = {
    key: crypto.randomUUID(),
    kind,
    user: session.userEmail,
    input: kind === 'fuel' ? rest : input,
    ...(kind === 'fuel' && photo ? { photo } : {}),
    summary,
    createdAt: Date.now(),
    status: 'waiting',
    attempts: 0,
  };
  await put(entry);
  await refresh();
  void registerBackgroundSync();
  if (!navigator.onLine) throw new QueuedOffline(entry, true);
  const outcome = await withLock(() => sendOnce(entry));
  if (outcome.kind === 'revoked') {
    await revoked(outcome);
    throw outcome.error;
  }
  if (outcome.kind === 'unsent') {
    await put({ ...entry, attempts: 1, lastError: messageOf(outcome.error) });
    await refresh();
    throw new QueuedOffline(entry, !navigator.onLine);
  }
  await del(entry.key, store);
  await refresh();
  if (outcome.kind === 'refused') throw outcome.error;
  for (const l of sentListeners) l(entry, outcome.result);
  return outcome.result as R;
}

async function withLock<T>(run: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && navigator.locks)
    return navigator.locks.request('mchanga-outbox', run) as Promise<T>;
  return run();
}

let draining: Promise<void> | null = null;

/** Sends every waiting entry of the signed-in user, oldest first. */
export function drain(): Promise<void> {
  draining ??= withLock(async () => {
    await refresh(false);
    for (const entry of outboxEntries()) {
      if (entry.status !== 'waiting') continue;
      if (!navigator.onLine) break;
      // Another tab may have sent it meanwhile.
      const current = await get<OutboxEntry>(entry.key, store);
      if (current?.status !== 'waiting') continue;
      const outcome = await sendOnce(current);
      if (outcome.kind === 'revoked') {
        await revoked(outcome);
        break;
      }
      await settle(current, outcome);
      if (outcome.kind === 'unsent') break;
    }
  })
    .catch((err: unknown) => console.warn('Outbox drain failed', err))
    .finally(() => {
      draining = null;
      void refresh();
    });
  return draining;
}

/** The user removes an entry (after reading its message, or cancelling its duplicate). */
export async function removeEntry(key: string) {
  await del(key, store);
  await refresh();
}

export async function markAttention(entry: OutboxEntry, message: string) {
  await put({ ...entry, status: 'attention', lastError: message });
  await refresh();
}

/** Everything this user left on the device (Logout). */
export async function forgetUser(email: string) {
  const all = await entries<string, OutboxEntry>(store);
  await Promise.all(all.filter(([, e]) => e.user === email).map(([k]) => del(k, store)));
  await refresh();
}

async function registerBackgroundSync() {
  try {
    const registration = await navigator.serviceWorker?.getRegistration();
    const sync = (registration as { sync?: { register(tag: string): Promise<void> } } | undefined)?.sync;
    await sync?.register('mchanga-outbox');
  } catch {
    // No Background Sync here: the online event and the timer still drain the queue.
  }
}

let started = false;

/** Starts draining: at once, when the network returns, every 10 s, on view, and on the worker's sync. */
export function startOutbox() {
  if (started || typeof window === 'undefined') return;
  started = true;
  const kick = () => {
    if (navigator.onLine && snapshot.some((e) => e.status === 'waiting')) void drain();
  };
  window.addEventListener('online', () => void drain());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') kick();
  });
  setInterval(kick, 10_000);
  navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === 'mchanga:drain-outbox') void drain();
  });
  void refresh(false).then(() => drain());
}
