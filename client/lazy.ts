import { type ComponentType, lazy } from 'react';

export interface Preloadable<P extends object> {
  Component: ComponentType<P>;
  /** Loads the chunk; from then on the component renders at once, without suspending. */
  preload: () => Promise<void>;
}

/**
 * `load` started once and shared by every call; a failed load (a dropped connection) is started again by
 * the next call.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}

/**
 * A component in a chunk of its own (React.lazy) that can be loaded ahead. Once `preload` has fetched
 * it, the lazy component resolves synchronously (a thenable that answers at once), so a server render
 * completes and a pre-rendered page hydrates without a suspended boundary. A preload and a render that
 * start together share one load.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  const start = loadOnce(() =>
    load().then((C) => {
      loaded = C;
      return C;
    }),
  );
  const preload = async () => {
    await start();
  };
  const Component = lazy(() => {
    if (loaded) {
      const module = { default: loaded };
      // biome-ignore lint/suspicious/noThenProperty: a thenable that resolves synchronously, on purpose
      return { then: (resolve: (m: typeof module) => void) => resolve(module) } as Promise<typeof module>;
    }
    return start().then((C) => ({ default: C }));
  });
  return { Component, preload };
}

/** A task of its own for what comes next: the browser paints and takes taps in between. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Loads `last` after `steps`, one by one, each in a task of its own. Evaluating a graph of modules is one
 * task however many modules it holds; a chunk whose dependencies are evaluated first by steps of their own
 * costs its own code only. A step's failure fails the load (preloadable tries again).
 */
export async function inSteps<T>(steps: Array<() => Promise<unknown>>, last: () => Promise<T>): Promise<T> {
  for (const step of steps) {
    await step();
    await nextTask();
  }
  return last();
}
