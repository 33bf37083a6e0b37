/** Polls `fn` until it answers truthy, or fails naming what it waited for. */
export async function until<T>(
  fn: () => Promise<T | undefined | null | false>,
  ms: number,
  what: string,
): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await fn();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}
