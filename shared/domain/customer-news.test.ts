import { describe, expect, it } from 'vitest';
import { CUSTOMER_NEWS } from '../jobs';
import { type NewsFacts, newsSms, newsTemplate, newsText, templateParameters } from './customer-news';
import { smsLength } from './sms';

// The longest an order's facts get: a six-digit order, 20 trucks at the top price, a 32-character token.
const worst: NewsFacts = {
  orderId: 999_999,
  trucks: 20,
  sandType: 'smooth',
  total: 1_600_000,
  paid: 1_250_000,
  balance: 350_000,
  trackingUrl: 'https://mchanga.co.ke/track/0123456789abcdef0123456789abcdef',
  receiptUrl: 'https://mchanga.co.ke/api/orders/999999/receipt?token=0123456789abcdef0123456789abcdef',
  deliveryCode: '0427',
  plate: 'KDD 404S',
  driverName: 'Peter Kamau',
  loadNo: 12,
  loads: 20,
};

describe('newsSms', () => {
  it.each(CUSTOMER_NEWS.flatMap((e) => (['en', 'sw'] as const).map((l) => [e, l] as const)))(
    '%s in %s is one GSM-7 SMS at the longest, or not sent by SMS',
    (event, lang) => {
      for (const f of [worst, { ...worst, balance: 0 }]) {
        const sms = newsSms(event, f, lang);
        if (['load.scheduled', 'load.arrived'].includes(event)) expect(sms).toBeNull();
        else expect(smsLength(sms!), sms!).toMatchObject({ encoding: 'GSM-7', segments: 1 });
      }
    },
  );

  it.each([
    [
      'order.placed',
      'en',
      'Mchanga: Order #42 KES 64,000. Pay M-Pesa acc MCH42. Delivery code 0427. https://m.ke/t/x',
    ],
    [
      'order.placed',
      'sw',
      'Mchanga: Oda #42 KES 64,000. Lipa M-Pesa akaunti MCH42. Namba ya kupokea 0427. https://m.ke/t/x',
    ],
    ['payment.received', 'en', 'Mchanga: Received KES 64,000 for order #42. Paid in full.'],
    ['load.left_yard', 'sw', 'Mchanga: Lori KDD 404S la oda #42 liko njiani. https://m.ke/t/x'],
    ['load.delivered', 'en', 'Mchanga: Sand for order #42 delivered. Thank you!'],
  ] as const)('%s (%s)', (event, lang, expected) => {
    const f: NewsFacts = {
      orderId: 42,
      trucks: 2,
      sandType: 'coarse',
      total: 64_000,
      paid: 64_000,
      balance: 0,
      trackingUrl: 'https://m.ke/t/x',
      deliveryCode: '0427',
      plate: 'KDD 404S',
    };
    expect(newsSms(event, f, lang)).toBe(expected);
  });
});

describe('templates', () => {
  it.each([
    ['order.placed', 'orderUpdate'],
    ['payment.received', 'paymentReceived'],
    ['load.scheduled', 'orderUpdate'],
    ['load.left_yard', 'orderUpdate'],
    ['load.arrived', 'orderUpdate'],
    ['load.delivered', 'delivered'],
  ] as const)('%s goes as %s', (event, template) => {
    expect(newsTemplate(event)).toBe(template);
  });

  it.each(CUSTOMER_NEWS)('%s: {{1}} the order number, {{2}} one line Meta accepts', (event) => {
    for (const lang of ['en', 'sw'] as const) {
      const [number, news] = templateParameters(event, worst, lang);
      expect(number).toBe('#999999');
      expect(news).not.toMatch(/[\n\t]| {5}/);
      expect(news!.length).toBeGreaterThan(10);
    }
  });

  it('writes the free-form news with the receipt only once paid in full', () => {
    expect(newsText('payment.received', worst, 'en')).toBe(
      'We received KES 1,250,000 for order #999999. Balance: KES 350,000.',
    );
    expect(newsText('payment.received', { ...worst, balance: 0 }, 'sw')).toBe(
      `Tumepokea KES 1,250,000 kwa oda #999999. Imelipwa yote; tutapanga malori.\nRisiti: ${worst.receiptUrl}`,
    );
  });
});
