/**
 * The API layer (tRPC over TanStack Query): one query cache and one client for the whole visit. A
 * chunk of its own, loaded with the first screen that calls the API, so the landing page can hydrate
 * (and be typed into) before it arrives.
 */
import { onlineManager, QueryClientProvider, type QueryKey } from '@tanstack/react-query';
import { createTRPCQueryUtils, getQueryKey } from '@trpc/react-query';
import { type ComponentType, type ReactNode, use } from 'react';
import type { FirstCall } from '../shared/first-data';
import type { TPricingInfo } from '../shared/schemas/pricing';
import type { TTracking } from '../shared/schemas/tracking';
import { takeFirstAnswers } from './first-data';
import { OfflineBanner, OutboxPanel } from './offline/OfflineStatus';
import { onOutboxSent, startOutbox } from './offline/outbox';
import { endSession, persistQueries, restoreQueries } from './offline/persist';
import { answersKeptFor } from './offline/snapshot';
import { readPrerendered } from './prerendered';
import { getSession } from './session';
import { setSessionEndHandler } from './session-lost';
import { createQueryClient, createTrpcClient, trpc } from './trpc';

const queryClient = createQueryClient();
const trpcClient = createTrpcClient();
const utils = createTRPCQueryUtils({ queryClient, client: trpcClient });

// The prices (or the tracking answer) the server rendered the page with are the answer the page would
// ask for.
const prerendered = readPrerendered(typeof document === 'undefined' ? undefined : document);
if (prerendered?.pricing)
  queryClient.setQueryData(getQueryKey(trpc.pricing.get, undefined, 'query'), prerendered.pricing);
if (prerendered?.tracking) {
  const { token, answer } = prerendered.tracking;
  queryClient.setQueryData(getQueryKey(trpc.tracking.get, { token }, 'query'), answer);
}

/**
 * Server only (client/prerender.tsx): `render` (synchronous, e.g. renderToString) with a tracking link's
 * answer in the cache, as the browser's first render has it (renderWithAnswers).
 */
export function renderWithTracking<T>(token: string, answer: TTracking, render: () => T): T {
  return renderWithAnswers([{ call: { path: 'tracking.get', input: { token } }, data: answer }], render);
}

// Offline (issue 14): TanStack Query starts assuming online; a phone opened without signal is not.
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);
/**
 * Before the first screen renders: the signed-in staff member's last screens, back from IndexedDB, then the
 * answers of the HTML's first data request (client/first-data.ts), so the screen draws with its data
 * instead of "Loading…" first. Without kept answers (a customer's), the first render waits for that
 * request, at most FIRST_ANSWER_WAIT_MS: the screen's kept copy or its top is on show meanwhile.
 */
const FIRST_ANSWER_WAIT_MS = 1_500;
/** tRPC's key for a procedure reached by its path (its types know the procedures by name only). */
const getKey = getQueryKey as (procedure: unknown, input: unknown, type: 'query') => QueryKey;
/** The query key of one call: the procedure of its dotted path, as tRPC's proxy gives it for any path. */
function queryKeyOf(call: FirstCall): QueryKey {
  const procedure = call.path.split('.').reduce<unknown>((p, k) => (p as Record<string, unknown>)[k], trpc);
  return getKey(procedure, call.input, 'query');
}
async function adoptFirstAnswers() {
  const session = getSession();
  // The answers the server drew this screen with (server/screen-html.ts), for the same user: the first
  // render is then the same screen, drawn over it.
  const screen = prerendered?.screen;
  if (screen && session && screen.email === session.userEmail) {
    for (const { call, data } of screen.answers) queryClient.setQueryData(queryKeyOf(call), data);
    return;
  }
  const wait = answersKeptFor(session?.role) ? 0 : FIRST_ANSWER_WAIT_MS;
  const authorization = session ? `Bearer ${session.token}` : undefined;
  for (const { call, data } of await takeFirstAnswers(wait, authorization))
    queryClient.setQueryData(queryKeyOf(call), data);
}

/**
 * Server only (client/prerender.tsx): `render` (synchronous) with a screen's first answers in the cache,
 * as the browser's first render has them, and nothing else: the cache is emptied after, so no answer
 * outlives its own request, nor does a query the screen made without one (which would read as still
 * waiting in the next render's, e.g. to AfterFirstAnswers).
 */
export function renderWithAnswers<T>(
  answers: readonly { call: FirstCall; data: unknown }[],
  render: () => T,
): T {
  queryClient.clear();
  for (const { call, data } of answers) queryClient.setQueryData(queryKeyOf(call), data);
  try {
    return render();
  } finally {
    queryClient.clear();
  }
}
const restored =
  typeof window === 'undefined' ? Promise.resolve() : restoreQueries(queryClient).then(adoptFirstAnswers);
let isRestored = false;
void restored.then(() => {
  isRestored = true;
});
/**
 * Resolves once the kept screens are back. The routes wait for it before they render a screen
 * (client/routes.tsx), so the first render does not suspend: a suspended screen first shows the empty
 * loading page, and React holds the real one back for 300 ms after that.
 */
export function apiReady(): Promise<void> {
  return restored;
}
if (typeof window !== 'undefined') {
  // A refused token ends the session; revoked or disabled, what the device kept of the user goes too.
  setSessionEndHandler(endSession);
  void restored.then(() => persistQueries(queryClient));
  // A queued write that reached the server: every screen's lists reload.
  onOutboxSent(() => void queryClient.invalidateQueries());
  startOutbox();
}

export function ApiProvider({ children }: { children: ReactNode }) {
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </trpc.Provider>
  );
}

/** A screen inside the API layer. */
export function withApi<P extends object>(Component: ComponentType<P>): ComponentType<P> {
  function WithApi(props: P) {
    if (!isRestored) use(restored);
    return (
      <ApiProvider>
        <OfflineBanner />
        <OutboxPanel />
        <Component {...props} />
      </ApiProvider>
    );
  }
  WithApi.displayName = `WithApi(${Component.displayName ?? Component.name})`;
  return WithApi;
}

/** The live pricing, from the cache while it is fresh (5 minutes). */
export function fetchPricing(): Promise<TPricingInfo> {
  return utils.pricing.get.ensureData(undefined, { staleTime: 5 * 60_000 });
}
