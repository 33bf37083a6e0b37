import type { TabProps } from '../ops/tab-props';

export function OrdersTab(_props: TabProps) {
  return (
    <section aria-labelledby="tab-orders-heading">
      <h2 id="tab-orders-heading">Orders</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
