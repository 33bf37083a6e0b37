import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeDaraja } from '../../test/fake-daraja';
import { DarajaClient, DarajaError } from './daraja';

const KEYS = { consumerKey: 'key', consumerSecret: 'secret', shortcode: '174379', passkey: 'passkey-1' };
const daraja = fakeDaraja({ ...KEYS, deliver: async () => {}, tokenSeconds: 3599 });
let baseUrl: string;
beforeAll(async () => {
  baseUrl = await daraja.start();
});
afterAll(() => daraja.stop());

const request = {
  amountKes: 100,
  msisdn: '254712345678',
  accountRef: 'MCH42',
  callbackUrl: 'https://mchanga.example/api/payments/mpesa/stk/s',
  description: 'Order 42 of many characters',
};

describe('DarajaClient against the fake Daraja', () => {
  it('pushes with a cached token, and trims the description to 13 characters', async () => {
    const client = new DarajaClient({ baseUrl, ...KEYS });
    const before = daraja.counts.oauth;
    const a = await client.stkPush(request);
    const b = await client.stkPush(request);
    expect(a.checkoutRequestId).not.toBe(b.checkoutRequestId);
    expect(daraja.counts.oauth - before).toBe(1);
    expect(daraja.pushes.at(-1)!.body.TransactionDesc).toBe('Order 42 of m');
  });

  it('fetches a new token when one expires', async () => {
    const short = fakeDaraja({ ...KEYS, deliver: async () => {}, tokenSeconds: 1 });
    const url = await short.start();
    try {
      const client = new DarajaClient({ baseUrl: url, ...KEYS });
      await client.stkPush(request);
      await new Promise((r) => setTimeout(r, 1100));
      await client.stkPush(request);
      expect(short.counts.oauth).toBe(2);
    } finally {
      await short.stop();
    }
  });

  it('names refusals: wrong keys, busy subscriber, a bad phone, an unreachable host', async () => {
    const wrong = new DarajaClient({ baseUrl, ...KEYS, consumerSecret: 'nope' });
    await expect(wrong.stkPush(request)).rejects.toMatchObject({ kind: 'auth', permanent: true });
    const client = new DarajaClient({ baseUrl, ...KEYS });
    daraja.next({ result: 0, refuse: 'busy' });
    await expect(client.stkPush(request)).rejects.toMatchObject({ kind: 'busy', code: '500.001.1001' });
    daraja.next({ result: 0, refuse: 'bad-phone' });
    await expect(client.stkPush(request)).rejects.toMatchObject({ kind: 'refused', permanent: true });
    const badPasskey = new DarajaClient({ baseUrl, ...KEYS, passkey: 'other' });
    await expect(badPasskey.stkPush(request)).rejects.toBeInstanceOf(DarajaError);
    const away = new DarajaClient({ baseUrl: 'http://127.0.0.1:9', ...KEYS }, { timeoutMs: 500 });
    await expect(away.stkPush(request)).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('times out a Daraja that does not answer', async () => {
    const hang = new DarajaClient(
      { baseUrl, ...KEYS },
      {
        timeoutMs: 50,
        // Answers nothing; only the time-out's abort ends the wait.
        fetch: ((_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal?.addEventListener('abort', () => reject(init.signal?.reason)),
          )) as unknown as typeof fetch,
      },
    );
    await expect(hang.stkPush(request)).rejects.toMatchObject({ kind: 'unreachable' });
  });

  it('queries a prompt: final result, or still being processed', async () => {
    const client = new DarajaClient({ baseUrl, ...KEYS });
    daraja.next({ result: 1032 }, { result: 'never', query: 'processing' });
    const failed = await client.stkPush(request);
    const open = await client.stkPush(request);
    expect(await client.stkQuery(failed.checkoutRequestId)).toMatchObject({
      state: 'final',
      resultCode: '1032',
      resultDesc: 'Request cancelled by user',
    });
    expect(await client.stkQuery(open.checkoutRequestId)).toMatchObject({
      state: 'processing',
      message: 'The transaction is being processed',
    });
  });
});
