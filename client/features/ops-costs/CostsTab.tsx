import type { TabProps } from '../ops/tab-props';

export function CostsTab(_props: TabProps) {
  return (
    <section aria-labelledby="tab-costs-heading">
      <h2 id="tab-costs-heading">Costs</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
