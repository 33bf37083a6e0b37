import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';

/**
 * A lower panel that appears only once the screen's first answers are in: until no query on the page is
 * still waiting for its first data (its own included), it is mounted but hidden, so its queries go out
 * with the rest (one batch) while the panels above it fill in. Shown earlier, it would paint first and
 * be pushed down the screen as they arrive (a cold load of /ops moved the Telegram panel by 0.7 of the
 * screen). Data already in the cache (a repeat visit) shows it at once. Once shown it stays.
 */
export function AfterFirstAnswers({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const [ready, setReady] = useState(false);
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
