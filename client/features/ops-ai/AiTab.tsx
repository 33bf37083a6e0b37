import type { TabProps } from '../ops/tab-props';

export function AiTab(_props: TabProps) {
  return (
    <section aria-labelledby="tab-ai-heading">
      <h2 id="tab-ai-heading">AI</h2>
      <p className="muted">Coming in a later release.</p>
    </section>
  );
}
