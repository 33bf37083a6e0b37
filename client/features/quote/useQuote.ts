import { useEffect, useRef, useState } from 'react';
import type { TQuote } from '../../../shared/schemas/orders';
import { trpc } from '../../trpc';

export const QUOTE_DEBOUNCE_MS = 250;

export interface QuoteRequest {
  site: string;
  trucks: number;
  sandType: 'coarse' | 'smooth';
  /** The distance field as typed; sent as a number only when filled in. */
  distance: string;
}

/**
 * The instant quote: asked only when the site is not blank, 250 ms after typing pauses; a slower
 * answer to an older request never replaces a newer one.
 */
export function useQuote(request: QuoteRequest) {
  const mutation = trpc.pricing.quote.useMutation();
  const [quote, setQuote] = useState<TQuote | null>(null);
  const [failed, setFailed] = useState(false);
  const seq = useRef(0);
  const { mutateAsync } = mutation;

  useEffect(() => {
    const site = request.site.trim();
    if (!site) {
      setQuote(null);
      setFailed(false);
      return;
    }
    const distance = request.distance.trim() === '' ? undefined : Number(request.distance);
    const id = ++seq.current;
    const timer = setTimeout(() => {
      mutateAsync({
        site,
        trucks: request.trucks,
        sandType: request.sandType,
        ...(distance !== undefined && Number.isFinite(distance) && distance > 0
          ? { distanceKm: distance }
          : {}),
      })
        .then((q) => {
          if (id !== seq.current) return;
          setQuote(q);
          setFailed(false);
        })
        .catch(() => {
          if (id === seq.current) setFailed(true);
        });
    }, QUOTE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [request.site, request.trucks, request.sandType, request.distance, mutateAsync]);

  return { quote, failed, loading: mutation.isPending };
}
