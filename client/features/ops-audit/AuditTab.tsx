import type { TabProps } from '../ops/tab-props';

export function AuditTab(_props: TabProps) {
  return (
    <section aria-labelledby="tab-audit-heading">
      <h2 id="tab-audit-heading">Audit</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
