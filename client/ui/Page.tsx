import type { ReactNode } from 'react';

export function Page({
  title,
  subtitle,
  wide = false,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  /** Room for wide tables (the workspace). */
  wide?: boolean;
  children?: ReactNode;
}) {
  return (
    <main className={wide ? 'page page--wide' : 'page'}>
      <h1>{title}</h1>
      {subtitle ? <p className="page__subtitle">{subtitle}</p> : null}
      {children}
    </main>
  );
}

/** A workspace whose screens come with a later issue: its heading and one honest line, no fake data. */
export function ComingLater({ title, subtitle }: { title: string; subtitle?: ReactNode }) {
  return (
    <Page title={title} subtitle={subtitle}>
      <p className="muted">Coming in a later release.</p>
    </Page>
  );
}
