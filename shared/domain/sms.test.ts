import { describe, expect, it } from 'vitest';
import { isGsm7, optKeyword, smsLength, smsText } from './sms';

describe('smsLength', () => {
  it.each([
    ['', 'GSM-7', 0, 0],
    ['Hello', 'GSM-7', 5, 1],
    ['a'.repeat(160), 'GSM-7', 160, 1],
    ['a'.repeat(161), 'GSM-7', 161, 2],
    ['a'.repeat(306), 'GSM-7', 306, 2],
    ['a'.repeat(307), 'GSM-7', 307, 3],
    // Extension characters take two septets.
    ['€'.repeat(80), 'GSM-7', 160, 1],
    [`${'a'.repeat(159)}€`, 'GSM-7', 161, 2],
    // An escape pair is not split: 152 + € does not fit a 153-septet part.
    [`${'a'.repeat(152)}€${'a'.repeat(10)}`, 'GSM-7', 164, 2],
    [`${'a'.repeat(152)}€${'a'.repeat(152)}`, 'GSM-7', 306, 3],
    ['Ñ, ß, Ä, é are GSM: £5 @ 10%', 'GSM-7', 28, 1],
    // ú is not (only ù is).
    ['Ñandú', 'UCS-2', 5, 1],
    // One character outside GSM-7 makes the whole text UCS-2.
    ['Habari ✓', 'UCS-2', 8, 1],
    [`${'a'.repeat(69)}✓`, 'UCS-2', 70, 1],
    [`${'a'.repeat(70)}✓`, 'UCS-2', 71, 2],
    [`${'a'.repeat(133)}✓`, 'UCS-2', 134, 2],
    [`${'a'.repeat(134)}✓`, 'UCS-2', 135, 3],
    // An emoji is two UTF-16 units and is not split across parts.
    ['🚚', 'UCS-2', 2, 1],
    [`${'a'.repeat(69)}🚚`, 'UCS-2', 71, 2],
    [`${'a'.repeat(65)}🚚${'a'.repeat(67)}`, 'UCS-2', 134, 2],
    [`${'a'.repeat(66)}🚚${'a'.repeat(66)}`, 'UCS-2', 134, 3],
  ] as const)('%j → %s, %i units, %i parts', (text, encoding, units, segments) => {
    expect(smsLength(text)).toMatchObject({ encoding, units, segments });
  });
});

describe('smsText', () => {
  it.each([
    ['Order #12 — paid', 'Order #12 - paid'],
    ['It’s on the way…', "It's on the way..."],
    ['“Juja”', '"Juja"'],
    ['3 × 20 t · KES 1,000', '3 x 20 t - KES 1,000'],
    ['Nafasi\u00a0ya\u200b lori', 'Nafasi ya lori'],
    ['Émile Ngũgĩ', 'Émile Ngũgĩ'],
  ])('%j → %j', (given, expected) => {
    expect(smsText(given)).toBe(expected);
  });

  it('keeps a typical message in one GSM-7 part once look-alikes are replaced', () => {
    const text = 'Mchanga: order #1234 paid – KES 64,000. Your truck’s tracking link follows…';
    expect(isGsm7(text)).toBe(false);
    expect(smsLength(smsText(text))).toMatchObject({ encoding: 'GSM-7', segments: 1 });
  });
});

describe('optKeyword', () => {
  it.each([
    ['STOP', 'stop'],
    [' stop. ', 'stop'],
    ['Unsubscribe', 'stop'],
    ['SITISHA', 'stop'],
    ['start', 'start'],
    ['Anza', 'start'],
    ['stop the truck at the gate', null],
    ['cancel', null],
    ['', null],
  ])('%j → %s', (text, expected) => {
    expect(optKeyword(text)).toBe(expected);
  });
});
