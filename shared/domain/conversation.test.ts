import { describe, expect, it } from 'vitest';
import type { ConversationState } from '../enums';
import { type Draft, type Input, nextStep, sandIn, siteIn, trucksIn } from './conversation';

const text = (t: string): Input => ({ kind: 'text', text: t });
const reply = (id: string, t = id): Input => ({ kind: 'reply', id, text: t });

describe('nextStep', () => {
  it.each<[string, ConversationState, Draft, Input, Partial<ReturnType<typeof nextStep>>]>([
    // Ordering from one sentence: the parser reads the site and the trucks ("trips tatu hadi Juja").
    [
      'a Kiswahili order naming site and trucks',
      'idle',
      {},
      text('Nataka trips tatu hadi Juja'),
      {
        state: 'ask_sand',
        lang: 'sw',
        draft: { site: 'Juja', trucks: 3 },
        action: { do: 'ask', what: 'sand' },
      },
    ],
    [
      'an English order with everything',
      'idle',
      {},
      text('I need 2 trucks of smooth sand to Ruiru'),
      {
        state: 'confirm',
        lang: 'en',
        draft: { site: 'Ruiru', sandType: 'smooth', trucks: 2 },
        action: { do: 'quote' },
      },
    ],
    [
      '"I want sand" asks for the site',
      'idle',
      {},
      text('I want sand'),
      { state: 'ask_site', action: { do: 'ask', what: 'site' } },
    ],
    ['the order button', 'idle', {}, reply('order', 'Order sand'), { state: 'ask_site' }],
    [
      'a location pin as the site',
      'ask_site',
      {},
      { kind: 'location', lat: -1.03, lng: 37.07, label: 'Plot 12, Kenyatta Road' },
      { state: 'ask_sand', draft: { site: 'Plot 12, Kenyatta Road', lat: -1.03, lng: 37.07 } },
    ],
    [
      'a typed place when the site was asked',
      'ask_site',
      {},
      text('Kimbo, near the church'),
      { state: 'ask_sand', draft: { site: 'Kimbo, near the church' } },
    ],
    [
      'a sand button',
      'ask_sand',
      { site: 'Juja' },
      reply('sand:coarse', 'Coarse sand'),
      { state: 'ask_trucks', draft: { site: 'Juja', sandType: 'coarse' } },
    ],
    [
      'typed "laini"',
      'ask_sand',
      { site: 'Juja' },
      text('laini'),
      { state: 'ask_trucks', draft: { site: 'Juja', sandType: 'smooth' }, lang: 'sw' },
    ],
    [
      'a list row of trucks',
      'ask_trucks',
      { site: 'Juja', sandType: 'coarse' },
      reply('trucks:4', '4 trucks'),
      { state: 'confirm', action: { do: 'quote' } },
    ],
    [
      'a bare number when trucks were asked',
      'ask_trucks',
      { site: 'Juja', sandType: 'coarse' },
      text('12'),
      { state: 'confirm', draft: { site: 'Juja', sandType: 'coarse', trucks: 12 } },
    ],
    [
      'a number beyond 20 asks again',
      'ask_trucks',
      { site: 'Juja', sandType: 'coarse' },
      text('25'),
      { state: 'ask_trucks', action: { do: 'ask', what: 'trucks' } },
    ],
    [
      'confirm',
      'confirm',
      { site: 'Juja', sandType: 'coarse', trucks: 3 },
      reply('confirm'),
      { action: { do: 'place' } },
    ],
    [
      '"ndio" confirms',
      'confirm',
      { site: 'Juja', sandType: 'coarse', trucks: 3 },
      text('Ndio'),
      { action: { do: 'place' }, lang: 'sw' },
    ],
    [
      'change starts again',
      'confirm',
      { site: 'Juja', sandType: 'coarse', trucks: 3 },
      reply('change'),
      { state: 'ask_site', draft: {} },
    ],
    [
      'cancel',
      'ask_trucks',
      { site: 'Juja' },
      reply('cancel'),
      { state: 'idle', draft: {}, action: { do: 'cancelled' } },
    ],
    [
      '"where is my sand?" any time',
      'ask_sand',
      { site: 'Juja' },
      text('Where is my sand?'),
      { state: 'ask_sand', action: { do: 'where' } },
    ],
    [
      '"mchanga wangu uko wapi"',
      'ordered',
      {},
      text('Mchanga wangu uko wapi?'),
      { action: { do: 'where' }, lang: 'sw' },
    ],
    ['"pay" after an order', 'ordered', {}, text('I want to pay'), { action: { do: 'pay' } }],
    ['STOP', 'confirm', { site: 'Juja' }, text('STOP'), { action: { do: 'stop' } }],
    ['unknown input gets help', 'idle', {}, text('hmm'), { state: 'idle', action: { do: 'help' } }],
    ['a photo gets help', 'ask_site', {}, { kind: 'other' }, { state: 'ask_site', action: { do: 'help' } }],
  ])('%s', (_name, state, draft, input, expected) => {
    expect(nextStep(state, draft, 'en', input)).toMatchObject(expected);
  });
});

describe('the readers', () => {
  it.each([
    ['coarse', 'coarse'],
    ['mchanga mkubwa', 'coarse'],
    ['mchanga mbaya', 'coarse'],
    ['for plaster', 'smooth'],
    ['coarse or smooth?', undefined],
  ])('sandIn(%j) = %s', (t, expected) => expect(sandIn(t)).toBe(expected));

  it.each([
    ['3 trucks', false, 3],
    ['lori tatu', false, 3],
    ['7', true, 7],
    ['7', false, undefined],
    ['0', true, undefined],
  ] as const)('trucksIn(%j, asked %s) = %s', (t, asked, expected) =>
    expect(trucksIn(t, asked)).toBe(expected),
  );

  it.each([
    ['to Ruiru please', false, 'Ruiru'],
    ['somewhere', false, undefined],
    ['Kimbo stage', true, 'Kimbo stage'],
    ['12', true, undefined],
  ] as const)('siteIn(%j, asked %s) = %s', (t, asked, expected) => expect(siteIn(t, asked)).toBe(expected));
});
