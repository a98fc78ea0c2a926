import type { DayUsage } from '../usage-days';

const W = 620;
const H = 180;
const PAD = { left: 28, right: 8, top: 10, bottom: 24 };

/**
 * Inline SVG bars, one per day. The SVG is an image to assistive technology (role=img
 * with a label); the numbers themselves are in the table next to it.
 */
export function UsageChart({ days, label }: { days: DayUsage[]; label: string }) {
  const max = Math.max(1, ...days.map((d) => d.calls));
  const slot = (W - PAD.left - PAD.right) / Math.max(1, days.length);
  const plotH = H - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  return (
    <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} xmlns="http://www.w3.org/2000/svg">
      <line class="axis" x1={String(PAD.left)} y1={String(y(0))} x2={String(W - PAD.right)} y2={String(y(0))} />
      <text x={String(PAD.left - 4)} y={String(y(max) + 4)} text-anchor="end">
        {String(max)}
      </text>
      <text x={String(PAD.left - 4)} y={String(y(0))} text-anchor="end">
        0
      </text>
      {days.map((d, i) => {
        const x = PAD.left + i * slot + slot * 0.15;
        const top = y(d.calls);
        return (
          <>
            {d.calls > 0 ? (
              <rect class="bar" x={x.toFixed(1)} y={top.toFixed(1)} width={(slot * 0.7).toFixed(1)} height={(y(0) - top).toFixed(1)}>
                <title>{`${d.day}: ${d.calls}`}</title>
              </rect>
            ) : (
              ''
            )}
            {i % 5 === 0 || i === days.length - 1 ? (
              <text x={(x + slot * 0.35).toFixed(1)} y={String(H - 8)} text-anchor="middle">
                {d.day.slice(8)}
              </text>
            ) : (
              ''
            )}
          </>
        );
      })}
    </svg>
  );
}
