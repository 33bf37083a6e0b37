import type { StaffT } from '../../i18n/staff';
import { type Preloadable, preloadable } from '../../lazy';
import type { TabProps } from './tab-props';

export interface TabDef {
  id: string;
  label: (t: StaffT) => string;
  /** The tab in a chunk of its own: a cold /ops/orders loads the orders tab, not the other eleven. */
  view: Preloadable<TabProps>;
}

// One object per tab with its import on the line after its id: the build reads this file
// (scripts/route-modules.ts, opsTabTable) so that the page for /ops/<id> preloads that tab's chunk.
export const ADMIN_TABS: TabDef[] = [
  {
    id: 'overview',
    label: (t) => t('tabs.overview'),
    view: preloadable(() => import('../ops-overview/OverviewTab').then((m) => m.OverviewTab)),
  },
  {
    id: 'orders',
    label: (t) => t('tabs.orders'),
    view: preloadable(() => import('../ops-orders/OrdersTab').then((m) => m.OrdersTab)),
  },
  {
    id: 'trucks',
    label: (t) => t('tabs.trucks'),
    view: preloadable(() => import('../ops-trucks/TrucksTab').then((m) => m.TrucksTab)),
  },
  {
    id: 'drivers',
    label: (t) => t('tabs.drivers'),
    view: preloadable(() => import('../ops-drivers/DriversTab').then((m) => m.DriversTab)),
  },
  {
    id: 'stock',
    label: (t) => t('tabs.stock'),
    view: preloadable(() => import('../ops-stock/StockTab').then((m) => m.StockTab)),
  },
  {
    id: 'costs',
    label: (t) => t('tabs.costs'),
    view: preloadable(() => import('../ops-costs/CostsTab').then((m) => m.CostsTab)),
  },
  {
    id: 'finance',
    label: (t) => t('tabs.finance'),
    view: preloadable(() => import('../ops-finance/FinanceTab').then((m) => m.FinanceTab)),
  },
  {
    id: 'audit',
    label: (t) => t('tabs.audit'),
    view: preloadable(() => import('../ops-audit/AuditTab').then((m) => m.AuditTab)),
  },
  {
    id: 'trips',
    label: (t) => t('tabs.trips'),
    view: preloadable(() => import('../ops-trips/TripsTab').then((m) => m.TripsTab)),
  },
  {
    id: 'fleet',
    label: (t) => t('tabs.fleet'),
    view: preloadable(() => import('../ops-fleet/FleetTab').then((m) => m.FleetTab)),
  },
  {
    id: 'ai',
    label: (t) => t('tabs.ai'),
    view: preloadable(() => import('../ops-ai/AiTab').then((m) => m.AiTab)),
  },
  {
    id: 'activity',
    label: (t) => t('tabs.activity'),
    view: preloadable(() => import('../ops-activity/ActivityTab').then((m) => m.ActivityTab)),
  },
];
const OPS_TAB_IDS = ['stock', 'costs', 'fleet'];

export type WorkspaceRole = 'ADMIN' | 'OPS';

/** ADMIN gets every tab; OPS only stock, costs and fleet (spec section 2, Workspace). */
export function tabsFor(role: WorkspaceRole): TabDef[] {
  return role === 'ADMIN' ? ADMIN_TABS : ADMIN_TABS.filter((t) => OPS_TAB_IDS.includes(t.id));
}

/**
 * The tab an address opens: /ops/<id>, or /ops#<id>, or the role's first tab for a bare /ops. Undefined
 * for a tab this role does not have (or a mistyped one).
 */
export function openTab(role: WorkspaceRole, tab: string | undefined, hash: string): TabDef | undefined {
  const tabs = tabsFor(role);
  const id = tab ?? hash.replace(/^#/, '');
  return tabs.find((t) => t.id === id) ?? (tab ? undefined : tabs[0]);
}

/**
 * Loads the chunk of the tab `pathname` and `hash` open for `role`: the page's first render waits for it,
 * beside the page's own chunk, so the tab does not show a loading line first. The other tabs load when
 * their link is touched, hovered or focused (OpsPage). A failed load is tried again when the tab renders.
 */
export async function preloadOpenTab(role: WorkspaceRole, pathname: string, hash: string): Promise<void> {
  const id = /^\/ops\/([^/]+)\/?$/.exec(pathname)?.[1];
  await openTab(role, id, hash)
    ?.view.preload()
    .catch(() => {});
}
