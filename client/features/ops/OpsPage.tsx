import { type ComponentType, useState } from 'react';
import { useSession } from '../../session';
import { Page } from '../../ui/Page';
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
import { TrucksTab } from '../ops-trucks/TrucksTab';
import type { TabProps } from './tab-props';

interface TabDef {
  id: string;
  label: string;
  Component: ComponentType<TabProps>;
}

const ADMIN_TABS: TabDef[] = [
  { id: 'overview', label: 'Overview', Component: OverviewTab },
  { id: 'orders', label: 'Orders', Component: OrdersTab },
  { id: 'trucks', label: 'Trucks', Component: TrucksTab },
  { id: 'drivers', label: 'Drivers', Component: DriversTab },
  { id: 'stock', label: 'Stock', Component: StockTab },
  { id: 'costs', label: 'Costs', Component: CostsTab },
  { id: 'finance', label: 'Finance', Component: FinanceTab },
  { id: 'audit', label: 'Audit', Component: AuditTab },
  { id: 'fleet', label: 'Fleet', Component: FleetTab },
  { id: 'ai', label: 'AI', Component: AiTab },
];
const OPS_TAB_IDS = ['stock', 'costs', 'fleet'];

/** /ops: ADMIN gets every tab; OPS only stock, costs and fleet (spec section 2, Workspace). */
export function OpsPage() {
  const session = useSession();
  const role = session?.role === 'ADMIN' ? 'ADMIN' : 'OPS';
  const tabs = role === 'ADMIN' ? ADMIN_TABS : ADMIN_TABS.filter((t) => OPS_TAB_IDS.includes(t.id));
  const [active, setActive] = useState(() => {
    const fromHash = window.location.hash.slice(1);
    return tabs.some((t) => t.id === fromHash) ? fromHash : tabs[0]!.id;
  });
  const current = tabs.find((t) => t.id === active) ?? tabs[0]!;

  function select(id: string) {
    setActive(id);
    window.history.replaceState(null, '', `#${id}`);
  }

  return (
    <Page title={role === 'ADMIN' ? 'Admin workspace' : 'Operations workspace'}>
      <div role="tablist" aria-label="Workspace sections" className="tabs">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={t.id === current.id}
            aria-controls={`panel-${t.id}`}
            className={t.id === current.id ? 'tab tab--active' : 'tab'}
            onClick={() => select(t.id)}
          >
            {t.label}
          </button>
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
      {role === 'ADMIN' ? <TelegramPanel /> : null}
    </Page>
  );
}
