/** Where each bar of a signed horizontal bar chart goes (px), zero included in the scale. */
export function barLayout(
  values: readonly number[],
  width: number,
): { zero: number; bars: Array<{ x: number; width: number }> } {
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const span = max - min || 1;
  const at = (v: number) => 1 + ((v - min) / span) * (width - 2);
  const zero = at(0);
  return {
    zero,
    bars: values.map((v) => {
      const end = at(v);
      // A zero or tiny value still shows a sliver on its own side of zero.
      const length = Math.max(2, Math.abs(end - zero));
      return { x: v < 0 ? zero - length : zero, width: length };
    }),
  };
}

/**
 * Which days of a daily series get a label on an axis `width` px wide: about one every 64 px, counted
 * back from the last day so that the latest is always labelled.
 */
export function dayTicks(dates: readonly string[], width: number): string[] {
  const slots = Math.max(2, Math.floor(width / 64));
  const every = Math.max(1, Math.ceil(dates.length / slots));
  return dates.filter((_, i) => (dates.length - 1 - i) % every === 0);
}
