/** Rows of a bar chart (client/ui/charts/BarChart.tsx), here so a placeholder can take their height. */
export const BAR_ROW = 46;

/**
 * What a lazily loaded bar chart shows until its chunk arrives: the chart's own height, so nothing
 * below it moves when it draws (and a screen painted from its kept copy keeps its layout, issue 12).
 */
export function ChartLoading({ rows, label }: { rows: number; label: string }) {
  return (
    <p className="muted" style={{ minHeight: rows * BAR_ROW + 4, margin: 0 }}>
      {label}
    </p>
  );
}
