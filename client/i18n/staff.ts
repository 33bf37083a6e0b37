import type { CostType } from '../../shared/enums';
import { i18n, useTranslation } from './index';
import { staffEn } from './staff-en';

/**
 * The staff workspace's labels (namespace `staff`). Its English comes with the screens that import this
 * module (the /ops chunk), its Kiswahili loads when chosen (client/i18n/index.ts). Naming the namespace
 * here makes a later switch to Kiswahili load it before the screens change language.
 */
if (!i18n.hasResourceBundle('en', 'staff')) i18n.addResourceBundle('en', 'staff', staffEn);
void i18n.loadNamespaces('staff');

/**
 * `t` for the staff screens: keys of staff-en.ts. It never suspends: while the Kiswahili catalog loads
 * the screen keeps its English, so an open form is not unmounted by a language switch.
 */
export function useStaffT() {
  return useTranslation('staff', { useSuspense: false });
}

/** The `t` of useStaffT, for helpers that build labels outside a component. */
export type StaffT = ReturnType<typeof useStaffT>['t'];

/** A cost type of shared/enums.ts as a word of the screen's language; an unknown one as given. */
export function costTypeLabel(t: StaffT, type: string): string {
  const labels: Record<CostType, string> = {
    FUEL: t('costTypes.FUEL'),
    SALARY: t('costTypes.SALARY'),
    REPAIR: t('costTypes.REPAIR'),
    MAINTENANCE: t('costTypes.MAINTENANCE'),
    LOADING: t('costTypes.LOADING'),
    OFFLOADING: t('costTypes.OFFLOADING'),
    STOCK_PURCHASE: t('costTypes.STOCK_PURCHASE'),
    OTHER: t('costTypes.OTHER'),
  };
  return labels[type as CostType] ?? type;
}
