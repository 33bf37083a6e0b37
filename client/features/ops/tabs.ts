import { type Preloadable, preloadable } from '../../lazy';
import { openTabId, type TabId, tabIdsFor, type WorkspaceRole } from './tab-list';
import type { TabProps } from './tab-props';

export type { WorkspaceRole } from './tab-list';

export interface TabDef {
  id: TabId;
  /** The tab in a chunk of its own: a cold /ops/orders loads the orders tab, not the other eleven. */
  view: Preloadable<TabProps>;
}

// Each tab's chunk, one line per tab: the build reads this file (scripts/route-modules.ts, opsTabTable)
// so that the page for /ops/<id> preloads that tab's chunk. The order and who has which are tab-list.ts's.
const VIEWS: Record<TabId, Preloadable<TabProps>> = {
  overview: preloadable(() => import('../ops-overview/OverviewTab').then((m) => m.OverviewTab)),
  orders: preloadable(() => import('../ops-orders/OrdersTab').then((m) => m.OrdersTab)),
  trucks: preloadable(() => import('../ops-trucks/TrucksTab').then((m) => m.TrucksTab)),
  drivers: preloadable(() => import('../ops-drivers/DriversTab').then((m) => m.DriversTab)),
  stock: preloadable(() => import('../ops-stock/StockTab').then((m) => m.StockTab)),
  costs: preloadable(() => import('../ops-costs/CostsTab').then((m) => m.CostsTab)),
  finance: preloadable(() => import('../ops-finance/FinanceTab').then((m) => m.FinanceTab)),
  audit: preloadable(() => import('../ops-audit/AuditTab').then((m) => m.AuditTab)),
  trips: preloadable(() => import('../ops-trips/TripsTab').then((m) => m.TripsTab)),
  fleet: preloadable(() => import('../ops-fleet/FleetTab').then((m) => m.FleetTab)),
  ai: preloadable(() => import('../ops-ai/AiTab').then((m) => m.AiTab)),
  activity: preloadable(() => import('../ops-activity/ActivityTab').then((m) => m.ActivityTab)),
};

const tabDef = (id: TabId): TabDef => ({ id, view: VIEWS[id] });

/** Loads a tab's chunk (its link is about to be used). */
export const preloadTab = (id: TabId) => VIEWS[id].preload();

/** ADMIN gets every tab; OPS only stock, costs and fleet (spec section 2, Workspace). */
export function tabsFor(role: WorkspaceRole): TabDef[] {
  return tabIdsFor(role).map(tabDef);
}

/**
 * The tab an address opens: /ops/<id>, or /ops#<id>, or the role's first tab for a bare /ops. Undefined
 * for a tab this role does not have (or a mistyped one).
 */
export function openTab(role: WorkspaceRole, tab: string | undefined, hash: string): TabDef | undefined {
  const id = openTabId(role, tab, hash);
  return id ? tabDef(id) : undefined;
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
