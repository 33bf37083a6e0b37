import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../shared/constants';
import { FLEET_MESSAGES } from '../../shared/schemas/fleet';
import { ORDER_MESSAGES } from '../../shared/schemas/orders';
import { checkText, setChecksLanguage } from './checks';
import { checksSw } from './checks-sw';

describe('form checks and refusals in the screen language', () => {
  afterEach(() => setChecksLanguage('en'));

  it('a Kiswahili screen shows the Kiswahili of the exact English message; English screens the English', async () => {
    await setChecksLanguage('sw');
    expect(checkText(ORDER_MESSAGES.referenceRequired)).toBe('Nambari ya kumbukumbu ya malipo inahitajika.');
    expect(checkText(MESSAGES.passwordTooShort)).toBe('Nenosiri lazima liwe na angalau herufi 8.');
    expect(checkText(FLEET_MESSAGES.driverId)).toBe('Weka kitambulisho cha kipekee cha dereva.');
    expect(checkText('Enter a valid email address.')).toBe('Weka barua pepe sahihi.');
    // One built from figures, or anything else, is shown as written.
    expect(checkText('Only 20 t remain to schedule on this order.')).toBe(
      'Only 20 t remain to schedule on this order.',
    );
    await setChecksLanguage('en');
    expect(checkText(ORDER_MESSAGES.referenceRequired)).toBe('Payment reference is required.');
  });

  it('every Kiswahili message is a translation: not the English, not empty, figures kept', () => {
    expect(checksSw.size).toBeGreaterThan(100);
    for (const [english, kiswahili] of checksSw) {
      expect(english, kiswahili).toMatch(/\S/);
      expect(kiswahili.trim(), english).not.toBe('');
      expect(kiswahili, english).not.toBe(english);
      for (const figure of english.match(/\d+/g) ?? []) expect(kiswahili, english).toContain(figure);
    }
  });
});
