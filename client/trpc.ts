import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCReact } from '@trpc/react-query';
import type { AppRouter } from '../server/router';
import { clearSession, getSession } from './session';

export const trpc = createTRPCReact<AppRouter>();

/** Called when the server says a sent token is no longer good (expired, revoked, disabled). */
let onSessionLost: () => void = () => {};
export function setSessionLostHandler(handler: () => void) {
  onSessionLost = handler;
}

function handleAuthError(error: unknown) {
  if (!(error instanceof TRPCClientError) || error.data?.httpStatus !== 401 || !getSession()) return;
  // A refused sign-in is about the typed credentials, not the stored token: keep the session.
  if (error.data?.path === 'auth.login') return;
  clearSession({ expired: true });
  onSessionLost();
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

export function createTrpcClient() {
  return trpc.createClient({
    links: [
      httpBatchLink({
        url: '/trpc',
        headers() {
          const token = getSession()?.token;
          return token ? { authorization: `Bearer ${token}` } : {};
        },
      }),
    ],
  });
}

/** A person-readable message from any error, with the screen's default as the last resort. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof TRPCClientError && error.message) return error.message;
  if (error instanceof Error && error.message && !/fetch|network/i.test(error.message)) return error.message;
  return fallback;
}
