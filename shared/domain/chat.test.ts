import { describe, expect, it } from 'vitest';
import {
  allowedAmounts,
  amountsIn,
  boundReply,
  type ChatFacts,
  type ChatIntent,
  type ChatLang,
  chatReply,
  detectLanguage,
  foreignPaymentDetails,
  quoteHint,
  ruleBasedAnswer,
  trucksMentioned,
} from './chat';
import { findPlace, roadDistanceKm } from './distance';
import { formatMoney } from './format';
import { DEFAULT_PRICING, perTruckPrice } from './pricing';

const facts: ChatFacts = {
  pricing: DEFAULT_PRICING,
  yard: { name: 'Juja Yard', lat: -1.099, lng: 37.014 },
  banks: [
    { bank: 'ABSA', paybill: '303030', account: 'MCHANGA' },
    { bank: 'Equity', paybill: '247247', account: 'MCHANGA' },
  ],
  phone: '+254 700 000 000',
  email: 'dispatch@mchanga.co.ke',
  hours: '06:30-19:00 daily, with overnight pours on request',
};

describe('ruleBasedAnswer', () => {
  it.each([
    ['How much is sand?', /KES 32,000 per 20-tonne truck up to 15 km/],
    ['What is the price to Ruiru for 3 trucks?', /Ruiru .* KES 32,000 per truck, KES 96,000 for 3 trucks/],
    ['bei ya mchanga hadi Mombasa', /Mombasa .* kwa lori/],
    ['Bei ya mchanga hadi Ruiru kwa lori 2?', /KES 32,000 kwa lori, KES 64,000 kwa malori 2/],
    ['price for 21 km', /KES 34,000 per truck/],
    ['How do I pay?', /ABSA paybill 303030/],
    ['nataka kulipa kwa mpesa', /M-Pesa paybill kwa akaunti MCH/],
    ['When are you open?', /06:30-19:00/],
    ['saa ngapi mnafungua', /^Tunafanya kazi 06:30-19:00 kila siku/],
    ['How do I order?', /quote|place the order/i],
    ['what is smooth sand for?', /plaster/],
    ['tell me a joke', /\+254 700 000 000/],
  ])('%s', (q, expected) => expect(ruleBasedAnswer(q, facts)).toMatch(expected));
});

describe('amounts', () => {
  it('finds KES amounts', () =>
    expect(amountsIn('It is KES 32,000 or Ksh 33000, even 640,000 shillings')).toEqual([
      32000, 33000, 640000,
    ]));
  it('allows the pricing amounts and the prices of the places asked about', () => {
    const allowed = allowedAmounts(facts, ['price to Ruiru for 2 trucks']);
    expect(allowed.has(32000)).toBe(true);
    expect(allowed.has(64000)).toBe(true);
    expect(allowed.has(1000)).toBe(true);
    expect(allowed.has(25000)).toBe(false);
  });
});

describe('quoteHint (the page context)', () => {
  it.each([
    ['Latest quote: 2 trucks of coarse sand to Ruiru, KES 1 per truck.', { place: 'Ruiru', trucks: 2 }],
    ['Latest quote: 3 trucks, 23 km (manual distance), KES 99 per truck', { km: 23, place: null, trucks: 3 }],
    ['Pricing guide: KES 32000 per truck up to 15 km, KES 1000 per 5 km beyond.', null],
    ['', null],
  ])('%s', (context, expected) => {
    const hint = quoteHint(context, facts.yard);
    if (expected === null) expect(hint).toBeNull();
    else expect(hint).toMatchObject(expected);
  });

  it('answers "how much is that?" for the quoted site and trucks, priced afresh', () =>
    expect(
      ruleBasedAnswer('how much is that?', facts, 'Latest quote: 3 trucks, 23 km, KES 99 per truck'),
    ).toMatch(/^Delivery to 23 km costs KES 34,000 per truck, KES 102,000 for 3 trucks\./));
});

