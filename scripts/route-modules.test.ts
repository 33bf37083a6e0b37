import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_TABS } from '../client/features/ops/tab-list';
import { OPS_ROUTE, OPS_TABS_SOURCE, opsTabTable, routeTable } from './route-modules';

const CLIENT = resolve(fileURLToPath(new URL('..', import.meta.url)), 'client');

describe('the screens and workspace tabs the build gives pages of their own', () => {
  it('reads every route of client/routes.tsx with its page module, the workspace among them', () => {
    const routes = routeTable(readFileSync(join(CLIENT, 'routes.tsx'), 'utf8'));
    expect(routes.find((r) => r.path === OPS_ROUTE)).toEqual({
      path: OPS_ROUTE,
      module: 'features/ops/OpsPage.tsx',
      withApi: true,
    });
    for (const r of routes) expect(existsSync(join(CLIENT, r.module)), r.module).toBe(true);
  });

  it("reads the twelve tabs' chunks of client/features/ops/tabs.ts, and the first tab of ADMIN and of OPS", () => {
    const { tabs, firstTabs } = opsTabTable(readFileSync(join(CLIENT, OPS_TABS_SOURCE), 'utf8'));
    // Every tab of the list, each with its chunk, in the list's order.
    expect(tabs.map((t) => t.id)).toEqual([...WORKSPACE_TABS]);
    expect(tabs).toHaveLength(12);
    expect(tabs[1]).toEqual({ id: 'orders', module: 'features/ops-orders/OrdersTab.tsx' });
    for (const t of tabs) expect(existsSync(join(CLIENT, t.module)), t.module).toBe(true);
    expect(firstTabs.map((t) => t.id)).toEqual(['overview', 'stock']);
  });
});
