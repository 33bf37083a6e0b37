import type { TabProps } from '../ops/tab-props';

export function FinanceTab(_props: TabProps) {
  return (
    <section aria-labelledby="tab-finance-heading">
      <h2 id="tab-finance-heading">Finance</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
