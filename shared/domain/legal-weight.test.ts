import { describe, expect, it } from 'vitest';
import { DEFAULT_GROSS_LIMITS_T, legalPayloadT, legalWeight } from './legal-weight';

describe('legalWeight (Cap 403 limits 18/26/30 t)', () => {
  it.each([
    // axles, tare, tonnes → legal, legal payload
    [2, 7, 11, true, 11],
    [2, 7, 11.01, false, 11],
    [3, 6, 20, true, 20], // the case: a "20-tonne load" is legal on a 3-axle only at ≤ 6 t tare
    [3, 6.01, 20, false, 19.99],
    [3, 9, 20, false, 17],
    [4, 10, 20, true, 20],
    [4, 11, 20, false, 19],
    [2, 20, 1, false, 0], // heavier than its limit empty: no legal payload at all
  ] as const)(
    '%i axles, tare %f t, load %f t → legal %s, payload %f t',
    (axles, tareT, tonnes, legal, payload) => {
      const v = legalWeight({ axles, tareT }, tonnes, DEFAULT_GROSS_LIMITS_T);
      expect(v.legal).toBe(legal);
      expect(v.legalPayloadT).toBe(payload);
      if (!v.legal) expect(v.grossT).toBe(Math.round((tareT + tonnes) * 100) / 100);
    },
  );

  it('a truck without a tare cannot be checked and passes as unknown', () => {
    expect(legalWeight({ axles: 3, tareT: null }, 40, DEFAULT_GROSS_LIMITS_T)).toEqual({
      legal: true,
      unknown: true,
      legalPayloadT: null,
    });
  });

  it('uses the edited limits, not the seeded ones', () => {
    expect(legalWeight({ axles: 3, tareT: 8 }, 20, { 3: 28 }).legal).toBe(true);
    expect(legalWeight({ axles: 3, tareT: 8 }, 20, { 3: 26 }).legal).toBe(false);
  });

  it('counts in hundredths of a tonne', () => expect(legalPayloadT(26, 8.33)).toBe(17.67));
});
