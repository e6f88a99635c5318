// Small SVG charts for the insights view (no chart library: a line and horizontal bars suffice).
// Each is an image whose accessible name says what it shows, with the numbers.

const W = 640;
const H = 180;
const PAD = 28;

export function LineChart({ label, points }: { label: string; points: { x: string; y: number }[] }) {
  const max = Math.max(1, ...points.map((p) => p.y));
  const step = points.length > 1 ? (W - 2 * PAD) / (points.length - 1) : 0;
  const xy = points.map((p, i) => [PAD + i * step, H - PAD - (p.y / max) * (H - 2 * PAD)] as const);
  const total = points.reduce((s, p) => s + p.y, 0);
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${label}: ${total} in all, at most ${max} a day`}>
        <line x1={PAD} y1={H - PAD} x2={W - PAD} y2={H - PAD} className="axis" />
        <text x={4} y={PAD} className="tick">
          {max}
        </text>
        <text x={4} y={H - PAD}>
          0
        </text>
        {xy.length > 1 && <polyline points={xy.map(([x, y]) => `${x},${y}`).join(' ')} className="line" />}
        {xy.map(([x, y], i) => (
          <circle key={points[i]!.x} cx={x} cy={y} r={2.5} className="dot" />
        ))}
        {points.length > 0 && (
          <>
            <text x={PAD} y={H - 8} className="tick">
              {points[0]!.x}
            </text>
            <text x={W - PAD} y={H - 8} textAnchor="end" className="tick">
              {points.at(-1)!.x}
            </text>
          </>
        )}
      </svg>
      <figcaption>{label}</figcaption>
    </figure>
  );
}

export function BarList({ label, bars, empty }: { label: string; bars: { label: string; value: number }[]; empty: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 26;
  if (bars.length === 0) return <p className="muted">{empty}</p>;
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${bars.length * row}`} role="img" aria-label={`${label}: ${bars.map((b) => `${b.label} ${b.value}`).join(', ')}`}>
        {bars.map((b, i) => (
          <g key={b.label} transform={`translate(0 ${i * row})`}>
            <rect x={0} y={3} height={row - 6} width={Math.max(2, (b.value / max) * (W * 0.45))} className="bar" rx={3} />
            <text x={W * 0.45 + 8} y={row / 2 + 5} className="tick">
              {b.value} · {b.label.length > 60 ? `${b.label.slice(0, 59)}…` : b.label}
            </text>
          </g>
        ))}
      </svg>
      <figcaption>{label}</figcaption>
    </figure>
  );
}
