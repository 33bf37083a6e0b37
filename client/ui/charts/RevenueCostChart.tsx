import { AxisBottom, AxisLeft } from '@visx/axis';
import { scaleLinear, scalePoint } from '@visx/scale';
import { LinePath } from '@visx/shape';
import type { z } from 'zod';
import { formatCompact } from '../../../shared/domain/format';
import type { ZFinancePoint } from '../../../shared/schemas/money';
import { CHART_COLORS, CHART_FONT, ChartFrame, LINE_CHART_HEIGHT, LINE_CHART_WIDE } from './ChartFrame';
import { dayTicks } from './layout';

type Point = z.infer<typeof ZFinancePoint>;

/** The chart's words in the screen's language (the staff catalog's `chart`). */
export interface ChartLabels {
  revenue: string;
  costs: string;
  amounts: string;
  empty: string;
  /** Month abbreviations, January to December, separated by spaces. */
  months: string;
}

const SERIES = [
  { key: 'revenue' as const, label: 'revenue' as const, color: CHART_COLORS.revenue },
  { key: 'cost' as const, label: 'costs' as const, color: CHART_COLORS.cost },
];
const dayLabel = (date: string, months: string[]) =>
  `${Number(date.slice(8, 10))} ${months[Number(date.slice(5, 7)) - 1] ?? date.slice(5, 7)}`;
const tickLabel = { fontSize: CHART_FONT, fill: CHART_COLORS.muted, fontFamily: 'inherit' };

function Lines({
  data,
  title,
  width,
  months,
}: {
  data: Point[];
  title: string;
  width: number;
  months: string[];
}) {
  const phone = width < LINE_CHART_WIDE;
  const height = phone ? LINE_CHART_HEIGHT.narrow : LINE_CHART_HEIGHT.wide;
  const margin = { top: 12, right: 14, bottom: 30, left: 44 };
  const x = scalePoint<string>({
    domain: data.map((d) => d.date),
    range: [margin.left, width - margin.right],
    // One day alone sits in the middle, not on the axis.
    padding: data.length === 1 ? 0.5 : 0,
  });
  const max = Math.max(1, ...data.flatMap((d) => [d.revenue, d.cost]));
  const y = scaleLinear<number>({
    domain: [0, max],
    range: [height - margin.bottom, margin.top],
    nice: true,
  });
  const yTicks = y.ticks(phone ? 4 : 5);
  const xTicks = dayTicks(
    data.map((d) => d.date),
    width - margin.left - margin.right,
  );
  return (
    <svg width={width} height={height} role="img" aria-label={title} className="chart">
      <title>{title}</title>
      {yTicks.map((t) => (
        <line
          key={t}
          x1={margin.left}
          x2={width - margin.right}
          y1={y(t)}
          y2={y(t)}
          stroke={CHART_COLORS.grid}
        />
      ))}
      {SERIES.map((s) => (
        <g key={s.key}>
          <LinePath
            data={data}
            x={(d) => x(d.date) ?? 0}
            y={(d) => y(d[s.key])}
            stroke={s.color}
            strokeWidth={2.5}
          />
          {data.map((d) => (
            <circle key={d.date} cx={x(d.date) ?? 0} cy={y(d[s.key])} r={3} fill={s.color} />
          ))}
        </g>
      ))}
      <AxisLeft
        left={margin.left}
        scale={y}
        tickValues={yTicks}
        hideTicks
        hideAxisLine
        tickFormat={(v) => formatCompact(Number(v))}
        tickLabelProps={{ ...tickLabel, textAnchor: 'end', dx: -4, dy: 4 }}
      />
      <AxisBottom
        top={height - margin.bottom}
        scale={x}
        tickValues={xTicks}
        stroke={CHART_COLORS.muted}
        tickStroke={CHART_COLORS.muted}
        tickFormat={(d) => dayLabel(String(d), months)}
        // The first and last dates stay inside the chart.
        tickLabelProps={(_, i, ticks) => ({
          ...tickLabel,
          textAnchor:
            xTicks.length > 1 && i === ticks.length - 1
              ? 'end'
              : i === 0 && xTicks.length > 1 && x(xTicks[0]!) === margin.left
                ? 'start'
                : 'middle',
        })}
      />
    </svg>
  );
}

/** Daily revenue and costs as two lines with a dot per day; amounts in KES (45K = 45,000). */
export default function RevenueCostChart({
  data,
  title,
  labels,
}: {
  data: Point[];
  title: string;
  labels: ChartLabels;
}) {
  if (data.length === 0) return <p className="muted">{labels.empty}</p>;
  const months = labels.months.split(' ');
  return (
    <figure className="chart-figure">
      <ChartFrame space="line">
        {(width) => <Lines data={data} title={title} width={width} months={months} />}
      </ChartFrame>
      <figcaption className="legend">
        {SERIES.map((s) => (
          <span key={s.key}>
            <span className="swatch" style={{ background: s.color }} /> {labels[s.label]}
          </span>
        ))}
        <span>{labels.amounts}</span>
      </figcaption>
    </figure>
  );
}
