import type { TabProps } from '../ops/tab-props';

export function StockTab(_props: TabProps) {
  return (
    <section aria-labelledby="tab-stock-heading">
      <h2 id="tab-stock-heading">Stock</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
