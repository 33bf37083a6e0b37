import { AxisBottom, AxisLeft } from '@visx/axis';
import { Group } from '@visx/group';
import { scaleLinear, scalePoint } from '@visx/scale';
import { LinePath } from '@visx/shape';

interface Point {
  date: string;
  revenue: number;
  cost: number;
}

const SERIES = [
  { key: 'revenue' as const, label: 'Revenue', color: '#1d7a3e' },
  { key: 'cost' as const, label: 'Costs', color: '#b3261e' },
];

/** Daily revenue and costs as two lines, with a legend; the SVG scales to its container. */
export default function RevenueCostChart({ data, title }: { data: Point[]; title: string }) {
  const width = 720;
  const height = 260;
  const margin = { top: 16, right: 16, bottom: 36, left: 72 };
  const x = scalePoint<string>({
    domain: data.map((d) => d.date),
    range: [margin.left, width - margin.right],
  });
  const max = Math.max(1, ...data.flatMap((d) => [d.revenue, d.cost]));
  const y = scaleLinear<number>({
    domain: [0, max],
    range: [height - margin.bottom, margin.top],
    nice: true,
  });
  const every = Math.max(1, Math.ceil(data.length / 6));
  return (
    <figure style={{ margin: 0 }}>
      <svg viewBox={`0 0 ${width} ${height}`} width="100%" role="img" aria-label={title}>
        <title>{title}</title>
        <Group>
          {SERIES.map((s) => (
            <LinePath
              key={s.key}
              data={data}
              x={(d) => x(d.date) ?? 0}
              y={(d) => y(d[s.key])}
              stroke={s.color}
              strokeWidth={2.5}
            />
          ))}
          <AxisLeft
            left={margin.left}
            scale={y}
            numTicks={5}
            tickFormat={(v) => `${Number(v) >= 1000 ? `${Math.round(Number(v) / 1000)}k` : v}`}
          />
          <AxisBottom
            top={height - margin.bottom}
            scale={x}
            tickValues={data.filter((_, i) => i % every === 0).map((d) => d.date)}
            tickFormat={(d) => String(d).slice(5)}
          />
        </Group>
      </svg>
      <figcaption className="legend">
        {SERIES.map((s) => (
          <span key={s.key}>
            <span className="swatch" style={{ background: s.color }} /> {s.label}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}
