import { type Query, skipToken, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';

/**
 * A query made (in this render or before) that has no answer yet and will ask for one: not one switched
 * off (`enabled: false`, e.g. ADMIN's driver picker on a driver's screen), which never answers. Its first
 * observer's options are the query's.
 */
function stillToAnswer(query: Query): boolean {
  if (query.state.data !== undefined || query.state.status !== 'pending') return false;
  const { enabled, queryFn } = query.options as {
    enabled?: boolean | ((q: Query) => boolean);
    queryFn?: unknown;
  };
  return queryFn !== skipToken && (typeof enabled === 'function' ? enabled(query) : enabled) !== false;
}

/**
 * A lower panel that appears only once the screen's first answers are in: until no query on the page is
 * still waiting for its first data (its own included), it is mounted but hidden, so its queries go out
 * with the rest (one batch) while the panels above it fill in. Shown earlier, it would paint first and
 * be pushed down the screen as they arrive (a cold load of /ops moved the Telegram panel by 0.7 of the
 * screen). Data already in the cache (a repeat visit, a screen the server drew with its answers) shows it
 * in the first render. Once shown it stays.
 */
export function AfterFirstAnswers({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  // Every query the panels above have made already has its answer (the server's screen, a repeat visit):
  // shown in the first render, so the server draws it too and the app's first render keeps it.
  const [ready, setReady] = useState(() => !client.getQueryCache().getAll().some(stillToAnswer));
  useEffect(() => {
    if (ready) return;
    // Runs after the panels above have subscribed (their effects run first), so their fetches count.
    const waiting = () => client.isFetching({ predicate: (query) => query.state.data === undefined }) > 0;
    if (!waiting()) {
      setReady(true);
      return;
    }
    return client.getQueryCache().subscribe(() => {
      if (!waiting()) setReady(true);
    });
  }, [client, ready]);
  return <div hidden={!ready}>{children}</div>;
}
