import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '../server/router';
import { adoptingFetch } from './first-data';
import { getSession, sessionEndReason } from './session';
import { sessionEnded, sessionLost } from './session-lost';

export { setSessionLostHandler } from './session-lost';

export const trpc = createTRPCReact<AppRouter>();

function handleAuthError(error: unknown) {
  if (!(error instanceof TRPCClientError) || error.data?.httpStatus !== 401 || !getSession()) return;
  // A refused sign-in is about the typed credentials, not the stored token: keep the session.
  if (error.data?.path === 'auth.login') return;
  void sessionEnded(sessionEndReason(error.data));
  sessionLost();
}

export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: handleAuthError }),
    mutationCache: new MutationCache({ onError: handleAuthError }),
    defaultOptions: {
      queries: {
        retry: (count, error) =>
          !(error instanceof TRPCClientError && (error.data?.httpStatus ?? 500) < 500) && count < 2,
        refetchOnWindowFocus: false,
        staleTime: 10_000,
      },
    },
  });
}

function authHeader(): Record<string, string> {
  const token = getSession()?.token;
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The `Idempotency-Key` a call carries, given in its context: `mutate(input, { context: … })` is not it. */
export interface IdempotentContext {
  idempotencyKey?: string;
}

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      splitLink({
        // A call with an Idempotency-Key goes alone: the header belongs to that one call.
        condition: (op) => typeof (op.context as IdempotentContext).idempotencyKey === 'string',
        true: httpLink({
          url: '/trpc',
          headers: ({ op }) => ({
            ...authHeader(),
            'idempotency-key': (op.context as IdempotentContext).idempotencyKey!,
          }),
        }),
        false: httpBatchLink({
          url: '/trpc',
          // The server refuses batches of more than 10 calls (server/trpc.ts TRPC_MAX_BATCH).
          maxItems: 10,
          headers: authHeader,
          // A staff screen's first batch may already be on its way, started by the HTML (issue 28).
          fetch: adoptingFetch(),
        }),
      }),
    ],
  });
}

/** The app's own `{ error }` body, sent when a request is refused before tRPC (too large, too many). */
function refusal(error: TRPCClientError<AppRouter>): string | undefined {
  const body = (error.meta as { responseJSON?: unknown } | undefined)?.responseJSON;
  const message = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  return typeof message === 'string' ? message : undefined;
}

/** A person-readable message from any error, with the screen's default as the last resort. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError) {
    const message = refusal(error) ?? error.message;
    if (message) return message;
  }
  if (error instanceof Error && error.message && !/fetch|network/i.test(error.message)) return error.message;
  return fallback;
}
