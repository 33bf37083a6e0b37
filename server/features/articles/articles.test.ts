import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { articles, users } from '../../../drizzle/schema';
import { createLlm } from '../../../shared/ai/llm';
import {
  makeAssignment,
  makeCost,
  makeDriver,
  makeLatestPosition,
  makeOrder,
  makePayment,
  makeStock,
  makeTruck,
} from '../../../test/factories';
import { fakeTelegram } from '../../../test/fake-telegram';
import { createTestApp, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /api/articles', () => {
  it('answers an empty list, then the newest first within the limit, with unsafe image URLs dropped', async () => {
    expect((await t.call('GET', '/api/articles?limit=3')).json()).toEqual([]);
    for (let i = 1; i <= 5; i++) {
      await t.database.db.insert(articles).values({
        title: `Briefing ${i}`,
        body: `Body ${i}`,
        imageUrl: i === 5 ? 'javascript:alert(1)' : '/briefings/yard.jpg',
        forDate: `2026-11-1${i}`,
        createdAt: new Date(`2026-11-1${i}T03:00:00Z`),
      });
    }
    const res = await t.call('GET', '/api/articles?limit=3');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((a: { title: string }) => a.title)).toEqual([
      'Briefing 5',
      'Briefing 4',
      'Briefing 3',
    ]);
    expect(res.json()[0]).toMatchObject({ imageUrl: null, topic: null, summary: null, body: 'Body 5' });
    expect(res.json()[1].imageUrl).toBe('/briefings/yard.jpg');
    expect((await t.call('GET', '/api/articles')).json()).toHaveLength(5);
    expect((await t.call('GET', '/api/articles?limit=25')).statusCode).toBe(400);
  });
});

/**
 * Issue 11, item 15: the public briefing published internal figures. The database is filled with what
 * staff see (customers, phones, plates, drivers, costs, payment reviews, a duplicate, an idle loaded
 * truck); a week of morning runs must leave none of it in GET /api/articles, while the AI tab's daily
 * summary and the ADMIN/OPS Telegram messages carry it.
 */
