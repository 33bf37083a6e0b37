import type { TabProps } from '../ops/tab-props';

export function FleetTab(_props: TabProps) {
  return (
    <section aria-labelledby="tab-fleet-heading">
      <h2 id="tab-fleet-heading">Fleet</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
