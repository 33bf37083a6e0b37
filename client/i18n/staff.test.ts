import { describe, expect, it } from 'vitest';
import { i18n, setScreenLanguage } from './index';
import { staffEn } from './staff-en';
import { staffSw } from './staff-sw';
import './staff';

describe('the staff namespace', () => {
  it('is English with the screens, loads its Kiswahili on the switch, and back', async () => {
    expect(i18n.t('tabs.orders', { ns: 'staff' })).toBe(staffEn.tabs.orders);
    expect(i18n.hasResourceBundle('sw', 'staff')).toBe(false);

    await setScreenLanguage('sw');
    // Loaded before the screens change language: no English flash on the open tab.
    expect(i18n.hasResourceBundle('sw', 'staff')).toBe(true);
    expect(i18n.t('tabs.orders', { ns: 'staff' })).toBe(staffSw.tabs.orders);
    expect(i18n.t('overview.activeLoads', { ns: 'staff', count: 1 })).toBe('Mzigo 1 unaoendelea');
    expect(i18n.t('overview.activeLoads', { ns: 'staff', count: 3 })).toBe('Mizigo 3 inayoendelea');
    // The other screens' catalog still answers in Kiswahili too.
    expect(i18n.t('common.kiswahili')).toBe('Kiswahili');
    expect(i18n.t('login.title')).not.toBe('Sign in');

    await setScreenLanguage('en');
    expect(i18n.t('tabs.orders', { ns: 'staff' })).toBe('Orders');
    expect(i18n.t('overview.activeLoads', { ns: 'staff', count: 2 })).toBe('2 active loads');
  });
});
