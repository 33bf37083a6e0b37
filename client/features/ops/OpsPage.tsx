import { type ComponentType, useEffect, useRef } from 'react';
import { Link, Navigate, useLocation, useParams } from 'react-router';
import { type StaffT, useStaffT } from '../../i18n/staff';
import { useSession } from '../../session';
import { AfterFirstAnswers } from '../../ui/AfterFirstAnswers';
import { Page } from '../../ui/Page';
import { ActivityTab } from '../ops-activity/ActivityTab';
import { AiTab } from '../ops-ai/AiTab';
import { AuditTab } from '../ops-audit/AuditTab';
import { CostsTab } from '../ops-costs/CostsTab';
import { DriversTab } from '../ops-drivers/DriversTab';
import { FinanceTab } from '../ops-finance/FinanceTab';
import { FleetTab } from '../ops-fleet/FleetTab';
import { OrdersTab } from '../ops-orders/OrdersTab';
import { OverviewTab } from '../ops-overview/OverviewTab';
import { StockTab } from '../ops-stock/StockTab';
import { TelegramPanel } from '../ops-telegram/TelegramPanel';
import { TripsTab } from '../ops-trips/TripsTab';
import { TrucksTab } from '../ops-trucks/TrucksTab';
import { type TabProps, tabPath } from './tab-props';

interface TabDef {
  id: string;
  label: (t: StaffT) => string;
  Component: ComponentType<TabProps>;
}

const ADMIN_TABS: TabDef[] = [
  { id: 'overview', label: (t) => t('tabs.overview'), Component: OverviewTab },
  { id: 'orders', label: (t) => t('tabs.orders'), Component: OrdersTab },
  { id: 'trucks', label: (t) => t('tabs.trucks'), Component: TrucksTab },
  { id: 'drivers', label: (t) => t('tabs.drivers'), Component: DriversTab },
  { id: 'stock', label: (t) => t('tabs.stock'), Component: StockTab },
  { id: 'costs', label: (t) => t('tabs.costs'), Component: CostsTab },
  { id: 'finance', label: (t) => t('tabs.finance'), Component: FinanceTab },
  { id: 'audit', label: (t) => t('tabs.audit'), Component: AuditTab },
  { id: 'trips', label: (t) => t('tabs.trips'), Component: TripsTab },
  { id: 'fleet', label: (t) => t('tabs.fleet'), Component: FleetTab },
  { id: 'ai', label: (t) => t('tabs.ai'), Component: AiTab },
  { id: 'activity', label: (t) => t('tabs.activity'), Component: ActivityTab },
];
const OPS_TAB_IDS = ['stock', 'costs', 'fleet'];

/**
 * /ops: ADMIN gets every tab; OPS only stock, costs and fleet (spec section 2, Workspace). Each tab has
 * an address (/ops/orders; /ops#orders works too), so tabs link to each other and Back returns to the
 * previous tab.
 */
export function OpsPage() {
  const { t } = useStaffT();
  const session = useSession();
  const role = session?.role === 'ADMIN' ? 'ADMIN' : 'OPS';
  const tabs = role === 'ADMIN' ? ADMIN_TABS : ADMIN_TABS.filter((t) => OPS_TAB_IDS.includes(t.id));
  const { tab } = useParams();
  const { hash } = useLocation();
  const current = tabs.find((t) => t.id === (tab ?? hash.slice(1))) ?? (tab ? undefined : tabs[0]);
  const activeRef = useRef<HTMLAnchorElement>(null);
  const activeId = current?.id;
  useEffect(() => {
    // The strip scrolls on a phone: keep the open tab in sight.
    if (activeId) activeRef.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [activeId]);

  // A tab this role does not have (or a mistyped one): the workspace's first tab.
  if (!current) return <Navigate to="/ops" replace />;

  return (
    <Page title={role === 'ADMIN' ? t('workspace.admin') : t('workspace.ops')} wide>
      <div role="tablist" aria-label={t('workspace.sections')} className="tabs">
        {tabs.map((tab) => (
          <Link
            key={tab.id}
            to={tabPath(tab.id)}
            ref={tab.id === current.id ? activeRef : undefined}
            role="tab"
            id={`tab-${tab.id}`}
            aria-selected={tab.id === current.id}
            aria-controls={`panel-${tab.id}`}
            className={tab.id === current.id ? 'tab tab--active' : 'tab'}
          >
            {tab.label(t)}
          </Link>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${current.id}`}
        aria-labelledby={`tab-${current.id}`}
        className="tab-panel"
      >
        <current.Component role={role} />
      </div>
      {/* Under every tab: shown once the tab's first answers are in, so it is never pushed down. */}
      {role === 'ADMIN' ? (
        <AfterFirstAnswers>
          <TelegramPanel />
        </AfterFirstAnswers>
      ) : null}
    </Page>
  );
}
