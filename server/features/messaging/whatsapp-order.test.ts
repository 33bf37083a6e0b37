import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../../core/auth/auth.service';
import { conversations, messages, orders, payments } from '../../../drizzle/schema';
import { makeDriver, makeTruck } from '../../../test/factories';
import type { SignedIn } from '../../../test/helpers';
import { messagingHarness, PUBLIC } from '../../../test/messaging';

const h = messagingHarness({ mpesa: true });
let admin: SignedIn;

beforeAll(async () => {
  await h.start();
  admin = await h.t.signIn('ADMIN');
});
afterAll(() => h.stop());

const body = (m: Record<string, unknown>) =>
  m.type === 'text'
    ? (m.text as { body: string }).body
    : ((m.interactive as { body: { text: string } } | undefined)?.body.text ?? '');

async function conversationOf(phone: string) {
  const [row] = await h.t.database.db.select().from(conversations).where(eq(conversations.phone, phone));
  return row!;
}

/**
 * A whole order by WhatsApp: the bot asks, the customer answers with a location pin and taps, the quote is
 * confirmed, the order placed, the M-Pesa prompt goes to the same number (the fake Daraja pays it), and the
 * news follows the load out of the yard to the site — every request to Graph checked as sent.
 */
describe.each([
  {
    lang: 'en' as const,
    phone: '254712300001',
    first: 'I need 2 trucks of coarse sand',
    askSite: 'Where should the sand go?',
    quote: 'Quote: 2 trucks of coarse sand to Plot 7, Juja',
    placed: 'Order #',
    prompt: 'Check your phone: enter your M-Pesa PIN to pay KES ',
    paid: 'We received KES ',
    left: 'has left the yard and is on its way.',
    delivered: 'sand delivered. Thank you for choosing Mchanga!',
    where: 'Where is my sand?',
    whereAnswer: ': delivered.',
    account: false,
  },
  {
    lang: 'sw' as const,
    phone: '254712300002',
    first: 'Nataka trips mbili za mchanga mkubwa',
    askSite: 'Mchanga upelekwe wapi?',
    quote: 'Bei: malori 2 ya mchanga mkubwa hadi Plot 7, Juja',
    placed: 'Oda #',
    prompt: 'Angalia simu yako: weka PIN ya M-Pesa kulipa KES ',
    paid: 'Tumepokea KES ',
    left: 'limeondoka yadi, liko njiani.',
    delivered: 'mchanga umefikishwa. Asante kwa kuchagua Mchanga!',
    where: 'Mchanga wangu uko wapi?',
    whereAnswer: ': imefikishwa.',
    account: true,
  },
])('an order by WhatsApp in $lang', (c) => {
  it('runs pin → quote → order → STK → paid → left the yard → delivered, with the exact requests', async () => {
    const customer = c.account
      ? await createUser(h.t.database.db, {
          name: 'Akinyi Otieno',
          email: `akinyi-${c.phone}@example.co.ke`,
          phone: `0${c.phone.slice(3)}`,
          password: 'password123',
          role: 'CUSTOMER',
          driverId: null,
        })
      : null;
    let since = h.graph.messages.length;
    await h.says(c.phone, c.first);
    // Trucks and sand were in the words: the site is asked for with a location request.
    expect(h.sentTo(c.phone, since)).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: c.phone,
        type: 'interactive',
        interactive: {
          type: 'location_request_message',
          body: { text: expect.stringContaining(c.askSite) },
          action: { name: 'send_location' },
        },
      },
    ]);

    since = h.graph.messages.length;
    await h.says(c.phone, { type: 'location', latitude: -1.1021, longitude: 37.0159, name: 'Plot 7, Juja' });
    const [quote] = h.sentTo(c.phone, since);
    expect(quote).toMatchObject({
      type: 'interactive',
      interactive: {
        type: 'button',
        action: {
          buttons: [{ reply: { id: 'confirm' } }, { reply: { id: 'change' } }, { reply: { id: 'cancel' } }],
        },
      },
    });
    expect(body(quote!)).toContain(c.quote);

    since = h.graph.messages.length;
    await h.says(c.phone, {
      type: 'button_reply',
      id: 'confirm',
      title: c.lang === 'sw' ? 'Thibitisha oda' : 'Confirm order',
    });
    const [order] = await h.t.database.db.select().from(orders).where(eq(orders.phone, c.phone));
    expect(order).toMatchObject({
      trucks: 2,
      sandType: 'coarse',
      site: 'Plot 7, Juja',
      siteSource: 'pin',
      siteLat: -1.1021,
      customerId: customer?.id ?? null,
      status: 'RECEIVED',
      paymentStatus: 'CONFIRMED',
    });
    // The prompt went to this number for the whole amount; Daraja's callback paid it.
    const push = h.daraja.pushes.at(-1)!;
    expect(push.body).toMatchObject({
      PhoneNumber: c.phone,
      AccountReference: `MCH${order!.id}`,
      Amount: order!.totalCents / 100,
    });
    const [paid] = await h.t.database.db.select().from(payments).where(eq(payments.orderId, order!.id));
    expect(paid).toMatchObject({ status: 'CONFIRMED', amountCents: order!.totalCents });

    const after = h.sentTo(c.phone, since);
    // Inside the 24-hour window: every message free-form, none a template.
    expect(after.every((m) => m.type === 'text')).toBe(true);
    const texts = after.map(body);
    expect(texts[0]).toContain(`${c.placed}${order!.id}`);
    expect(texts[0]).toContain(order!.deliveryCode);
    expect(texts[0]).toContain(`${PUBLIC}/track/${order!.trackingToken}`);
    expect(texts).toContainEqual(expect.stringContaining(c.prompt));
    expect(texts.at(-1)).toContain(c.paid);
    expect(texts.at(-1)).toContain(`${PUBLIC}/api/orders/${order!.id}/receipt?token=${order!.trackingToken}`);
    // The order.placed notice was not sent a second time beside the bot's own.
    expect(texts.filter((t) => t.includes(order!.deliveryCode))).toHaveLength(1);

    // Ops load the first truck: it leaves the yard, arrives, is delivered.
    const truck = await makeTruck(h.t.database.db, { plate: `KDE ${c.phone.slice(-3)}X` });
    const driver = await makeDriver(h.t.database.db, { name: 'Peter Kamau' });
    const ops = h.t.caller(admin.user).admin.orders;
    since = h.graph.messages.length;
    const load = await ops.addAssignment({ id: order!.id, truckId: truck.id, driverId: driver.id });
    await h.settle();
    expect(h.sentTo(c.phone, since).map(body)).toEqual([expect.stringContaining(truck.plate)]);
    since = h.graph.messages.length;
    await ops.setAssignmentStatus({ id: load.id, status: 'IN_TRANSIT' });
    await h.settle();
    expect(h.sentTo(c.phone, since).map(body)).toEqual([expect.stringContaining(c.left)]);

    // A day later the window is closed: the delivered news goes as the approved template.
    await h.t.database.db
      .update(conversations)
      .set({ lastInboundAt: sql`now() - interval '25 hours'` })
      .where(eq(conversations.phone, c.phone));
    h.graph.closeWindow(c.phone);
    since = h.graph.messages.length;
    await ops.setAssignmentStatus({ id: load.id, status: 'DELIVERED', reason: 'Handed over' });
    await h.settle();
    expect(h.sentTo(c.phone, since)).toEqual([
      {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: c.phone,
        type: 'template',
        template: {
          name: 'order_delivered',
          language: { code: c.lang },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: `#${order!.id}` },
                { type: 'text', text: expect.stringContaining(`#${order!.id}`) },
              ],
            },
          ],
        },
      },
    ]);

    // "Where is my sand?" at any time.
    since = h.graph.messages.length;
    await h.says(c.phone, c.where);
    const [where] = h.sentTo(c.phone, since);
    expect(body(where!)).toContain(`#${order!.id}`);
    expect(body(where!)).toContain(`${PUBLIC}/track/${order!.trackingToken}`);

    const conv = await conversationOf(c.phone);
    expect(conv).toMatchObject({
      language: c.lang,
      state: 'ordered',
      orderId: order!.id,
      customerId: customer?.id ?? null,
    });
    const log = await h.t.database.db.select().from(messages).where(eq(messages.conversationId, conv.id));
    expect(log.filter((m) => m.direction === 'OUT').every((m) => m.status === 'SENT')).toBe(true);
  });
});

