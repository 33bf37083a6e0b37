import { describe, expect, it } from 'vitest';
import { ORDER_STATUS_LABELS } from '../../shared/domain/format';
import { STK_RESULTS, stkResultMessage } from '../../shared/domain/mpesa';
import { distanceSourceLabel } from '../../shared/domain/pricing';
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
    ] as const)
      expect(en.mpesa.messages[key]).toBe(MPESA_MESSAGES[key]);
    for (const [key, text] of Object.entries(sw.mpesa.result))
      expect(text, key).not.toBe(en.mpesa.result[key as keyof typeof en.mpesa.result]);
  });

  it('labels states as the spec does in English and in words in Kiswahili; an unknown state as given', () => {
    const enT = tOf(en);
    const swT = tOf(sw);
    for (const [code, label] of Object.entries(ORDER_STATUS_LABELS)) {
      expect(statusLabel(enT, 'order', code)).toBe(label);
      expect(statusLabel(swT, 'order', code)).not.toBe(label);
    }
    expect(statusLabel(enT, 'payment', null)).toBe('PENDING');
    expect(statusLabel(swT, 'payment', null)).toBe('Bado');
    expect(statusLabel(enT, 'load', 'IN_TRANSIT')).toBe('IN_TRANSIT');
    expect(statusLabel(swT, 'load', 'IN_TRANSIT')).toBe('Njiani');
    expect(statusLabel(swT, 'load', 'LOST_AT_SEA')).toBe('LOST_AT_SEA');
    for (const source of ['manual', 'geocoded', 'heuristic', 'default', 'unheard-of', null])
      expect(statusLabel(enT, 'distance', source)).toBe(distanceSourceLabel(source));
  });
});
