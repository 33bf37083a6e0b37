import { useEffect, useState } from 'react';

/** The current time, renewed every `everyMs`: for "last seen N min ago" on a screen left open. */
export function useNow(everyMs = 30_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
