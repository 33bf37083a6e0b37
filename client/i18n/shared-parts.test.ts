import { describe, expect, it } from 'vitest';
import { STK_RESULTS, stkResultMessage } from '../../shared/domain/mpesa';
import { ORDER_STATUSES, SAND_TYPES } from '../../shared/enums';
import { MPESA_MESSAGES } from '../../shared/schemas/mpesa';
import { en } from './en';
import { statusLabel } from './labels';
import { sw } from './sw';

/** A `t` over one catalog that answers a missing key with the key, as i18next and useLandingT do. */
const tOf = (catalog: object) => (key: string) => {
  const v = key
    .split('.')
    .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], catalog);
  return typeof v === 'string' ? v : key;
};

describe('the shared parts of the customer, driver and fuel screens', () => {
  it("has every M-Pesa result code's message and the prompt's messages word for word in English, and in Kiswahili", () => {
    const english = new Set(Object.values(en.mpesa.result));
    for (const [code, r] of Object.entries(STK_RESULTS)) expect(english.has(r.message), code).toBe(true);
    expect(english.has(stkResultMessage('12345').message)).toBe(true);
    for (const key of [
      'phoneInvalid',
      'notConfigured',
      'nothingToPay',
      'promptPending',
      'unreachable',
      'tooMany',
      'tooManyPhone',
    ] as const)
      expect(en.mpesa.messages[key]).toBe(MPESA_MESSAGES[key]);
    for (const [key, text] of Object.entries(sw.mpesa.result))
      expect(text, key).not.toBe(en.mpesa.result[key as keyof typeof en.mpesa.result]);
  });

  it('labels states as the spec does in English and in words in Kiswahili; an unknown state as given', () => {
    const enT = tOf(en);
    const swT = tOf(sw);
    // The spec's order labels (section 3), word for word in English.
    const spec = {
      AWAITING_PAYMENT: 'Awaiting Payment',
      PAYMENT_REVIEW: 'Awaiting Payment Review',
      RECEIVED: 'Received',
      IN_TRANSIT: 'In Transit',
      DELIVERED: 'Delivered',
      CANCELLED: 'Cancelled',
    };
    for (const code of ORDER_STATUSES) {
      expect(statusLabel(enT, 'order', code)).toBe(spec[code]);
      expect(statusLabel(swT, 'order', code)).not.toBe(spec[code]);
    }
    expect(statusLabel(enT, 'order', 'WHATEVER')).toBe('WHATEVER');
    for (const sand of SAND_TYPES)
      expect(statusLabel(swT, 'sand', sand)).not.toBe(statusLabel(enT, 'sand', sand));
    expect(statusLabel(enT, 'sand', 'coarse')).toBe('Coarse');
    expect(statusLabel(enT, 'payment', null)).toBe('Pending');
    expect(statusLabel(swT, 'payment', null)).toBe('Bado');
    expect(statusLabel(enT, 'load', 'IN_TRANSIT')).toBe('In Transit');
    expect(statusLabel(swT, 'load', 'IN_TRANSIT')).toBe('Njiani');
    expect(statusLabel(swT, 'load', 'LOST_AT_SEA')).toBe('LOST_AT_SEA');
    // The spec's distance sources (section 3, Quote); anything else is an estimate.
    for (const [source, label] of [
      ['manual', 'manual distance'],
      ['geocoded', 'geocoded'],
      ['heuristic', 'name heuristic'],
      ['default', 'default estimate'],
      ['unheard-of', 'estimated'],
      [null, 'estimated'],
    ] as const)
      expect(statusLabel(enT, 'distance', source)).toBe(label);
  });
});
