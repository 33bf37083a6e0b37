import { CHART_COLORS, CHART_FONT, ChartFrame } from './ChartFrame';
import { barLayout } from './layout';

export interface BarDatum {
  label: string;
  value: number;
}

interface Props {
  data: BarDatum[];
  title: string;
  formatValue: (n: number) => string;
}

/** Each bar's row: its label and value above, the bar below. */
const ROW = 46;
const BAR = 14;

/** The chart's height for `rows` bars, which its frame keeps before it is drawn. */
const barChartHeight = (rows: number) => rows * ROW + 4;

/** A label shortened to what fits in `px` at the chart's font (about 0.6 em a character). */
function shorten(text: string, px: number): string {
  const chars = Math.max(4, Math.floor(px / (CHART_FONT * 0.62)));
  return text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;
}

function Bars({ data, title, formatValue, width }: Props & { width: number }) {
  const { zero, bars } = barLayout(
    data.map((d) => d.value),
    width,
  );
  const signed = data.some((d) => d.value < 0);
  const height = barChartHeight(data.length);
  return (
    <svg width={width} height={height} role="img" aria-label={title} className="chart">
      <title>{title}</title>
      {data.map((d, i) => {
        const top = i * ROW + 2;
        const value = formatValue(d.value);
        const bar = bars[i]!;
        const loss = d.value < 0;
        return (
          <g key={d.label}>
            <text x={0} y={top + 15} fontSize={CHART_FONT + 1} fill={CHART_COLORS.ink}>
              <title>{d.label}</title>
              {shorten(d.label, width - value.length * CHART_FONT * 0.62 - 16)}
            </text>
            <text
              x={width}
              y={top + 15}
              textAnchor="end"
              fontSize={CHART_FONT + 1}
              fontWeight={600}
              fill={loss ? CHART_COLORS.loss : CHART_COLORS.ink}
            >
              {value}
            </text>
            {signed ? (
              // Zero, marked beside each bar (not through the labels above it).
              <line
                x1={zero}
                x2={zero}
                y1={top + 20}
                y2={top + 24 + BAR + 4}
                stroke={CHART_COLORS.muted}
                strokeWidth={1.5}
              />
            ) : null}
            <rect
              x={bar.x}
              y={top + 24}
              width={bar.width}
              height={BAR}
              rx={3}
              fill={loss ? CHART_COLORS.loss : CHART_COLORS.bar}
            />
          </g>
        );
      })}
    </svg>
  );
}

/**
 * Horizontal bars, label above and value at the end of each row (readable at any width); negative
 * values run the other way from a marked zero, in the loss colour.
 */
export default function BarChart(props: Props) {
  if (props.data.length === 0) return <p className="muted">Nothing to chart for this period.</p>;
  return (
    <ChartFrame space={barChartHeight(props.data.length)}>
      {(width) => <Bars {...props} width={width} />}
    </ChartFrame>
  );
}
