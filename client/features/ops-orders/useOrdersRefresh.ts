import { trpc } from '../../trpc';

/** After a load or payment moves, the lists, the overview and the yard stock move with it. */
export function useOrdersRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.admin.orders.list.invalidate();
    void utils.admin.dashboard.get.invalidate();
    void utils.admin.stock.invalidate();
  };
}
