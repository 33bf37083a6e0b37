import { type RefObject, useEffect } from 'react';

type Values = Record<string, unknown>;

/**
 * What was typed into a server-rendered form before its script arrived, as a patch of its fields: the
 * form's controls read by name (a checkbox by `checked`, a number field as a number), only where they
 * differ from the fields as the form starts.
 */
export function typedValues<V extends Values>(form: HTMLFormElement, values: V): Partial<V> {
  const typed: Partial<V> = {};
  for (const key of Object.keys(values) as (keyof V & string)[]) {
    const control = form.elements.namedItem(key);
    if (!control || !('value' in control)) continue;
    const start = values[key];
    if (control instanceof HTMLInputElement && control.type === 'checkbox') {
      if (control.checked !== start) typed[key] = control.checked as V[typeof key];
    } else if (control.value !== String(start)) {
      typed[key] = (typeof start === 'number' ? Number(control.value) : control.value) as V[typeof key];
    }
  }
  return typed;
}

/**
 * Hydrating keeps what a person typed into the server-rendered fields while the form's state starts
 * empty; this takes the typed values into the state once, right after hydration, so they are the ones
 * validated and sent. (A form rendered by the browser starts equal: nothing changes.)
 */
export function useTypedBeforeHydration<V extends Values>(
  ref: RefObject<HTMLFormElement | null>,
  values: V,
  patch: (next: Partial<V>) => void,
) {
  // Once, on mount: later renders own the fields.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once after hydration by design
  useEffect(() => {
    if (!ref.current) return;
    const typed = typedValues(ref.current, values);
    if (Object.keys(typed).length > 0) patch(typed);
  }, []);
}
