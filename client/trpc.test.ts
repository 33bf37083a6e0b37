import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import type { AppRouter } from '../server/router';
import { errorMessage } from './trpc';

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
