import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { darajaTimestamp, stkPassword } from '../shared/domain/mpesa';
import {
  checkoutRequestId,
  fixture,
  receipt,
  type STK_FAILURE_CODES,
  stkFailure,
  stkSuccess,
} from './fixtures/daraja';

/** What the fake does with the next prompt: pay it, fail it with a result code, or never call back. */
export interface PromptScript {
  result: 0 | (typeof STK_FAILURE_CODES)[number] | 'never';
  /** How many times the callback is delivered (Daraja repeats some). */
  deliveries?: number;
  /** Before the (first) callback, as a customer takes to enter the PIN. */
  delayMs?: number;
  /** What a status query answers for it: Daraja's final result (default) or "still being processed". */
  query?: 'final' | 'processing';
  /** Daraja refuses the push itself with this fixture (HTTP 500 busy, 400 bad phone). */
  refuse?: 'busy' | 'bad-phone';
}

export interface RecordedPush {
  body: Record<string, unknown>;
  checkoutRequestId: string;
  script: PromptScript;
  receipt: string | null;
}

/** Delivers a callback to the app: over HTTP by default, or in-process (app.inject) in tests. */
export type Deliver = (url: string, body: unknown) => Promise<void>;

const httpDeliver: Deliver = async (url, body) => {
  await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => undefined);
};

/**
 * A local fake of Safaricom Daraja speaking its documented formats: OAuth (Basic keys → bearer token with
 * expires_in), STK push (checks the password is base64(shortcode + passkey + timestamp), the account
 * reference, the amount cap and the phone form; answers with CheckoutRequestID), the STK callback to the
 * CallBackURL (success with CallbackMetadata, or a failure code), and the M-Pesa Express status query.
 */
