// The monthly NPS as an SVG drawn on the server: readable without JavaScript, colours
// from the stylesheet (classes, no inline style: CSP), and the same figures in a table
// for screen readers.
import { HeadedRow, TableHead } from '../../../views/table';
import { formatNps } from './nps';

export interface ChartPoint {
  /** aaaa-mm */
  label: string;
  /** "nov. de 2026" */
  title: string;
  total: number;
  nps: number | null;
}

const W = 640;
const H = 260;
const PAD = { left: 44, right: 16, top: 20, bottom: 36 };
const innerW = W - PAD.left - PAD.right;
const innerH = H - PAD.top - PAD.bottom;

/** y of an NPS value (−100 at the bottom, +100 at the top). */
export const yOf = (nps: number) => PAD.top + ((100 - nps) / 200) * innerH;
export const xOf = (i: number, n: number) => PAD.left + (n <= 1 ? innerW / 2 : (i / (n - 1)) * innerW);

const MONTHS = ['jan', 'fev', 'mar', 'abr', 'mai', 'jun', 'jul', 'ago', 'set', 'out', 'nov', 'dez'];
const shortMonth = (label: string) => {
  const [y, m] = label.split('-');
  return `${MONTHS[Number(m) - 1]}/${y!.slice(2)}`;
};

/** Consecutive months with a value, as polyline point lists (a month without notes breaks the line). */
export function segments(points: ChartPoint[]): string[] {
  const out: string[] = [];
  let current: string[] = [];
  points.forEach((p, i) => {
    if (p.nps === null) {
      if (current.length) out.push(current.join(' '));
      current = [];
      return;
    }
    current.push(`${xOf(i, points.length).toFixed(1)},${yOf(p.nps).toFixed(1)}`);
  });
  if (current.length) out.push(current.join(' '));
  return out;
}

export function NpsChart({ points, id, caption }: { points: ChartPoint[]; id: string; caption: string }) {
  const n = points.length;
  return (
    <figure class="nps-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-labelledby={`${id}-titulo`}
        class="nps-chart-svg"
        data-nps-chart=""
      >
        <title id={`${id}-titulo`}>{caption}: o gráfico mostra os mesmos números da tabela a seguir.</title>
        {[100, 50, 0, -50, -100].map((v) => (
          <g key={v}>
            <line
              x1={PAD.left}
              x2={W - PAD.right}
              y1={yOf(v)}
              y2={yOf(v)}
              class={v === 0 ? 'chart-axis' : 'chart-grid'}
            />
            <text x={PAD.left - 6} y={yOf(v) + 4} class="chart-label chart-label-y">
              {v}
            </text>
          </g>
        ))}
        {segments(points).map((pts, i) => (
          <polyline key={i} points={pts} class="chart-line" />
        ))}
        {points.map((p, i) =>
          p.nps === null ? null : (
            <g key={p.label} data-mes={p.label} data-nps={formatNps(p.nps)}>
              <circle cx={xOf(i, n)} cy={yOf(p.nps)} r={4} class="chart-point" />
              <text x={xOf(i, n)} y={yOf(p.nps) - 8} class="chart-value">
                {formatNps(p.nps)}
              </text>
            </g>
          ),
        )}
        {points.map((p, i) => (
          <text key={`x${p.label}`} x={xOf(i, n)} y={H - PAD.bottom + 18} class="chart-label chart-label-x">
            {shortMonth(p.label)}
          </text>
        ))}
      </svg>
      <figcaption class="hint">{caption}. Meses sem notas ficam sem ponto.</figcaption>
      <table class="visually-hidden">
        <caption>{caption}</caption>
        <TableHead columns={['Mês', 'Notas', 'NPS']} />
        <tbody>
          {points.map((p) => (
            <HeadedRow key={p.label} head={p.title} cells={[p.total, formatNps(p.nps)]} />
          ))}
        </tbody>
      </table>
    </figure>
  );
}
