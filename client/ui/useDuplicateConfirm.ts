import { TRPCClientError } from '@trpc/client';
import { useState } from 'react';
import type { z } from 'zod';

/** A submission the server answered with 409 `duplicate`: the entry it matches, shown beside it. */
export interface SuspectedDuplicate<I, E> {
  input: I;
  message: string;
  existing: E;
}

type Confirmed = { overrideDuplicate: true; duplicateOf: number };

/** The duplicate answer's `existing`, when the error is one (and it has the expected shape). */
function duplicateOf<E>(error: unknown, schema: z.ZodType<E>): { message?: string; existing: E } | null {
  if (!(error instanceof TRPCClientError) || error.data?.httpStatus !== 409) return null;
  const details = error.data?.details as
    | { duplicate?: boolean; message?: string; existing?: unknown }
    | undefined;
  if (details?.duplicate !== true) return null;
  const existing = schema.safeParse(details.existing);
  return existing.success ? { message: details.message, existing: existing.data } : null;
}

/**
 * The duplicate-confirm flow of the cost and fuel forms: submit; on a 409 duplicate answer keep the
 * input and the earlier entry for the comparison panel; Confirm resends with overrideDuplicate and
 * duplicateOf; Cancel closes the panel.
 */
export function useDuplicateConfirm<I extends object, E extends { id: number }, R>(options: {
  /** The shape of the earlier entry the server sends back. */
  existing: z.ZodType<E>;
  /** The panel's message when the server sends none. */
  fallbackMessage: string;
  send: (input: I | (I & Confirmed)) => Promise<R>;
  onSaved: (result: R, flagged: boolean) => void;
  /** Any other failure; `confirming` tells a failed confirmation from a failed first submission. */
  onError: (error: unknown, confirming: boolean) => void;
}) {
  const [duplicate, setDuplicate] = useState<SuspectedDuplicate<I, E> | null>(null);
  const [busy, setBusy] = useState(false);

  async function send(input: I | (I & Confirmed), confirming: boolean) {
    setBusy(true);
    try {
      const result = await options.send(input);
      setDuplicate(null);
      options.onSaved(result, confirming);
    } catch (error) {
      const found = confirming ? null : duplicateOf(error, options.existing);
      if (found) {
        setDuplicate({
          input: input as I,
          message: found.message || options.fallbackMessage,
          existing: found.existing,
        });
      } else {
        setDuplicate(null);
        options.onError(error, confirming);
      }
    } finally {
      setBusy(false);
    }
  }

  return {
    /** The open comparison, or null. */
    duplicate,
    busy,
    submit: (input: I) => send(input, false),
    confirm: () =>
      duplicate
        ? send({ ...duplicate.input, overrideDuplicate: true, duplicateOf: duplicate.existing.id }, true)
        : Promise.resolve(),
    cancel: () => setDuplicate(null),
    /** Opens the panel for an answer that came earlier (a queued entry's 409, client/offline/outbox.ts). */
    show: (input: I, message: string | undefined, existing: unknown) => {
      const parsed = options.existing.safeParse(existing);
      if (parsed.success)
        setDuplicate({ input, message: message || options.fallbackMessage, existing: parsed.data });
      return parsed.success;
    },
  };
}
