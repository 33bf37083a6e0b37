import { AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';

export interface BarDatum {
  label: string;
  value: number;
}

interface Props {
  data: BarDatum[];
  title: string;
  formatValue: (n: number) => string;
  /** Drawing width; the SVG scales to its container. */
  width?: number;
}

/** Horizontal bars (readable on a phone), labelled on the left with the value at the bar's end. */
export default function HorizontalBarChart({ data, title, formatValue, width = 640 }: Props) {
  const rowHeight = 34;
  const margin = { top: 8, right: 110, bottom: 8, left: 120 };
  const height = margin.top + margin.bottom + Math.max(1, data.length) * rowHeight;
  const innerWidth = width - margin.left - margin.right;
  const y = scaleBand<string>({
    domain: data.map((d) => d.label),
    range: [0, height - margin.top - margin.bottom],
    padding: 0.25,
  });
  const max = Math.max(1, ...data.map((d) => d.value));
  const x = scaleLinear<number>({ domain: [0, max], range: [0, innerWidth], nice: true });
  return (
    <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label={title}>
      <title>{title}</title>
      <Group left={margin.left} top={margin.top}>
        {data.map((d) => {
          const barY = y(d.label) ?? 0;
          const barWidth = Math.max(2, x(Math.max(0, d.value)));
          return (
            <g key={d.label}>
              <Bar x={0} y={barY} width={barWidth} height={y.bandwidth()} fill="#8a5a1c" rx={3} />
              <text
                x={barWidth + 6}
                y={barY + y.bandwidth() / 2}
                dominantBaseline="middle"
                fontSize={13}
                fill="#1f1a14"
              >
                {formatValue(d.value)}
              </text>
            </g>
          );
        })}
        <AxisLeft
          scale={y}
          hideTicks
          hideAxisLine
          tickLabelProps={{ fontSize: 13, fill: '#1f1a14', textAnchor: 'end', dx: -4 }}
        />
      </Group>
    </svg>
  );
}
