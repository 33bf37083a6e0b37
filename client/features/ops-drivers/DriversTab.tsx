import type { TabProps } from '../ops/tab-props';

export function DriversTab(_props: TabProps) {
  return (
    <section aria-labelledby="tab-drivers-heading">
      <h2 id="tab-drivers-heading">Drivers</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