export function fakeDaraja(options: {
  consumerKey: string;
  consumerSecret: string;
  shortcode: string;
  passkey: string;
  deliver?: Deliver;
  /** Token lifetime in seconds (Daraja: 3599). */
  tokenSeconds?: number;
}) {
  const deliver = options.deliver ?? httpDeliver;
  const scripts: PromptScript[] = [];
  const pushes: RecordedPush[] = [];
  const tokens = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  const counts = { oauth: 0, push: 0, query: 0, refusedToken: 0 };
  let tokenSeq = 0;
  let defaultScript: PromptScript = { result: 0, delayMs: 50 };

  const send = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.statusCode = status;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (c) => {
        text += c;
      });
      req.on('end', () => resolve(text));
    });
  const bearer = (req: IncomingMessage) => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];

  async function callBack(push: RecordedPush) {
    const { script } = push;
    if (script.result === 'never' || script.refuse) return;
    const url = String(push.body.CallBackURL);
    const body =
      script.result === 0
        ? stkSuccess({
            checkoutRequestId: push.checkoutRequestId,
            amountKes: Number(push.body.Amount),
            receipt: push.receipt!,
            phone: Number(push.body.PhoneNumber),
          })
        : stkFailure(script.result, push.checkoutRequestId);
    for (let i = 0; i < (script.deliveries ?? 1); i++) await deliver(url, body);
  }

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const text = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/oauth/v1/generate') {
      const expected = `Basic ${btoa(`${options.consumerKey}:${options.consumerSecret}`)}`;
      if (
        url.searchParams.get('grant_type') !== 'client_credentials' ||
        req.headers.authorization !== expected
      )
        return send(res, 400, { errorCode: '400.008.01', errorMessage: 'Invalid Authentication passed' });
      counts.oauth += 1;
      tokenSeq += 1;
      const token = `fake-token-${tokenSeq}`;
      tokens.add(token);
      return send(res, 200, {
        ...fixture<Record<string, unknown>>('oauth'),
        access_token: token,
        expires_in: String(options.tokenSeconds ?? 3599),
      });
    }
    if (req.method !== 'POST')
      return send(res, 404, { errorCode: '404.001.01', errorMessage: 'Resource not found' });
    const token = bearer(req);
    if (!token || !tokens.has(token)) {
      counts.refusedToken += 1;
      return send(res, 404, fixture('error-invalid-token'));
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text);
    } catch {
      return send(res, 400, { errorCode: '400.002.05', errorMessage: 'Invalid Request Payload' });
    }
    const passwordOk =
      body.BusinessShortCode === options.shortcode &&
      typeof body.Timestamp === 'string' &&
      /^\d{14}$/.test(body.Timestamp) &&
      body.Password === stkPassword(options.shortcode, options.passkey, body.Timestamp);
    if (url.pathname === '/mpesa/stkpush/v1/processrequest') {
      counts.push += 1;
      if (!passwordOk)
        return send(res, 500, { errorCode: '500.001.1001', errorMessage: 'Wrong credentials' });
      const amount = body.Amount;
      if (
        body.TransactionType !== 'CustomerPayBillOnline' ||
        body.PartyB !== options.shortcode ||
        typeof amount !== 'number' ||
        !Number.isInteger(amount) ||
        amount < 1 ||
        amount > 250_000 ||
        typeof body.AccountReference !== 'string' ||
        body.AccountReference.length > 12 ||
        typeof body.CallBackURL !== 'string' ||
        !/^https?:\/\//.test(body.CallBackURL)
      )
        return send(res, 400, { errorCode: '400.002.02', errorMessage: 'Bad Request - Invalid Request' });
      const script = scripts.shift() ?? defaultScript;
      if (script.refuse === 'busy') return send(res, 500, fixture('stk-push-error-busy'));
      if (script.refuse === 'bad-phone' || !/^254[17]\d{8}$/.test(String(body.PhoneNumber)))
        return send(res, 400, fixture('stk-push-error-bad-phone'));
      const push: RecordedPush = {
        body,
        checkoutRequestId: checkoutRequestId(),
        script,
        receipt: script.result === 0 ? receipt() : null,
      };
      pushes.push(push);
      const delivered = new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          callBack(push).finally(resolve);
        }, script.delayMs ?? 50);
        timers.add(timer);
      });
      inFlight.add(delivered);
      void delivered.finally(() => inFlight.delete(delivered));
      return send(res, 200, {
        ...fixture<Record<string, unknown>>('stk-push-accepted'),
        CheckoutRequestID: push.checkoutRequestId,
        MerchantRequestID: `${pushes.length}-${Date.now()}-1`,
      });
    }
    if (url.pathname === '/mpesa/stkpushquery/v1/query') {
      counts.query += 1;
      if (!passwordOk)
        return send(res, 500, { errorCode: '500.001.1001', errorMessage: 'Wrong credentials' });
      const push = pushes.find((p) => p.checkoutRequestId === body.CheckoutRequestID);
      if (!push)
        return send(res, 400, {
          errorCode: '400.002.02',
          errorMessage: 'Bad Request - Invalid CheckoutRequestID',
        });
      if (push.script.query === 'processing') return send(res, 500, fixture('stk-query-processing'));
      const code = push.script.result === 'never' ? 0 : push.script.result;
      const answer = code === 0 ? fixture('stk-query-success') : fixture('stk-query-1032');
      return send(res, 200, {
        ...answer,
        CheckoutRequestID: push.checkoutRequestId,
        ResultCode: String(code),
        ResultDesc:
          code === 0
            ? answer.ResultDesc
            : stkFailure(code, push.checkoutRequestId).Body.stkCallback.ResultDesc,
      });
    }
    return send(res, 404, { errorCode: '404.001.01', errorMessage: 'Resource not found' });
  });

  return {
    pushes,
    counts,
    /** Scripts the next prompts, in order; later prompts follow the default. */
    next(...script: PromptScript[]) {
      scripts.push(...script);
    },
    setDefault(script: PromptScript) {
      defaultScript = script;
    },
    /** Resolves once every callback scheduled so far has been delivered. */
    async idle() {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
    /** Forgets every token issued (as when Daraja's expire early). */
    revokeTokens() {
      tokens.clear();
    },
    /** The timestamp the fake expects now (for tests building their own requests). */
    timestamp: () => darajaTimestamp(new Date()),
    start: () =>
      new Promise<string>((r) =>
        server.listen(0, '127.0.0.1', () => r(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    stop: () =>
      new Promise<void>((r) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}
