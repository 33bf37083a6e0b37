import { OPS_WORKSPACE_TABS } from '../../../shared/roles';
import type { StaffT } from '../../i18n/staff';

/**
 * The workspace's tabs in ADMIN's order, and which a role has and opens: what the screen (tabs.ts, which
 * adds each tab's chunk) and the server's top of its pages (client/staff-shell.tsx, which must not pull
 * the tabs' chunks in) both need.
 */
export const WORKSPACE_TABS = [
  'overview',
  'orders',
  'trucks',
  'drivers',
  'stock',
  'costs',
  'finance',
  'audit',
  'trips',
  'fleet',
  'ai',
  'activity',
] as const;
export type TabId = (typeof WORKSPACE_TABS)[number];

export type WorkspaceRole = 'ADMIN' | 'OPS';

/** ADMIN gets every tab; OPS only stock, costs and fleet (spec section 2, Workspace). */
export function tabIdsFor(role: WorkspaceRole): readonly TabId[] {
  const ops: readonly string[] = OPS_WORKSPACE_TABS;
  return role === 'ADMIN' ? WORKSPACE_TABS : WORKSPACE_TABS.filter((id) => ops.includes(id));
}

/**
 * The tab an address opens: /ops/<id>, or /ops#<id>, or the role's first tab for a bare /ops. Undefined
 * for a tab this role does not have (or a mistyped one).
 */
export function openTabId(role: WorkspaceRole, tab: string | undefined, hash: string): TabId | undefined {
  const ids = tabIdsFor(role);
  const id = tab ?? hash.replace(/^#/, '');
  return ids.find((t) => t === id) ?? (tab ? undefined : ids[0]);
}

/** Each tab's name in the strip (each key written out: client/i18n/catalogs.test.ts checks them). */
const TAB_LABELS: Record<TabId, (t: StaffT) => string> = {
  overview: (t) => t('tabs.overview'),
  orders: (t) => t('tabs.orders'),
  trucks: (t) => t('tabs.trucks'),
  drivers: (t) => t('tabs.drivers'),
  stock: (t) => t('tabs.stock'),
  costs: (t) => t('tabs.costs'),
  finance: (t) => t('tabs.finance'),
  audit: (t) => t('tabs.audit'),
  trips: (t) => t('tabs.trips'),
  fleet: (t) => t('tabs.fleet'),
  ai: (t) => t('tabs.ai'),
  activity: (t) => t('tabs.activity'),
};

/** The tab's name in the strip. */
export const tabLabel = (t: StaffT, id: TabId) => TAB_LABELS[id](t);