describe('the webhook as Meta delivers it', () => {
  it('ignores a replayed message and refuses a wrong signature', async () => {
    const phone = '254712300003';
    const raw = await h.says(phone, 'hello');
    const count = h.graph.messages.length;
    const replay = await h.t.app.inject({
      method: 'POST',
      url: '/api/whatsapp/webhook',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': h.graph.sign(raw) },
      payload: raw,
    });
    expect(replay.statusCode).toBe(200);
    const forged = await h.t.app.inject({
      method: 'POST',
      url: '/api/whatsapp/webhook',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': h.graph.sign(`${raw} `) },
      payload: raw,
    });
    expect(forged.statusCode).toBe(401);
    await h.settle();
    expect(h.graph.messages.length).toBe(count);
  });

  it('keeps quiet while ops have taken the conversation over', async () => {
    const phone = '254712300004';
    await h.says(phone, 'hello');
    await h.t.database.db
      .update(conversations)
      .set({ humanTakeoverAt: new Date() })
      .where(eq(conversations.phone, phone));
    const count = h.graph.messages.length;
    await h.says(phone, 'I need sand');
    expect(h.graph.messages.length).toBe(count);
  });
});

describe('ops on the order', () => {
  it('see the conversation, take it over, reply inside the window, and get 409 outside it without SMS', async () => {
    const phone = '254712300005';
    await h.says(phone, 'I need 1 truck of smooth sand to Thika');
    await h.says(phone, { type: 'button_reply', id: 'confirm', title: 'Confirm order' });
    const [order] = await h.t.database.db.select().from(orders).where(eq(orders.phone, phone));
    const ops = await h.t.signIn('OPS');
    const res = await h.t.call('GET', `/api/admin/orders/${order!.id}/conversations`, ops);
    expect(res.statusCode).toBe(200);
    const [conv] = res.json().conversations;
    expect(conv).toMatchObject({ phone, windowOpen: true, takenOver: false, language: 'en' });
    expect(conv.messages.map((m: { direction: string }) => m.direction).slice(0, 2)).toEqual(['IN', 'OUT']);

    const since = h.graph.messages.length;
    const reply = await h.t.call('POST', `/api/admin/conversations/${conv.id}/reply`, ops, {
      orderId: order!.id,
      text: 'The truck leaves at 2 pm.',
    });
    expect(reply.statusCode).toBe(201);
    expect(reply.json()).toMatchObject({ takenOver: true, takenOverBy: ops.user.name });
    await h.settle();
    expect(h.sentTo(phone, since)).toEqual([
      expect.objectContaining({
        type: 'text',
        text: { preview_url: false, body: 'The truck leaves at 2 pm.' },
      }),
    ]);
    // Taken over: the bot is quiet now.
    const quiet = h.graph.messages.length;
    await h.says(phone, 'ok thanks');
    expect(h.graph.messages.length).toBe(quiet);
    // Handed back: it answers again.
    expect(
      (await h.t.call('PUT', `/api/admin/conversations/${conv.id}/takeover`, ops, { on: false })).statusCode,
    ).toBe(200);
    await h.says(phone, 'hello');
    expect(h.graph.messages.length).toBe(quiet + 1);

    // The window closed, and this server has SMS: the reply goes by SMS.
    await h.t.database.db
      .update(conversations)
      .set({ lastInboundAt: sql`now() - interval '25 hours'` })
      .where(eq(conversations.phone, phone));
    const bySms = await h.t.call('POST', `/api/admin/conversations/${conv.id}/reply`, ops, {
      text: 'Call us on 0700 000 000.',
    });
    expect(bySms.statusCode).toBe(201);
    await h.settle();
    expect(h.at.sent.at(-1)).toMatchObject({ to: `+${phone}`, message: 'Call us on 0700 000 000.' });

    // Customers and drivers are refused; an unknown conversation is 404.
    for (const role of ['CUSTOMER', 'DRIVER', 'FUEL'] as const) {
      const who = await h.t.signIn(role);
      expect((await h.t.call('GET', `/api/admin/orders/${order!.id}/conversations`, who)).statusCode).toBe(
        403,
      );
    }
    expect(
      (await h.t.call('PUT', '/api/admin/conversations/999999/takeover', ops, { on: true })).statusCode,
    ).toBe(404);
  });
});
