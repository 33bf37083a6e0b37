import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversations, inboundCallbacks, messages, orders } from '../../../drizzle/schema';
import { imageDataUrl, makeDriver, makeTruck } from '../../../test/factories';
import { fakeAfricasTalking } from '../../../test/fake-africastalking';
import { fakeGraph } from '../../../test/fake-graph';
import { LIBRARY_MESSAGE_MOCK, messageWebhook } from '../../../test/fixtures/whatsapp';
import { createTestApp, type SignedIn, type TestApp } from '../../../test/helpers';

const WA = {
  phoneNumberId: '106540352242922',
  accessToken: 'EAAG-test-token',
  appSecret: 'meta-app-secret-0123',
  verifyToken: 'verify-me-0123',
};
const AT = { username: 'mchanga', apiKey: 'at-key-0123' };
const AT_SECRET = 'at-callback-secret-0123456789';
const PUBLIC = 'https://mchanga.example';

let t: TestApp;
let admin: SignedIn;
const deliverWebhook = async (raw: string, signature: string) => {
  await t.app.inject({
    method: 'POST',
    url: '/api/whatsapp/webhook',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature },
    payload: raw,
  });
};
const graph = fakeGraph({
  ...WA,
  templates: [
    { name: 'order_update', language: 'en' },
    { name: 'order_update', language: 'sw' },
    { name: 'payment_received', language: 'en' },
    { name: 'order_delivered', language: 'en' },
  ],
  deliver: deliverWebhook,
});
const at = fakeAfricasTalking({
  ...AT,
  deliver: async (form) => {
    await t.app.inject({
      method: 'POST',
      url: `/api/sms/delivery/${AT_SECRET}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
  },
});

beforeAll(async () => {
  const [graphUrl, atUrl] = await Promise.all([graph.start(), at.start()]);
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
    },
  });
  admin = await t.signIn('ADMIN');
});
afterAll(async () => {
  await t?.close();
  await Promise.all([graph.stop(), at.stop()]);
});

/** Runs every job and webhook the fakes are still delivering, until nothing is left. */
async function settle() {
  for (let i = 0; i < 4; i++) {
    await t.jobs.drain();
    await Promise.all([graph.settle(), at.settle()]);
  }
  await t.jobs.drain();
}

const signed = (body: unknown) => {
  const raw = JSON.stringify(body);
  return { raw, signature: graph.sign(raw) };
};
const post = (raw: string, signature?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/whatsapp/webhook',
    headers: {
      'content-type': 'application/json',
      ...(signature ? { 'x-hub-signature-256': signature } : {}),
    },
    payload: raw,
  });
let seq = 0;
/** The customer writes on WhatsApp (Meta's webhook, signed). */
async function customerSays(from: string, m: Parameters<typeof messageWebhook>[3]) {
  seq += 1;
  const { raw, signature } = signed(messageWebhook(WA.phoneNumberId, from, `wamid.IN${seq}`, m));
  const res = await post(raw, signature);
  expect(res.statusCode).toBe(200);
  graph.openWindow(from);
  await settle();
}

async function guestOrder(phone: string) {
  const res = await t.call('POST', '/api/orders/guest', null, {
    name: 'Mary Njeri',
    phone,
    site: 'Ruiru',
    sandType: 'coarse',
    trucks: 2,
    dateNeeded: '2026-12-01',
  });
  expect(res.statusCode, res.body).toBe(201);
  await settle();
  const id = res.json().id as number;
  const [order] = await t.database.db.select().from(orders).where(eq(orders.id, id));
  return order!;
}

async function outgoing(orderId: number) {
  return t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.orderId, orderId), eq(messages.direction, 'OUT')))
    .orderBy(asc(messages.id));
}

describe('GET /api/whatsapp/webhook (subscription)', () => {
  it('echoes the challenge for the verify token only', async () => {
    const ok = await t.call(
      'GET',
      `/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=${WA.verifyToken}&hub.challenge=1158201444`,
    );
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    const wrong = await t.call(
      'GET',
      '/api/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1158201444',
    );
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json()).toEqual({ error: 'The verify token does not match.' });
  });
});

describe('POST /api/whatsapp/webhook', () => {
  it('refuses a missing or wrong signature and stores nothing', async () => {
    const { raw, signature } = signed(
      messageWebhook(WA.phoneNumberId, '254712000001', 'wamid.bad', { type: 'text', text: 'hi' }),
    );
    const before = (await t.database.db.select().from(inboundCallbacks)).length;
    expect((await post(raw)).statusCode).toBe(401);
    const wrong = await post(raw, `sha256=${'a'.repeat(64)}`);
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'The X-Hub-Signature-256 signature does not match this body.' });
    // Signed, then changed by one byte on the way.
    expect((await post(raw.replace('hi', 'ho'), signature)).statusCode).toBe(401);
    expect((await t.database.db.select().from(inboundCallbacks)).length).toBe(before);
  });

  it("replays the library's message mock verbatim: stored, answered 200, not ours to answer (another number)", async () => {
    const raw = JSON.stringify(LIBRARY_MESSAGE_MOCK);
    const res = await post(raw, graph.sign(raw));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    await settle();
    const [stored] = await t.database.db
      .select()
      .from(inboundCallbacks)
      .where(eq(inboundCallbacks.body, raw));
    expect(stored!.processedAt).not.toBeNull();
    expect(await t.database.db.select().from(conversations).where(eq(conversations.phone, '2'))).toEqual([]);
  });

  it('answers a message once however often Meta delivers it', async () => {
    const from = '254712000002';
    const { raw, signature } = signed(
      messageWebhook(WA.phoneNumberId, from, 'wamid.REPLAY', { type: 'text', text: 'hello' }),
    );
    graph.openWindow(from);
    const sentBefore = graph.messages.length;
    for (let i = 0; i < 3; i++) expect((await post(raw, signature)).statusCode).toBe(200);
    await settle();
    const [conv] = await t.database.db.select().from(conversations).where(eq(conversations.phone, from));
    const rows = await t.database.db.select().from(messages).where(eq(messages.conversationId, conv!.id));
    expect(rows.filter((m) => m.direction === 'IN')).toHaveLength(1);
    expect(rows.filter((m) => m.direction === 'OUT')).toHaveLength(1);
    expect(graph.messages.length - sentBefore).toBe(1);
    // Unknown input gets the short help with its three buttons, never silence.
    expect(graph.messages.at(-1)).toMatchObject({
      to: from,
      type: 'interactive',
      interactive: {
        type: 'button',
        action: {
          buttons: [{ reply: { id: 'order' } }, { reply: { id: 'where' } }, { reply: { id: 'pay' } }],
        },
      },
    });
  });
});

describe("the customer's news", () => {
  it('goes as the approved template outside the 24-hour window, and free-form inside it', async () => {
    const phone = '0712000003';
    const order = await guestOrder(phone);
    const sent = graph.messages.filter((m) => m.to === '254712000003');
    expect(sent).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '254712000003',
        type: 'template',
        template: {
          name: 'order_update',
          language: { code: 'en' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: `#${order.id}` },
                {
                  type: 'text',
                  text: expect.stringContaining(
                    `Pay M-Pesa acc MCH${order.id}. Delivery code ${order.deliveryCode}. ${PUBLIC}/track/${order.trackingToken}`,
                  ),
                },
              ],
            },
          ],
        },
      },
    ]);
    // The customer writes: inside the window the next news is free-form text with the tracking link.
    await customerSays('254712000003', { type: 'text', text: 'Asante' });
    const truck = await makeTruck(t.database.db, { plate: 'KDA 101A' });
    const driver = await makeDriver(t.database.db, { name: 'Peter Kamau' });
    await t.caller(admin.user).admin.orders.addAssignment({
      id: order.id,
      truckId: truck.id,
      driverId: driver.id,
      confirmUnpaid: true,
    });
    await settle();
    const last = graph.messages.filter((m) => m.to === '254712000003').at(-1)!;
    expect(last).toMatchObject({ type: 'text', text: { preview_url: true } });
    // The customer wrote in Kiswahili: the news comes in Kiswahili.
    expect((last.text as { body: string }).body).toBe(
      `Oda #${order.id} (lori 1 kati ya 2): lori limepangwa — KDA 101A, dereva Peter Kamau.\nFuatilia: ${PUBLIC}/track/${order.trackingToken}`,
    );
    const rows = await outgoing(order.id);
    expect(rows.map((r) => [r.channel, r.template, r.eventKey, r.status])).toEqual([
      ['WHATSAPP', 'order_update', `order.placed:${order.id}:WHATSAPP`, 'SENT'],
      // The bot's short help to "Asante".
      ['WHATSAPP', null, null, 'SENT'],
      ['WHATSAPP', null, expect.stringMatching(/^load\.scheduled:/), 'SENT'],
    ]);
  });

  it('falls back to SMS when WhatsApp reports the number undeliverable (131026), and uses SMS after', async () => {
    graph.notOnWhatsApp('254712000004');
    const order = await guestOrder('+254 712 000 004');
    const rows = await outgoing(order.id);
    expect(rows.map((r) => [r.channel, r.status, r.errorCode])).toEqual([
      ['WHATSAPP', 'FAILED', '131026'],
      ['SMS', 'SENT', null],
    ]);
    const sms = at.sent.filter((s) => s.to === '+254712000004');
    expect(sms).toEqual([
      expect.objectContaining({
        username: AT.username,
        from: 'MCHANGA',
        message: `Mchanga: Order #${order.id} KES 64,000. Pay M-Pesa acc MCH${order.id}. Delivery code ${order.deliveryCode}. ${PUBLIC}/track/${order.trackingToken}`,
      }),
    ]);
    // Africa's Talking reports it delivered.
    await at.report(sms[0]!.messageId, 'Success');
    await settle();
    expect((await outgoing(order.id)).at(-1)!.status).toBe('DELIVERED');
    // The next news goes by SMS straight away.
    const truck = await makeTruck(t.database.db, { plate: 'KDA 102A' });
    const driver = await makeDriver(t.database.db);
    const load = await t.caller(admin.user).admin.orders.addAssignment({
      id: order.id,
      truckId: truck.id,
      driverId: driver.id,
      confirmUnpaid: true,
    });
    await t.caller(admin.user).admin.orders.setAssignmentStatus({ id: load.id, status: 'IN_TRANSIT' });
    await settle();
    expect(
      at.sent
        .filter((s) => s.to === '+254712000004')
        .map((s) => s.message)
        .at(-1),
    ).toBe(
      `Mchanga: Truck KDA 102A for order #${order.id} is on its way. ${PUBLIC}/track/${order.trackingToken}`,
    );
  });

  it('records a send Meta refuses with its code, sends it again never, and hands the news to SMS', async () => {
    const before = graph.requests.length;
    graph.refuseNext(132001, 'Template name does not exist in the translation');
    const order = await guestOrder('0712000005');
    expect(graph.requests.length - before).toBe(1);
    const rows = await outgoing(order.id);
    expect(rows.map((r) => [r.channel, r.status, r.errorCode])).toEqual([
      ['WHATSAPP', 'FAILED', '132001'],
      ['SMS', 'SENT', null],
    ]);
  });

  it('honours STOP by SMS, and a blacklisted number, by sending no more SMS', async () => {
    graph.notOnWhatsApp('254712000006');
    const stop = await t.app.inject({
      method: 'POST',
      url: `/api/sms/inbound/${AT_SECRET}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=in-1&from=%2B254712000006&to=20880&text=STOP&date=2026-11-26',
    });
    expect(stop.statusCode).toBe(200);
    await settle();
    const order = await guestOrder('0712000006');
    const rows = await outgoing(order.id);
    expect(rows.map((r) => [r.channel, r.status])).toEqual([
      ['WHATSAPP', 'FAILED'],
      ['SMS', 'SKIPPED'],
    ]);
    expect(at.sent.filter((s) => s.to === '+254712000006')).toEqual([]);

    at.script('+254712000007', 406);
    graph.notOnWhatsApp('254712000007');
    const other = await guestOrder('0712000007');
    expect((await outgoing(other.id)).at(-1)).toMatchObject({
      channel: 'SMS',
      status: 'FAILED',
      errorCode: '406',
    });
    const [conv] = await t.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.phone, '254712000007'));
    expect(conv!.smsOptOutAt).not.toBeNull();
  });

  it("sends the driver's proof photo with the delivered news inside the window, through the tracking token", async () => {
    const order = await guestOrder('0712000008');
    await customerSays('254712000008', { type: 'text', text: 'Thanks, waiting for it' });
    const truck = await makeTruck(t.database.db, { plate: 'KDA 108A' });
    const driver = await makeDriver(t.database.db);
    const driverUser = await t.signIn('DRIVER', { driverId: driver.id });
    const load = await t.caller(admin.user).admin.orders.addAssignment({
      id: order.id,
      truckId: truck.id,
      driverId: driver.id,
      confirmUnpaid: true,
    });
    await t.caller(driverUser.user).admin.orders.recordDelivery({
      id: load.id,
      photoData: await imageDataUrl(),
      code: order.deliveryCode,
    });
    await settle();
    // Sent beside the delivered text (two sends, in either order).
    const photo = graph.messages.find((m) => m.to === '254712000008' && m.type === 'image')!;
    const link = `${PUBLIC}/api/track/${order.trackingToken}/proof/${load.id}`;
    expect(photo).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '254712000008',
      type: 'image',
      image: { link, caption: `Order #${order.id}: proof of delivery` },
    });
    const image = await t.call('GET', new URL(link).pathname);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    const other = await t.call('GET', `/api/track/${'0'.repeat(32)}/proof/${load.id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'Photo not found.' });
  });

  it('answers a wrong delivery-report secret with 404 and stores nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sms/delivery/not-the-secret-0123456789',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=ATXid_1&status=Success',
    });
    expect(res.statusCode).toBe(404);
  });

  it("takes Africa's Talking's callbacks only from AT_CALLBACK_IPS when it is set (404 from elsewhere, nothing stored)", async () => {
    const listed = await createTestApp({
      settings: {
        sms: {
          ...AT,
          senderId: undefined,
          baseUrl: 'http://127.0.0.1:9',
          callbackSecret: AT_SECRET,
          callbackIps: ['52.48.80.0/24', '34.255.114.55'],
        },
      },
    });
    try {
      const send = (path: 'delivery' | 'inbound', remoteAddress: string) =>
        listed.app.inject({
          method: 'POST',
          url: `/api/sms/${path}/${AT_SECRET}`,
          remoteAddress,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload:
            path === 'delivery'
              ? 'id=ATXid_allow&status=Success&phoneNumber=%2B254712345678'
              : 'from=%2B254712345678&to=MCHANGA&text=STATUS&id=in-1&date=2026-11-26+07%3A00%3A00',
        });
      expect((await send('delivery', '52.48.80.17')).statusCode).toBe(200);
      expect((await send('inbound', '::ffff:34.255.114.55')).statusCode).toBe(200);
      expect((await send('delivery', '41.90.1.2')).statusCode).toBe(404);
      expect((await send('inbound', '34.255.114.56')).statusCode).toBe(404);
      const stored = await listed.database.db.select().from(inboundCallbacks);
      expect(stored.map((r) => r.sourceIp).sort()).toEqual(['52.48.80.17', '::ffff:34.255.114.55']);
    } finally {
      await listed.close();
    }
  });
});

describe('ops replies without a way to reach the customer', () => {
  it('answers 409 with the reason when the window is closed and SMS is off', async () => {
    const bare = await createTestApp({
      settings: {
        whatsapp: {
          ...WA,
          graphUrl: 'http://127.0.0.1:9/v23.0',
          templates: {
            orderUpdate: 'order_update',
            paymentReceived: 'payment_received',
            delivered: 'order_delivered',
          },
          templateLanguages: { en: 'en', sw: 'sw' },
        },
      },
    });
    try {
      const [conv] = await bare.database.db
        .insert(conversations)
        .values({ phone: '254712000099' })
        .returning();
      const ops = await bare.signIn('OPS');
      const res = await bare.call('POST', `/api/admin/conversations/${conv!.id}/reply`, ops, {
        text: 'Hello',
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        error:
          "The customer's 24-hour WhatsApp window is closed and SMS is not configured: only the approved templates can reach them now.",
      });
    } finally {
      await bare.close();
    }
  });
});

describe('POST /api/whatsapp/webhook with a poisoned body', () => {
  it('refuses a signed __proto__ or constructor.prototype key with 400, as every JSON route does', async () => {
    for (const raw of [
      '{"object":"whatsapp_business_account","__proto__":{"x":1}}',
      '{"constructor":{"prototype":{"x":1}}}',
    ]) {
      const res = await post(raw, graph.sign(raw));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'The request body is not valid JSON.' });
    }
  });
});
