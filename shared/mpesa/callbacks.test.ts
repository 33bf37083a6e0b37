import { describe, expect, it } from 'vitest';
import { fixture, STK_FAILURE_CODES } from '../../test/fixtures/daraja';
import { cleanReceipt, parseC2b, parseJson, parseStkCallback, parseStkQueryAnswer } from './callbacks';

describe("Daraja's documented payloads", () => {
  it('reads a successful STK callback with its CallbackMetadata items', () => {
    expect(parseStkCallback(fixture('stk-callback-success'))).toEqual({
      checkoutRequestId: 'ws_CO_191220191020363925',
      merchantRequestId: '29115-34620561-1',
      resultCode: '0',
      resultDesc: 'The service request is processed successfully.',
      receipt: 'NLJ7RT61SV',
      amountCents: 100,
      paidAt: new Date('2019-12-19T07:21:15.000Z'),
      payerPhone: '2547 ***** 149',
    });
  });

  it.each(STK_FAILURE_CODES)('reads the failed STK callback %i (no metadata, no receipt)', (code) => {
    const parsed = parseStkCallback(fixture(`stk-callback-${code}`));
    expect(parsed).toMatchObject({
      checkoutRequestId: 'ws_CO_21072024125243250722943992',
      resultCode: String(code),
      receipt: null,
      amountCents: null,
    });
    expect(parsed!.resultDesc.length).toBeGreaterThan(5);
  });

  it('reads status-query answers (result codes as strings)', () => {
    expect(parseStkQueryAnswer(fixture('stk-query-success'))).toMatchObject({
      checkoutRequestId: 'ws_CO_13012021093521236557',
      resultCode: '0',
      receipt: null,
    });
    expect(parseStkQueryAnswer(fixture('stk-query-1032'))).toMatchObject({ resultCode: '1032' });
    expect(parseStkQueryAnswer(fixture('stk-query-processing'))).toBeNull();
  });

  it('reads C2B confirmations with an unmasked and a masked MSISDN', () => {
    expect(parseC2b(fixture('c2b-confirmation'))).toEqual({
      receipt: 'LGR219G3EY',
      amountCents: 1000,
      paidAt: new Date('2017-07-27T07:42:47.000Z'),
      accountRef: 'xyz',
      shortcode: '600134',
      payerName: 'John Doe',
      payerPhone: '2547 ***** 149',
    });
    expect(parseC2b(fixture('c2b-confirmation-masked'))).toMatchObject({
      receipt: 'RKL51ZDR4F',
      amountCents: 500,
      accountRef: 'Sample Transaction',
      payerName: 'NICHOLAS',
      payerPhone: '2547 ***** 126',
    });
    expect(parseC2b(fixture('c2b-validation'))).toMatchObject({ receipt: 'LHG31AA5TX', amountCents: 20_000 });
  });

  it('refuses what is not one of them', () => {
    expect(parseStkCallback({ Body: {} })).toBeNull();
    expect(parseStkCallback(fixture('c2b-confirmation'))).toBeNull();
    expect(parseC2b(fixture('stk-callback-success'))).toBeNull();
    expect(
      parseC2b({ ...fixture<Record<string, unknown>>('c2b-confirmation'), TransAmount: '-5' }),
    ).toBeNull();
    expect(parseC2b({ ...fixture<Record<string, unknown>>('c2b-confirmation'), TransID: 'x' })).toBeNull();
    expect(parseJson('not json')).toBeUndefined();
    expect(cleanReceipt(' nlj7rt61sv ')).toBe('NLJ7RT61SV');
    expect(cleanReceipt('NLJ7-RT61')).toBeNull();
  });
});
