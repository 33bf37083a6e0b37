import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import type { z } from 'zod';

type Values = Record<string, unknown>;
type Key<V> = Extract<keyof V, string>;

export interface ZodFormOptions<S extends z.ZodType, V extends Values> {
  /** The shared schema the server's procedure takes: the same rules and the same messages. */
  schema: S;
  /** The fields as typed, in the order their errors are told (the first one is the form's message). */
  initial: V | (() => V);
  /** The call's input built from the fields; the fields themselves by default. */
  toInput?: (values: V) => unknown;
  /** Issue paths (dot-joined) that belong to a field of another name, e.g. `{ truckId: 'truck' }`. */
  fields?: Readonly<Record<string, Key<V>>>;
  /** Wording that replaces the schema's for a field (the spec's simplified OPS wording). */
  messages?: Readonly<Partial<Record<Key<V>, string>>>;
}

export interface FieldErrors<V> {
  byField: Partial<Record<Key<V>, string>>;
  /** The message the form shows: the first field's in field order, else the first other issue's. */
  first: string | null;
}

/** Zod's issues as one message per field, the fields' order deciding which one the form shows. */
export function fieldErrors<V extends Values>(
  issues: z.ZodError['issues'],
  values: V,
  options: Pick<ZodFormOptions<z.ZodType, V>, 'fields' | 'messages'> = {},
): FieldErrors<V> {
  const byField: Partial<Record<Key<V>, string>> = {};
  let other: string | null = null;
  for (const issue of issues) {
    const path = issue.path.join('.');
    const key = options.fields?.[path] ?? (path in values ? (path as Key<V>) : undefined);
    if (key === undefined) other ??= issue.message;
    else byField[key] ??= options.messages?.[key] ?? issue.message;
  }
  const firstKey = (Object.keys(values) as Key<V>[]).find((k) => byField[k] !== undefined);
  return { byField, first: firstKey ? byField[firstKey]! : other };
}

export interface FormMessage {
  tone: 'error' | 'success';
  text: string;
  /** Counts the form's submits and reports: a new one brings the message into view again (FormStatus). */
  seq?: number;
}

const NO_ERRORS = { byField: {}, first: null };

/**
 * A form's fields checked with the shared zod schema before they are sent (safeParse), so the client
 * says what the server would, in the same words. `submit` calls back with the parsed input only when
 * it is valid; `message` is what the form shows: the first field error, else what the call reported
 * (`report`); `field(key)` binds an input.
 */
export function useZodForm<S extends z.ZodType, V extends Values>(options: ZodFormOptions<S, V>) {
  const { schema, toInput = (v: V) => v } = options;
  const [values, setValues] = useState<V>(options.initial);
  const [errors, setErrors] = useState<FieldErrors<V>>(NO_ERRORS);
  const [reported, setReported] = useState<FormMessage | null>(null);
  // Each submit and each report is a new message, even with the same words as the last one.
  const seq = useRef(0);
  const [errorsSeq, setErrorsSeq] = useState(0);

  const set = <K extends Key<V>>(key: K, value: V[K]) => setValues((v) => ({ ...v, [key]: value }));
  const patch = (next: Partial<V>) => setValues((v) => ({ ...v, ...next }));

  /** The parsed input, or null after recording the errors. */
  function validate(): z.output<S> | null {
    const result = schema.safeParse(toInput(values));
    seq.current += 1;
    setErrorsSeq(seq.current);
    setErrors(result.success ? NO_ERRORS : fieldErrors(result.error.issues, values, options));
    return result.success ? result.data : null;
  }

  return {
    values,
    set,
    patch,
    errors: errors.byField,
    message: errors.first ? { tone: 'error' as const, text: errors.first, seq: errorsSeq } : reported,
    /** Shows the outcome of the call (success, or the server's error) until the next submit. */
    report: (tone: FormMessage['tone'], text: string) => {
      seq.current += 1;
      setReported({ tone, text, seq: seq.current });
    },
    validate,
    submit: (onValid: (input: z.output<S>) => void) => (e: FormEvent) => {
      e.preventDefault();
      setReported(null);
      const input = validate();
      if (input !== null) onValid(input);
    },
    /** Back to the given fields (the initial ones by default), with no message. */
    reset: (next?: V) => {
      setValues(next ?? (typeof options.initial === 'function' ? options.initial() : options.initial));
      setErrors(NO_ERRORS);
      setReported(null);
    },
    /** value, onChange and aria-invalid for a text input, select or text area bound to a string field. */
    field: (key: Key<V>) => ({
      value: values[key] as string,
      onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) =>
        set(key, e.target.value as V[typeof key]),
      'aria-invalid': errors.byField[key] ? (true as const) : undefined,
    }),
  };
}

export type ZodForm<S extends z.ZodType, V extends Values> = ReturnType<typeof useZodForm<S, V>>;