describe('the assistant table: intent, language and figures (English, Kiswahili and Sheng mixes)', () => {
  const withMpesa: ChatFacts = { ...facts, mpesaPaybill: '4012345' };
  type Row = [question: string, intent: ChatIntent, lang: ChatLang, site?: string | number, trucks?: number];
  const table: Row[] = [
    // English
    ['How much is sand?', 'ask_site', 'en'],
    ['What is the price to Ruiru for 3 trucks?', 'price', 'en', 'Ruiru', 3],
    ['How much for two trucks to Thika?', 'price', 'en', 'Thika', 2],
    ['price for 21 km', 'price', 'en', 21, 1],
    ['Quote for 5 loads to Kenol please', 'price', 'en', 'Kenol', 5],
    ['I want 4 trucks delivered to Juja Farm', 'price', 'en', 'Juja Farm', 4],
    ['I need 3 trucks', 'ask_site', 'en', undefined, 3],
    ['When are you open?', 'hours', 'en'],
    ['What are your working hours on Sunday?', 'hours', 'en'],
    ['Can you deliver at night for a pour?', 'hours', 'en'],
    ['How do I pay with M-Pesa?', 'payment', 'en'],
    ['What is the paybill and account number?', 'payment', 'en'],
    ['Can I pay through the bank?', 'payment', 'en'],
    ['How long does delivery take?', 'delivery', 'en'],
    ['Can I track my truck?', 'delivery', 'en'],
    ['What types of sand do you have?', 'sand', 'en'],
    ['Which sand is for plaster?', 'sand', 'en'],
    ['How do I order?', 'order', 'en'],
    ['What is your phone number?', 'contact', 'en'],
    ['tell me a joke', 'other', 'en'],
    // Kiswahili and Sheng mixes
    ['Mnafungua saa ngapi?', 'hours', 'sw'],
    ['Mnafunga saa ngapi jioni?', 'hours', 'sw'],
    ['Mnaleta usiku?', 'hours', 'sw'],
    ['Mko kazini Jumapili?', 'hours', 'sw'],
    ['Nataka trips tatu za mchanga hadi Juja', 'price', 'sw', 'Juja', 3],
    ['Bei ya lori moja hadi Ruiru ni ngapi?', 'price', 'sw', 'Ruiru', 1],
    ['Bei ya magari kumi na mbili hadi Thika?', 'price', 'sw', 'Thika', 12],
    ['Nataka lori ishirini hadi Kamakis', 'price', 'sw', 'Kamakis', 20],
    ['Gari tano hadi Githurai ni pesa ngapi?', 'price', 'sw', 'Githurai', 5],
    ['Niaje, bei ya trip mbili to Kenol ni how much?', 'price', 'sw', 'Kenol', 2],
    ['Msee, nipe malori saba ya mchanga Witeithie', 'price', 'sw', 'Witeithie', 7],
    ['Bei ya mchanga km 30 ni ngapi?', 'price', 'sw', 30, 1],
    ['Bei ya mchanga ni ngapi?', 'ask_site', 'sw'],
    ['Nataka lori tatu', 'ask_site', 'sw', undefined, 3],
    ['Nalipa aje kwa M-Pesa?', 'payment', 'sw'],
    ['Paybill yenu ni gani na akaunti?', 'payment', 'sw'],
    ['Naweza kulipa kwa benki?', 'payment', 'sw'],
    ['Mtaleta lini?', 'delivery', 'sw'],
    ['Lori itafika saa ngapi kwa site yangu?', 'hours', 'sw'],
    ['Mna aina gani za mchanga?', 'sand', 'sw'],
    ['Mchanga wa plasta ni upi?', 'sand', 'sw'],
    ['Nawezaje kuagiza mchanga?', 'order', 'sw'],
    ['Namba yenu ya simu ni gani?', 'contact', 'sw'],
    ['Habari yako', 'greeting', 'sw'],
  ];

  it('holds at least 40 questions, 20 of them in Kiswahili or a mix', () => {
    expect(table.length).toBeGreaterThanOrEqual(40);
    expect(table.filter((r) => r[2] === 'sw').length).toBeGreaterThanOrEqual(20);
  });

  it.each(table)('%s → %s (%s)', (question, intent, lang, site, trucks) => {
    const r = chatReply(question, withMpesa);
    expect({ intent: r.intent, lang: r.lang }).toEqual({ intent, lang });
    if (intent === 'price') {
      const km = typeof site === 'number' ? site : roadDistanceKm(facts.yard, findPlace(site!)!);
      const perTruck = perTruckPrice(DEFAULT_PRICING, km);
      expect(r).toMatchObject({ km, trucks, perTruck, total: perTruck * trucks! });
      expect(r.text).toContain(formatMoney(perTruck));
      if (trucks! > 1) expect(r.text).toContain(formatMoney(perTruck * trucks!));
    }
    if (intent === 'ask_site') {
      expect(r.text).toMatch(lang === 'sw' ? /Niambie eneo lako/ : /Tell me (your site|the place)/);
      if (trucks) expect(r.trucks).toBe(trucks);
    }
    if (intent === 'hours') expect(r.text).toContain('06:30-19:00');
    if (intent === 'payment') expect(r.text).toMatch(/M-Pesa paybill 4012345, (account|akaunti) MCH/);
    if (intent === 'contact') expect(r.text).toContain(facts.phone);
    // Replies in the language of the question.
    expect(detectLanguage(r.text)).toBe(lang);
  });
});

