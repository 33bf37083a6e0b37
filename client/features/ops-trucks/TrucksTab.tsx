import type { TabProps } from '../ops/tab-props';

export function TrucksTab(_props: TabProps) {
  return (
    <section aria-labelledby="tab-trucks-heading">
      <h2 id="tab-trucks-heading">Trucks</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
