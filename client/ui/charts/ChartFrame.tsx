import { type ReactNode, useLayoutEffect, useRef, useState } from 'react';

/**
 * The height a chart will take, kept before its width is known (a server-drawn screen, issue 28): a
 * number of pixels, or `line` for the line chart, whose height follows its own width (styles.css, a
 * container query at LINE_CHART_WIDE px), so nothing below it moves when the browser draws it.
 */
export type ChartSpace = number | 'line';

/** The line chart's height on a frame narrower than LINE_CHART_WIDE (a phone), and on a wider one. */
export const LINE_CHART_HEIGHT = { narrow: 220, wide: 260 } as const;
/** The frame width (px) from which the line chart is drawn at its wide height (styles.css agrees). */
export const LINE_CHART_WIDE = 480;

/**
 * Gives a chart the pixels it really has: the SVG is drawn at the container's width (not scaled from a
 * fixed viewBox), so its text stays at the size it was written at on any screen. Until the width is
 * measured (a server render, before the browser lays out) the frame is empty but already as tall as the
 * chart will be.
 */
export function ChartFrame({
  space,
  children,
}: {
  space: ChartSpace;
  children: (width: number) => ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  // Measured by the observer only, which reports once the browser has laid the frame out (its first
  // report comes with the frame's first layout). Reading the width here as well made the app's first
  // commit over a server-drawn screen lay the whole screen out inside its script (issue 28: a long task
  // on /ops/finance). The frame keeps the chart's height meanwhile, so nothing moves when it is drawn.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const reserved =
    space === 'line' ? <div className="chart-frame__line-space" /> : <div style={{ height: space }} />;
  return (
    <div ref={ref} className={space === 'line' ? 'chart-frame chart-frame--line' : 'chart-frame'}>
      {width > 0 ? children(width) : reserved}
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