describe('number words', () => {
  it.each([
    ['lori moja', 1],
    ['trips tatu', 3],
    ['magari kumi', 10],
    ['magari kumi na tisa', 19],
    ['malori ishirini', 20],
    ['gari nane', 8],
    ['three trucks', 3],
    ['hadi Tatu City', null],
  ])('%s → %s trucks', (text, n) => expect(trucksMentioned(text)).toBe(n));
});

describe("foreignPaymentDetails: the payment details a reply may name are the business's own", () => {
  const withMpesa: ChatFacts = { ...facts, mpesaPaybill: '174379' };
  it.each([
    ['Pay to paybill 888880, account 445566.', ['paybill 888880', 'account 445566', '888880', '445566']],
    [
      'Lipa kwa paybill 522 533 akaunti 0011223344',
      ['paybill 522 533', 'akaunti 0011223344', '522 533', '0011223344'],
    ],
    ['Use till number 5 4 3 2 1 for quick payment.', ['till number 5 4 3 2 1', '5 4 3 2 1']],
    ['Pay online at https://mchanga-pay.example.com/pay now.', ['https://mchanga-pay.example.com/pay']],
    ['Order at www.cheap-sand.co.ke today', ['www.cheap-sand.co.ke']],
    ['See cheap-sand.co.ke/order for the form', ['cheap-sand.co.ke/order']],
    ['Send the reference to pay@sand-deals.com', ['pay@sand-deals.com']],
    ['Use account SANDCO when paying by bank.', ['account SANDCO']],
    ['Send the money to 0722 123 456 by M-Pesa.', ['0722 123 456']],
  ])('%s', (reply, expected) => {
    expect(foreignPaymentDetails(reply, withMpesa)).toEqual(expected);
  });

  it.each([
    'Pay by M-Pesa paybill 174379, account MCH followed by your order number (for example MCH42).',
    'Equity paybill 247247 or ABSA paybill 303030; account MCHANGA.',
    'Lipa kwa paybill 247 247, akaunti mchanga, kisha tuma namba ya malipo.',
    'Call +254 700 000 000 or 0700 000 000, or email dispatch@mchanga.co.ke.',
    'Sand costs KES 32,000 per truck within 15 km; one truck is KES 32000.',
    'Your order account is MCH 12345; we deliver on 2026-12-01.',
    'Pay your account balance by M-Pesa.',
  ])('passes %s', (reply) => {
    expect(foreignPaymentDetails(reply, withMpesa)).toEqual([]);
  });

  it('passes every rule-based answer (the fallback is always clean)', () => {
    for (const f of [facts, withMpesa])
      for (const q of [
        'How do I pay?',
        'nataka kulipa kwa mpesa',
        'price to Ruiru for 3 trucks',
        'hello',
        'nambari ya simu?',
      ])
        expect(foreignPaymentDetails(ruleBasedAnswer(q, f), f), q).toEqual([]);
  });
});

describe('the Kiswahili word for coarse sand (issue 27, item 14)', () => {
  it('says "mchanga mkubwa", never "kokoto" (ballast in Kenya)', () => {
    const reply = chatReply('Mna mchanga wa aina gani?', facts);
    expect(reply.lang).toBe('sw');
    expect(reply.text).toContain('mchanga mkubwa');
    expect(reply.text).not.toMatch(/kokoto|mchanga mbaya/i);
  });
});

describe('boundReply', () => {
  const sentence = 'Sand is delivered by the truck. ';
  it.each([
    ['short', 'Hello.', 2000, 'Hello.'],
    ['exactly the limit', 'a'.repeat(2000), 2000, 'a'.repeat(2000)],
    ['cut at the last sentence that fits', sentence.repeat(100), 2000, sentence.repeat(62).trimEnd()],
    ['cut at a space with an ellipsis', 'word '.repeat(10), 22, 'word word word word…'],
    ['cut mid-word when there is no space', 'x'.repeat(30), 10, `${'x'.repeat(9)}…`],
  ])('%s', (_name, text, max, bounded) => {
    const out = boundReply(text, max);
    expect(out).toBe(bounded);
    expect(out.length).toBeLessThanOrEqual(max);
  });
});
