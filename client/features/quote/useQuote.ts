import { keepPreviousData, skipToken } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { TQuoteInput } from '../../../shared/schemas/orders';
import { trpc } from '../../trpc';

export const QUOTE_DEBOUNCE_MS = 250;

/** What the quote is asked from: the load fields, with the distance as typed. */
export type QuoteFields = Pick<TQuoteInput, 'site' | 'trucks' | 'sandType'> & { distance: string };

/** The quote's input, or null while the site is blank; the distance is sent only when filled in. */
function quoteInput(fields: QuoteFields): TQuoteInput | null {
  const site = fields.site.trim();
  if (!site) return null;
  const distance = fields.distance.trim() === '' ? undefined : Number(fields.distance);
  return {
    site,
    trucks: fields.trucks,
    sandType: fields.sandType,
    ...(distance !== undefined && Number.isFinite(distance) && distance > 0 ? { distanceKm: distance } : {}),
  };
}

/** The value once it has stopped changing for `ms` (compared by its JSON). */
function useSettled<T>(value: T, ms: number): T {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return JSON.parse(settled) as T;
}

/**
 * The instant quote: a query keyed on the inputs once typing pauses for 250 ms, asked only when the
 * site is not blank. The last quote stays shown while the next one loads.
 */
export function useQuote(fields: QuoteFields) {
  const current = quoteInput(fields);
  const input = useSettled(current, QUOTE_DEBOUNCE_MS);
  const query = trpc.pricing.quote.useQuery(input ?? skipToken, {
    placeholderData: keepPreviousData,
    retry: false,
  });
  if (!current) return { quote: null, failed: false, loading: false };
  return { quote: query.data ?? null, failed: query.isError, loading: query.isFetching };
}
