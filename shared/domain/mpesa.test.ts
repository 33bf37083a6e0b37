import { describe, expect, it } from 'vitest';
import {
  accountRefOf,
  amountToCents,
  darajaTimestamp,
  maskMsisdn,
  normaliseMsisdn,
  parseAccountRef,
  parseDarajaTime,
  payerName,
  STK_RESULTS,
  splitAmount,
  stkAmountKes,
  stkOutcomeOf,
  stkPassword,
  stkResultMessage,
} from './mpesa';

describe('account numbers', () => {
  it('is MCH and the order id', () => expect(accountRefOf(42)).toBe('MCH42'));

  it.each([
    ['MCH42', 42],
    ['mch 42', 42],
    ['MCH-42', 42],
    ['Mch42', 42],
    [' m c h - 4 2 ', 42],
    ['MCH_42', 42],
    ['MCH.42', 42],
    ['MCH0042', 42],
    ['mch\t1000007', 1_000_007],
    ['MCH', null],
    ['MCH0', null],
    ['42', null],
    ['MCHANGA', null],
    ['MCH42A', null],
    ['XMCH42', null],
    ['MCH 4/2', null],
    ['MCH9999999999', null],
    ['MCH2147483648', null],
    ['', null],
    [null, null],
  ])('%j → %s', (typed, id) => expect(parseAccountRef(typed)).toBe(id));

  it('reads back every account number it makes', () => {
    for (const id of [1, 42, 999, 2_147_483_647]) expect(parseAccountRef(accountRefOf(id))).toBe(id);
  });
});

describe('phone numbers', () => {
  it.each([
    ['0712345678', '254712345678'],
    ['0712 345 678', '254712345678'],
    ['712345678', '254712345678'],
    ['+254 712-345-678', '254712345678'],
    ['254712345678', '254712345678'],
    ['(0712) 345678', '254712345678'],
    ['0110000126', '254110000126'],
    ['+254110000126', '254110000126'],
    ['0812345678', null],
    ['071234567', null],
    ['07123456789', null],
    ['2557123456789', null],
    ['25471234567', null],
    ['0712a45678', null],
    ['', null],
    [null, null],
  ])('%j → %s', (typed, msisdn) => expect(normaliseMsisdn(typed)).toBe(msisdn));

  it.each([
    ['254712345126', '2547 ***** 126'],
    [254712345126, '2547 ***** 126'],
    ['2547 ***** 126', '2547 ***** 126'],
    ['2547  *****  126', '2547 ***** 126'],
    ['0110000126', '2541 ***** 126'],
    ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', null],
    ['', null],
    [null, null],
  ])('masks %j as %j', (value, masked) => expect(maskMsisdn(value)).toBe(masked));
});

describe('amounts', () => {
  it.each([
    [6_400_000, 64_000],
    [3_200_050, 32_001],
    [1, 1],
    [0, 0],
  ])('STK asks whole shillings, rounding cents up: %i cents → KES %i', (cents, kes) =>
    expect(stkAmountKes(cents)).toBe(kes),
  );

  it.each([
    [64_000, [64_000]],
    [250_000, [250_000]],
    [250_001, [250_000, 1]],
    [640_000, [250_000, 250_000, 140_000]],
    [750_000, [250_000, 250_000, 250_000]],
    [0, []],
    [-5, []],
  ])('splits KES %i into prompts of at most 250,000: %j', (amount, parts) => {
    expect(splitAmount(amount)).toEqual(parts);
    expect(splitAmount(amount).reduce((a, b) => a + b, 0)).toBe(Math.max(0, amount));
  });

  it.each([
    ['5000.00', 500_000],
    ['5.00', 500],
    [1.0, 100],
    [10500, 1_050_000],
    ['1,500', 150_000],
    ['0.00', null],
    ['-5', null],
    ['abc', null],
    ['1e5', null],
    ['', null],
    [null, null],
  ])('M-Pesa amount %j → %s cents', (value, cents) => expect(amountToCents(value)).toBe(cents));
});

describe('Daraja time and password', () => {
  it('writes and reads Nairobi time (UTC+3)', () => {
    expect(darajaTimestamp(new Date('2026-11-23T06:24:08Z'))).toBe('20261123092408');
    expect(darajaTimestamp(new Date('2026-12-31T22:00:00Z'))).toBe('20270101010000');
    expect(parseDarajaTime('20191219102115')?.toISOString()).toBe('2019-12-19T07:21:15.000Z');
    expect(parseDarajaTime(20191219102115)?.toISOString()).toBe('2019-12-19T07:21:15.000Z');
    expect(parseDarajaTime('20190230102115')).toBeNull();
    expect(parseDarajaTime('20191219252115')).toBeNull();
    expect(parseDarajaTime('2019-12-19')).toBeNull();
    expect(parseDarajaTime(undefined)).toBeNull();
  });

  it('is base64(shortcode + passkey + timestamp), as in Daraja’s sandbox example', () => {
    const passkey = 'bfb279f9aa9bdbcf158e97dd71a467cd2e0c893059b10f78e6b72ada1ed2c919';
    expect(stkPassword('174379', passkey, '20210628092408')).toBe(
      'MTc0Mzc5YmZiMjc5ZjlhYTliZGJjZjE1OGU5N2RkNzFhNDY3Y2QyZTBjODkzMDU5YjEwZjc4ZTZiNzJhZGExZWQyYzkxOTIwMjEwNjI4MDkyNDA4',
    );
  });
});

describe('payer and results', () => {
  it.each([
    [['NICHOLAS', '', ''], 'NICHOLAS'],
    [['John', 'Kamau ', ' Doe'], 'John Kamau Doe'],
    [['', null, undefined], null],
    [['Mary\u0000', '\u200bWanjiru'], 'Mary Wanjiru'],
  ])('payer %j → %j', (parts, name) => expect(payerName(parts)).toBe(name));

  it.each([
    [0, 'PAID', 'Payment received. Thank you!', false],
    [1, 'FAILED', 'Your M-Pesa balance is not enough', true],
    [1031, 'FAILED', 'You cancelled the M-Pesa prompt', true],
    ['1031', 'FAILED', 'You cancelled the M-Pesa prompt', true],
    [1032, 'FAILED', 'You cancelled the M-Pesa prompt', true],
    ['1037', 'FAILED', 'We could not reach your phone', true],
    [2001, 'FAILED', 'The M-Pesa PIN was wrong', true],
    [1019, 'FAILED', 'The prompt expired', true],
    [1001, 'FAILED', 'Another M-Pesa payment is in progress', true],
    [4, 'FAILED', 'daily M-Pesa limit', false],
    [7777, 'FAILED', 'M-Pesa did not complete the payment', true],
  ])('result %j is %s: %s', (code, outcome, message, retry) => {
    expect(stkOutcomeOf(code)).toBe(outcome);
    expect(stkResultMessage(code).message).toContain(message);
    expect(stkResultMessage(code).retry).toBe(retry);
  });

  it('has a full sentence for every known code', () => {
    for (const { message } of Object.values(STK_RESULTS)) expect(message).toMatch(/^[A-Z].*[.!]$/);
  });
});