describe('the morning run: public articles for customers, the daily summary for staff', () => {
  const bot = fakeTelegram();
  let app: TestApp;
  let now = new Date('2026-11-23T05:00:00Z'); // 08:00 in Nairobi; yesterday is Sunday 22 November
  beforeAll(async () => {
    const apiRoot = await bot.start();
    app = await createTestApp({ now: () => now, settings: { telegram: { token: '123456:TEST', apiRoot } } });
  });
  afterAll(async () => {
    await app.close();
    await bot.stop();
  });

  const internal = {
    names: [
      'Grace Wanjiku',
      'Peter Njoroge',
      'Faith Muthoni',
      'Samuel Kiprop',
      'Mwangi Kamau',
      'Achieng Otieno',
    ],
    phones: ['0722123456', '0799887766', '0733556677', '0744112233', '0711223344', '0755667788'],
    emails: ['grace.wanjiku@example.co.ke', 'peter.njoroge@example.co.ke'],
    plates: ['KCC 789C', 'KDA 101S', 'KBZ 456Q'],
    sites: ['Kamakis'],
    references: ['QK7ZX91PLM', 'RB3TY55WQA'],
    // Revenue 2 × 41,250; costs 11,000 + 8,800 (and a duplicate of 11,000); gross 62,700; stock 400 t.
    kes: ['41,250', '82,500', '19,800', '11,000', '8,800', '62,700'],
    words: [
      'payment confirmation',
      'wait for review',
      'duplicate',
      'audit',
      'has not moved',
      'idle',
      'gross',
      'costs came',
      'led the drivers',
      'busiest destination',
      'yard holds',
      '400 t',
    ],
  };

  async function fillWithInternalData() {
    const db = app.database.db;
    const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
    const mwangi = await makeDriver(db, { name: 'Mwangi Kamau', phone: '0711223344' });
    const achieng = await makeDriver(db, { name: 'Achieng Otieno', phone: '0755667788' });
    const kcc = await makeTruck(db, { plate: 'KCC 789C' });
    const kda = await makeTruck(db, { plate: 'KDA 101S' });
    const kbz = await makeTruck(db, { plate: 'KBZ 456Q' });
    await makeStock(db, { tonnes: 400, createdAt: ago(3 * 24 * 60) });
    const delivered = await makeOrder(db, {
      name: 'Grace Wanjiku',
      phone: '0722123456',
      email: 'grace.wanjiku@example.co.ke',
      site: 'Kamakis',
      trucks: 2,
      perTruckCents: 4_125_000,
      totalCents: 8_250_000,
      status: 'DELIVERED',
      paymentStatus: 'CONFIRMED',
    });
    for (const truck of [kcc, kda])
      await makeAssignment(db, {
        orderId: delivered.id,
        truckId: truck.id,
        driverId: mwangi.id,
        status: 'DELIVERED',
        deliveredAt: new Date('2026-11-22T09:00:00Z'),
      });
    for (const [name, phone, email, reference] of [
      ['Peter Njoroge', '0799887766', 'peter.njoroge@example.co.ke', 'QK7ZX91PLM'],
      ['Faith Muthoni', '0733556677', undefined, 'RB3TY55WQA'],
    ] as const) {
      const order = await makeOrder(db, {
        name,
        phone,
        ...(email ? { email } : {}),
        status: 'PAYMENT_REVIEW',
        paymentStatus: 'SUBMITTED',
        updatedAt: ago(5 * 60),
      });
      await makePayment(db, { orderId: order.id, reference });
    }
    const moving = await makeOrder(db, { name: 'Samuel Kiprop', phone: '0744112233', status: 'IN_TRANSIT' });
    await makeAssignment(db, {
      orderId: moving.id,
      truckId: kbz.id,
      driverId: achieng.id,
      status: 'IN_TRANSIT',
    });
    await makeLatestPosition(db, { truckId: kbz.id, fixTime: ago(1), lastMovedAt: ago(64) });
    const repair = await makeCost(db, {
      truckId: kcc.id,
      type: 'REPAIR',
      amountCents: 1_100_000,
      incurredAt: new Date('2026-11-22T07:00:00Z'),
    });
    await makeCost(db, {
      truckId: kda.id,
      type: 'LOADING',
      amountCents: 880_000,
      incurredAt: new Date('2026-11-22T08:00:00Z'),
    });
    await makeCost(db, {
      truckId: kcc.id,
      type: 'REPAIR',
      amountCents: 1_100_000,
      incurredAt: new Date('2026-11-21T07:30:00Z'),
      isDuplicate: true,
      duplicateOf: repair.id,
      confirmedAt: new Date('2026-11-21T07:31:00Z'),
    });
  }

  it('shows staff the internal figures in the AI tab and on Telegram, and publishes none of them', async () => {
    await fillWithInternalData();
    const admin = await app.signIn('ADMIN');
    const ops = await app.signIn('OPS');
    for (const [who, chat] of [
      [admin, '7001'],
      [ops, '7002'],
    ] as const)
      await app.database.db.update(users).set({ telegramChatId: chat }).where(eq(users.id, who.user.id));

    expect((await app.call('POST', '/api/admin/articles/run', admin)).statusCode).toBe(200);
    await app.jobs.drain();

    const summary = (await app.call('GET', '/api/admin/ai/insights', admin)).json().dailySummary;
    expect(summary.date).toBe('2026-11-22');
    const staffFigures = [
      'Sunday, 22 November: 2 loads, KES 82,500 delivered.',
      'Crews delivered 40 t in 2 loads for KES 82,500; after KES 19,800 of costs the day closed KES 62,700 gross.',
      'Mwangi Kamau led the drivers with 2 loads.',
      'The busiest destination was Kamakis.',
      'The yard holds 400 t of sand this morning.',
      '2 payment confirmations wait for review, the oldest waiting 5 h.',
      'KBZ 456Q has a load and has not moved for 64 minutes.',
      '1 duplicate entry awaits review in the audit console.',
    ];
    for (const line of staffFigures) expect(summary.text).toContain(line);
    const telegram = bot.sent.filter((m) => m.text.startsWith('Daily summary: '));
    expect(telegram.map((m) => m.chatId).sort()).toEqual(['7001', '7002']);
    for (const m of telegram) expect(m.text).toBe(`Daily summary: ${summary.text}`);
    expect((await app.call('GET', '/api/admin/ai/insights', ops)).statusCode).toBe(403);

    // A week of mornings: every topic of the rotation is published once.
    for (let day = 1; day < 7; day++) {
      now = new Date(now.getTime() + 86_400_000);
      expect((await app.call('POST', '/api/admin/articles/run', admin)).statusCode).toBe(200);
      await app.jobs.drain();
    }
    const res = await app.call('GET', '/api/articles?limit=24');
    expect(res.statusCode).toBe(200);
    const list: Array<{ topic: string; title: string; summary: string; body: string }> = res.json();
    expect(list).toHaveLength(7);
    expect(new Set(list.map((a) => a.topic)).size).toBe(7);
    const published = JSON.stringify(list);
    const checked = [
      ...internal.names,
      ...internal.names.map((n) => n.split(' ')[0]!),
      ...internal.names.map((n) => n.split(' ')[1]!),
      ...internal.phones,
      ...internal.emails,
      ...internal.plates,
      ...internal.plates.map((p) => p.replace(' ', '')),
      ...internal.sites,
      ...internal.references,
      ...internal.kes,
      ...internal.kes.map((k) => k.replace(',', '')),
    ];
    for (const s of checked) expect(published, s).not.toContain(s);
    for (const w of internal.words) expect(published.toLowerCase(), w).not.toContain(w);
    // The only amounts are the public price guide's: base + k × increment (per truck, or for n trucks).
    const guide = new Set<number>([1_000]);
    for (let k = 0; k <= 40; k++) for (let n = 1; n <= 20; n++) guide.add(n * (32_000 + k * 1_000));
    for (const m of published.matchAll(/KES ([\d,.]+)/g))
      expect(guide.has(Number(m[1]!.replace(/,/g, ''))), `KES ${m[1]}`).toBe(true);

    // Idempotent per day: another run of the last morning adds nothing to either side.
    const alerts = bot.sent.length;
    expect((await app.call('POST', '/api/admin/articles/run', admin)).statusCode).toBe(200);
    await app.jobs.drain();
    expect((await app.call('GET', '/api/articles?limit=24')).json()).toHaveLength(7);
    expect(bot.sent.length).toBe(alerts);
  });
});

