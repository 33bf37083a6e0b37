import { describe, expect, it } from 'vitest';
import { allowedAmounts, amountsIn, type ChatFacts, ruleBasedAnswer } from './chat';
import { DEFAULT_PRICING } from './pricing';

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
    ['bei ya mchanga hadi Mombasa', /Mombasa .* per truck/],
    ['Bei ya mchanga hadi Ruiru kwa lori 2?', /KES 32,000 per truck, KES 64,000 for 2 trucks/],
    ['price for 21 km', /KES 34,000 per truck/],
    ['How do I pay?', /ABSA paybill 303030/],
    ['nataka kulipa kwa mpesa', /paybill/],
    ['When are you open?', /06:30-19:00/],
    ['saa ngapi mnafungua', /06:30-19:00|KES/],
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
