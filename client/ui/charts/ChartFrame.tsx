import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';

/**
 * Gives a chart the pixels it really has: the SVG is drawn at the container's width (not scaled from a
 * fixed viewBox), so its text stays at the size it was written at on any screen.
 */
export function ChartFrame({ children }: { children: (width: number) => ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    setWidth(Math.floor(el.getBoundingClientRect().width));
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className="chart-frame">
      {width > 0 ? children(width) : null}
    </div>
  );
}

/** The smallest text a chart draws (px). */
export const CHART_FONT = 12;
export const CHART_COLORS = {
  ink: '#1f1a14',
  muted: '#5f574e',
  grid: '#e4dccf',
  bar: '#8a5a1c',
  loss: '#b3261e',
  revenue: '#1d7a3e',
  cost: '#b3261e',
};