describe('the public article reworded by an OpenAI-compatible model (a local fake)', () => {
  let server: Server;
  let mode: 'inject' | 'faithful' = 'inject';
  const requests: string[] = [];
  let app: TestApp;
  let now = new Date('2026-11-23T05:00:00Z');
  beforeAll(async () => {
    // The fake model reads the article it is given and answers it back: faithfully, or with yesterday's
    // internal figures slipped in (as a model that saw them elsewhere, or was told to, would).
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        requests.push(body);
        const text: string = JSON.parse(body).messages.at(-1).content;
        const content =
          mode === 'inject'
            ? `${text}\n\nYesterday Mwangi Kamau delivered 2 loads for KES 82,500; KCC 789C is idle and 2 payment confirmations wait for review.`
            : text.replace(/^Our /, 'The ');
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            created: 1,
            model: 'fake',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    app = await createTestApp({ now: () => now, llm: createLlm({ apiKey: 'k', baseUrl, model: 'fake' }) });
  });
  afterAll(async () => {
    await app.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('refuses a rewording that adds an internal figure (the rule text is published), keeps a faithful one', async () => {
    const db = app.database.db;
    const driver = await makeDriver(db, { name: 'Mwangi Kamau' });
    const truck = await makeTruck(db, { plate: 'KCC 789C' });
    const order = await makeOrder(db, {
      name: 'Grace Wanjiku',
      perTruckCents: 4_125_000,
      status: 'DELIVERED',
    });
    await makeAssignment(db, {
      orderId: order.id,
      truckId: truck.id,
      driverId: driver.id,
      status: 'DELIVERED',
      deliveredAt: new Date('2026-11-22T09:00:00Z'),
    });
    const admin = await app.signIn('ADMIN');
    const run = async () => {
      expect((await app.call('POST', '/api/admin/articles/run', admin)).statusCode).toBe(200);
      await app.jobs.drain();
      return (await app.call('GET', '/api/articles?limit=1')).json()[0];
    };

    const refused = await run();
    expect(requests).toHaveLength(1);
    expect(refused.body).not.toMatch(/Mwangi|Kamau|82,500|KCC 789C|payment confirmation/);
    const [row] = await db.select().from(articles).where(eq(articles.id, refused.id));
    expect(row!.generator).toBe('rules');
    // The model is only ever shown the public text.
    expect(requests[0]).not.toMatch(/Mwangi|Grace|KCC|41,250|41250/);

    mode = 'faithful';
    now = new Date(now.getTime() + 86_400_000);
    const accepted = await run();
    const [llmRow] = await db.select().from(articles).where(eq(articles.id, accepted.id));
    expect(llmRow!.generator).toBe('llm');
    expect(accepted.body).not.toMatch(/Mwangi|Kamau|KCC 789C/);
  });
});
