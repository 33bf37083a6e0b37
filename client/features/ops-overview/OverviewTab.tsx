import type { TabProps } from '../ops/tab-props';

export function OverviewTab(_props: TabProps) {
  return (
    <section aria-labelledby="tab-overview-heading">
      <h2 id="tab-overview-heading">Overview</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
