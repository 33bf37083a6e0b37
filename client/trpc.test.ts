import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppRouter } from '../server/router';
import { clearSession, getSession, hasSessionExpiredNotice, saveSession } from './session';
import { setSessionEndHandler } from './session-lost';
import { createQueryClient, errorMessage, setSessionLostHandler } from './trpc';

/** A tRPC client whose server answers every request with this status and JSON body. */
function clientAnswering(status: number, body: unknown) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: 'http://mchanga.test/trpc',
        fetch: async () =>
          new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
      }),
    ],
  });
}

async function messageOf(call: Promise<unknown>) {
  return call.then(
    () => 'resolved',
    (err: unknown) => errorMessage(err, 'Failed to save the fuel log'),
  );
}

describe('errorMessage', () => {
  it("gives the app's message when a request is refused before tRPC (a photo too large)", async () => {
    const trpc = clientAnswering(413, { error: 'The request is too large.' });
    expect(
      await messageOf(trpc.fuel.create.mutate({ truckId: 'T1', litres: null, odometer: null, cost: 1 })),
    ).toBe('The request is too large.');
  });

  it("gives the procedure's own message", async () => {
    const trpc = clientAnswering(400, [
      { error: { message: 'Truck is required.', code: -32600, data: { httpStatus: 400 } } },
    ]);
    expect(
      await messageOf(trpc.fuel.create.mutate({ truckId: '', litres: null, odometer: null, cost: 1 })),
    ).toBe('Truck is required.');
  });

  it("falls back to the screen's default for a network failure", async () => {
    expect(await messageOf(Promise.reject(new TypeError('Failed to fetch')))).toBe(
      'Failed to save the fuel log',
    );
  });
});

// ── the app's query client: what is retried, and a refused token ───────────────────────────────────

/** An error as the tRPC client makes it from the server's answer. */
const answered = (httpStatus: number, path = 'orders.list') =>
  TRPCClientError.from({
    error: { message: `HTTP ${httpStatus}`, code: -32600, data: { httpStatus, path } },
  });

describe('createQueryClient', () => {
  const retry = createQueryClient().getDefaultOptions().queries?.retry as (n: number, e: unknown) => boolean;

  it.each([
    ['a network failure', new TypeError('Failed to fetch'), [true, true, false]],
    [
      'an answer without a status',
      TRPCClientError.from(new Error('Unexpected end of JSON')),
      [true, true, false],
    ],
    ['a 500', answered(500), [true, true, false]],
    ['a 503', answered(503), [true, true, false]],
    // a refusal is an answer: asking again gives the same
    ['a 400', answered(400), [false, false, false]],
    ['a 401', answered(401), [false, false, false]],
    ['a 404', answered(404), [false, false, false]],
    ['a 429', answered(429), [false, false, false]],
  ])('retries a query after %s at most twice', (_what, error, expected) => {
    expect([0, 1, 2].map((count) => retry(count, error))).toEqual(expected);
  });

  describe('a 401', () => {
    const items = new Map<string, string>();
    const lost = vi.fn();

    beforeEach(() => {
      items.clear();
      vi.stubGlobal('localStorage', {
        getItem: (k: string) => items.get(k) ?? null,
        setItem: (k: string, v: string) => void items.set(k, v),
        removeItem: (k: string) => void items.delete(k),
      });
      lost.mockClear();
      setSessionLostHandler(lost);
      saveSession('tok', { role: 'OPS', name: 'Ann', email: 'ann@mchanga.test', driverId: null });
    });

    afterEach(() => {
      vi.unstubAllGlobals();
    });

    const onQueryError = (error: unknown) => {
      const { onError } = createQueryClient().getQueryCache().config;
      onError?.(error as Error, {} as never);
    };
    const onMutationError = (error: unknown) => {
      const { onError } = createQueryClient().getMutationCache().config;
      void onError?.(error as Error, undefined, undefined, {} as never, {} as never);
    };

    it.each([
      ['a query', onQueryError],
      ['a mutation', onMutationError],
    ])('on %s signs the user out, saying why', (_what, fail) => {
      fail(answered(401));
      expect(getSession()).toBeNull();
      expect(hasSessionExpiredNotice()).toBe(true);
      expect(lost).toHaveBeenCalledTimes(1);
    });

    it.each([
      ['a refused sign-in (the typed password, not the stored token)', answered(401, 'auth.login')],
      ['a 403', answered(403)],
      ['a 500', answered(500)],
      ['a network failure', new TypeError('Failed to fetch')],
    ])('keeps the session after %s', (_what, error) => {
      onQueryError(error);
      expect(getSession()?.token).toBe('tok');
      expect(lost).not.toHaveBeenCalled();
    });

    it.each([
      [undefined, undefined],
      ['expired', 'expired'],
      ['revoked', 'revoked'],
      ['disabled', 'disabled'],
    ])(
      'ends the session for its reason (%s): revoked and disabled wipe the device (issue 22, item 13)',
      async (reason, expected) => {
        const ended = vi.fn();
        setSessionEndHandler(ended);
        try {
          onQueryError(
            TRPCClientError.from({
              error: {
                message: 'Your session has expired. Please sign in again.',
                code: -32001,
                data: { httpStatus: 401, path: 'orders.list', ...(reason ? { details: { reason } } : {}) },
              },
            }),
          );
          expect(ended).toHaveBeenCalledWith(expected);
          expect(lost).toHaveBeenCalledTimes(1);
        } finally {
          setSessionEndHandler(() => clearSession({ expired: true }));
        }
      },
    );

    it('does nothing without a session', () => {
      clearSession();
      onQueryError(answered(401));
      expect(hasSessionExpiredNotice()).toBe(false);
      expect(lost).not.toHaveBeenCalled();
    });
  });
});
