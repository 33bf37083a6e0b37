import { expect } from 'vitest';
import type { Settings } from '../shared/settings';
import { fakeAfricasTalking } from './fake-africastalking';
import { fakeDaraja } from './fake-daraja';
import { fakeGraph } from './fake-graph';
import { type FixtureMessage, messageWebhook } from './fixtures/whatsapp';
import { createTestApp, type TestApp } from './helpers';

export const WA = {
  phoneNumberId: '106540352242922',
  accessToken: 'EAAG-test-token',
  appSecret: 'meta-app-secret-0123',
  verifyToken: 'verify-me-0123',
};
export const AT = { username: 'mchanga', apiKey: 'at-key-0123' };
export const AT_SECRET = 'at-callback-secret-0123456789';
export const MPESA_SECRET = 'mpesa-callback-secret-0123456789';
export const PUBLIC = 'https://mchanga.example';
const DARAJA = {
  consumerKey: 'fake-consumer-key',
  consumerSecret: 'fake-consumer-secret',
  shortcode: '174379',
  passkey: 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919',
};

/**
 * A test app with WhatsApp, Africa's Talking and Daraja all pointed at local fakes speaking their wire
 * formats; each fake delivers its callbacks (Meta's signed webhooks, delivery reports, STK results) to the
 * app in-process.
 */
export function messagingHarness(options: { mpesa?: boolean } = {}) {
  let t: TestApp;
  const inject = (url: string, payload: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, headers, payload }).then(() => undefined);
  const graph = fakeGraph({
    ...WA,
    templates: ['order_update', 'payment_received', 'order_delivered'].flatMap((name) => [
      { name, language: 'en' },
      { name, language: 'sw' },
    ]),
    deliver: (raw, signature) =>
      inject('/api/whatsapp/webhook', raw, {
        'content-type': 'application/json',
        'x-hub-signature-256': signature,
      }),
  });
  const at = fakeAfricasTalking({
    ...AT,
    deliver: (form) =>
      inject(`/api/sms/delivery/${AT_SECRET}`, form, { 'content-type': 'application/x-www-form-urlencoded' }),
  });
  const daraja = fakeDaraja({
    ...DARAJA,
    deliver: async (url, body) => {
      await t.app.inject({ method: 'POST', url: new URL(url).pathname, payload: body as object });
    },
  });
  let seq = 0;

  const h = {
    graph,
    at,
    daraja,
    get t() {
      return t;
    },
    async start(extra: Partial<Settings> = {}) {
      const [graphUrl, atUrl, darajaUrl] = await Promise.all([graph.start(), at.start(), daraja.start()]);
      t = await createTestApp({
        settings: {
          publicUrl: PUBLIC,
          whatsapp: {
            ...WA,
            graphUrl,
            templates: {
              orderUpdate: 'order_update',
              paymentReceived: 'payment_received',
              delivered: 'order_delivered',
            },
            templateLanguages: { en: 'en', sw: 'sw' },
          },
          sms: { ...AT, senderId: 'MCHANGA', baseUrl: atUrl, callbackSecret: AT_SECRET, callbackIps: [] },
          ...(options.mpesa
            ? {
                mpesa: {
                  baseUrl: darajaUrl,
                  ...DARAJA,
                  callbackSecret: MPESA_SECRET,
                  validateAccount: false,
                  callbackIps: [],
                },
              }
            : {}),
          ...extra,
        },
      });
      return t;
    },
    async stop() {
      await t?.close();
      await Promise.all([graph.stop(), at.stop(), daraja.stop()]);
    },
    /** Runs every job and every callback the fakes are still delivering, until nothing is left. */
    async settle() {
      for (let i = 0; i < 5; i++) {
        await t.jobs.drain();
        await Promise.all([graph.settle(), at.settle(), daraja.idle()]);
      }
      await t.jobs.drain();
    },
    /** The customer writes on WhatsApp: Meta's webhook, signed; the window opens; everything runs. */
    async says(from: string, m: FixtureMessage | string) {
      seq += 1;
      const raw = JSON.stringify(
        messageWebhook(
          WA.phoneNumberId,
          from,
          `wamid.IN${seq}.${from}`,
          typeof m === 'string' ? { type: 'text', text: m } : m,
        ),
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/whatsapp/webhook',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': graph.sign(raw) },
        payload: raw,
      });
      expect(res.statusCode).toBe(200);
      graph.openWindow(from);
      await h.settle();
      return raw;
    },
    /** What the bot sent this number since the given count of Graph requests. */
    sentTo(to: string, since = 0) {
      return graph.messages.slice(since).filter((m) => m.to === to);
    },
  };
  return h;
}
