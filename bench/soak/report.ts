// The soak's verdicts (the targets, computed outside 15 s around each fault) and its report:
// a plain-text summary for the terminal and one HTML file with inline SVG charts.
import os from 'node:os';
import type { Sample } from './load';
import { failed, outsideFaults, quantile, type FaultWindow, type Point, type SoakResult } from './run';

export interface Verdict {
  label: string;
  value: string;
  pass: boolean;
  /** set when there was nothing to measure (a run too short): shown as such, never as a miss */
  unmeasured?: true;
}

/** The result column of a verdict. */
const resultOf = (v: Verdict) => (v.unmeasured ? 'N/A' : v.pass ? 'PASS' : 'MISS');

/** The RSS window shorter than this (a short run, a late restart) measures nothing. */
const RSS_WINDOW_MIN_MS = 2 * 60_000;

export interface KindStats {
  kind: string;
  group: string;
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** 5xx or no answer, in all / outside the faults */
  failures: number;
  failuresOutside: number;
  /** status → count of the failures outside the faults (0: no answer) */
  failedStatuses: Record<string, number>;
}

const GROUP_LABEL: Record<string, string> = {
  public: 'páginas públicas',
  form: 'formulários (páginas)',
  post: 'envios (POST)',
  staff: 'equipe',
  export: 'exportações',
};

export function kindStats(r: SoakResult): KindStats[] {
  return [...r.samples].map(([kind, samples]) => {
    const outside = outsideFaults(samples, r.faults);
    const ms = outside.map((s) => s.ms);
    return {
      kind,
      group: r.groups.get(kind) ?? '',
      count: samples.length,
      p50: quantile(ms, 0.5),
      p95: quantile(ms, 0.95),
      p99: quantile(ms, 0.99),
      max: ms.length ? Math.max(...ms) : Number.NaN,
      failures: samples.filter(failed).length,
      failuresOutside: outside.filter(failed).length,
      failedStatuses: outside.filter(failed).reduce<Record<string, number>>((a, x) => {
        a[x.status] = (a[x.status] ?? 0) + 1;
        return a;
      }, {}),
    };
  });
}

function groupSamples(r: SoakResult, group: string): Sample[] {
  return [...r.samples].filter(([k]) => r.groups.get(k) === group).flatMap(([, s]) => s);
}

/** Each instance's RSS (or JS heap) growth over the window (first minute's median to the last minute's). */
export function rssGrowth(
  r: SoakResult,
  series: Map<string, Point[]> = r.rss,
): { name: string; from: number; to: number; growth: number; windowMs: number }[] {
  return r.instances.map((name) => {
    const restarted = Math.max(0, ...(r.restarts.get(name) ?? []).map((t) => t + 60_000));
    const start = Math.max(r.plan.rssFrom * 1000, restarted);
    const points = (series.get(name) ?? []).filter((p) => p.t >= start && p.value !== null);
    const end = points.at(-1)?.t ?? start;
    const first = quantile(
      points.filter((p) => p.t < start + 60_000).map((p) => p.value!),
      0.5,
    );
    const last = quantile(
      points.filter((p) => p.t > end - 60_000).map((p) => p.value!),
      0.5,
    );
    return { name, from: first, to: last, growth: (last - first) / first, windowMs: end - start };
  });
}

const ms = (n: number) => (Number.isNaN(n) ? '—' : n < 10 ? `${n.toFixed(1)} ms` : `${Math.round(n)} ms`);
const min = (msValue: number) => `${(msValue / 60_000).toFixed(1)} min`;

export function verdicts(r: SoakResult): Verdict[] {
  const all = [...r.samples.values()].flat();
  const outside = outsideFaults(all, r.faults);
  // Named by kind, moment and duration: enough to tell a fault's straggler from a bug.
  const fails = outside.filter(failed).sort((a, b) => a.t - b.t);
  const failures = fails.slice(0, 5).map((f) => {
    const kind = [...r.samples].find(([, list]) => list.includes(f))?.[0];
    return `${kind} em ${min(f.t)}, ${f.status || 'sem resposta'} após ${ms(f.ms)}`;
  });
  const pub = outsideFaults(groupSamples(r, 'public'), r.faults).map((s) => s.ms);
  const staff = outsideFaults(groupSamples(r, 'staff'), r.faults).map((s) => s.ms);
  const forms = r.forms.reduce(
    (a, f) => ({
      ack: a.ack + f.acknowledged,
      once: a.once + f.storedOnce,
      lost: a.lost + f.lost,
      doubled: a.doubled + f.doubled,
      refused: a.refused + f.refused,
    }),
    { ack: 0, once: 0, lost: 0, doubled: 0, refused: 0 },
  );
  const out: Verdict[] = [
    {
      label: 'nenhum 5xx (nem pedido sem resposta) fora de 15 s em volta de cada falha',
      value:
        `${fails.length} de ${outside.length.toLocaleString('pt-BR')}` +
        (failures.length ? ` (${failures.join('; ')})` : ''),
      pass: fails.length === 0,
    },
    { label: 'páginas públicas p99 ≤ 50 ms', value: ms(quantile(pub, 0.99)), pass: quantile(pub, 0.99) <= 50 },
    { label: 'equipe p95 ≤ 1 s', value: ms(quantile(staff, 0.95)), pass: quantile(staff, 0.95) <= 1000 },
    { label: 'equipe p99 ≤ 3 s', value: ms(quantile(staff, 0.99)), pass: quantile(staff, 0.99) <= 3000 },
    {
      label: 'cada POST respondido gravado exatamente uma vez (por envio_id)',
      value:
        `${forms.once} de ${forms.ack} respondidos; perdidos ${forms.lost}, em dobro ${forms.doubled}` +
        `, recusados ${forms.refused}`,
      pass: forms.ack > 0 && forms.once === forms.ack && forms.doubled === 0 && forms.refused === 0,
    },
  ];
  for (const d of [r.mail, r.webhooks])
    out.push({
      label: `${d.label}: todos entregues, uma vez por id, até 5 min depois da volta do serviço`,
      value:
        `${d.delivered} de ${d.queued}; repetidos ${d.duplicates.length}` +
        (d.duplicates.length
          ? ` (${d.duplicates.map(([k, t]) => `${k} em ${t.map(min).join(' e ')}`).join(', ')})`
          : '') +
        `; pior atraso ${min(d.worstLateMs)}`,
      pass: d.queued > 0 && d.undelivered === 0 && d.duplicates.length === 0 && d.worstLateMs <= 5 * 60_000,
    });
  const heaps = rssGrowth(r, r.heap);
  rssGrowth(r).forEach((g, i) => {
    const h = heaps[i]!;
    if (!(g.windowMs >= RSS_WINDOW_MIN_MS && Number.isFinite(g.growth))) {
      out.push({
        label: `RSS da instância ${g.name} cresce ≤ 5% de ${min(r.plan.rssFrom * 1000)} ao fim`,
        value: `janela de ${min(Math.max(0, g.windowMs))} após o início ou o reinício: curta demais para medir`,
        pass: true,
        unmeasured: true,
      });
      return;
    }
    out.push({
      label: `RSS da instância ${g.name} cresce ≤ 5% de ${min(r.plan.rssFrom * 1000)} ao fim`,
      value:
        `${g.from.toFixed(0)} → ${g.to.toFixed(0)} MB (${(g.growth * 100).toFixed(1)}%); ` +
        `heap JS ${h.from.toFixed(0)} → ${h.to.toFixed(0)} MB`,
      pass: g.growth <= 0.05,
    });
  });
  return out;
}

function serverStaffRow(x: SoakResult['serverStaff'][number]): string[] {
  const q = (list: number[]) =>
    `${ms(quantile(list, 0.5))} / ${ms(quantile(list, 0.95))} / ${ms(quantile(list, 0.99))}`;
  const env = Object.entries(x.env).map(([k, v]) => `${k}=${v}`);
  return [
    `${x.instance}${env.length ? ` (${env.join(', ')})` : ''}`,
    `${q(x.unit)} (${x.unit.length})`,
    `${q(x.chain)} (${x.chain.length})`,
  ];
}

const statuses = (k: KindStats) =>
  Object.keys(k.failedStatuses).length
    ? `: ${Object.entries(k.failedStatuses)
        .map(([st, n]) => `${st === '0' ? 'sem resposta' : st}×${n}`)
        .join(' ')}`
    : '';

function machineLine(r: SoakResult): string {
  const load = r.machine.loadAverage.map((p) => p.value!).filter((v) => v !== null);
  return (
    `Máquina: load average (1 min) mediana ${quantile(load, 0.5).toFixed(1)}, máx. ${Math.max(...load).toFixed(1)} ` +
    `em ${os.cpus().length} núcleos; atraso do laço do gerador de carga p99 ${ms(r.machine.loopP99)}, ` +
    `máx. ${ms(r.machine.loopMax)} (somado a toda latência medida)`
  );
}

export function textReport(r: SoakResult): string {
  const lines = [
    `Soak ${r.engine}, semente ${r.plan.seed}, ${(r.seconds / 60).toFixed(1)} min, início ${r.startedAt}`,
    `Volume: ${r.volume}`,
    `Falhas: ${r.faults.map((f) => `${f.label} ${min(f.from)}–${min(f.to)}`).join('; ') || 'nenhuma'}`,
    machineLine(r),
    '',
    'tipo | pedidos | p50 | p95 | p99 | máx | falhas (fora das janelas)',
  ];
  for (const k of kindStats(r))
    lines.push(
      `${k.kind} | ${k.count} | ${ms(k.p50)} | ${ms(k.p95)} | ${ms(k.p99)} | ${ms(k.max)} | ` +
        `${k.failures} (${k.failuresOutside}${statuses(k)})`,
    );
  lines.push(
    '',
    'formulário | enviados | respondidos | gravados 1× | perdidos | em dobro | gravados sem resposta | status',
  );
  for (const f of r.forms)
    lines.push(
      `${f.form} | ${f.submitted} | ${f.acknowledged} | ${f.storedOnce} | ${f.lost} | ${f.doubled} | ` +
        `${f.storedUnacknowledged} | ${Object.entries(f.statuses)
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
    );
  lines.push(
    '',
    'instância (ajustes) | equipe, páginas de uma unidade p50/p95/p99 | páginas da rede p50/p95/p99 (log)',
  );
  for (const x of r.serverStaff) lines.push(serverStaffRow(x).join(' | '));
  lines.push('', 'meta | medido | resultado');
  for (const v of verdicts(r)) lines.push(`${v.label} | ${v.value} | ${resultOf(v)}`);
  return lines.join('\n');
}

// ---------------------------------------------------------------- charts

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Series {
  name: string;
  color: string;
  points: Point[];
  dashed?: boolean;
}

function chart(o: {
  title: string;
  unit: string;
  series: Series[];
  faults: FaultWindow[];
  seconds: number;
  log?: boolean;
}): string {
  const W = 920;
  const H = 230;
  const L = 56;
  const R = 250;
  const T = 26;
  const B = 28;
  const values = o.series.flatMap((s) => s.points.map((p) => p.value)).filter((v): v is number => v !== null);
  const maxV = Math.max(1, ...values);
  const minV = o.log ? Math.max(0.1, Math.min(...values.filter((v) => v > 0), maxV)) : 0;
  const lo = o.log ? 10 ** Math.floor(Math.log10(minV)) : 0;
  const hi = o.log ? 10 ** Math.ceil(Math.log10(maxV)) : niceCeil(maxV);
  const x = (t: number) => L + (t / (o.seconds * 1000)) * (W - L - R);
  const y = (v: number) =>
    o.log
      ? T + (1 - (Math.log10(Math.max(v, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo) || 1)) * (H - T - B)
      : T + (1 - v / hi) * (H - T - B);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}"` +
      ' font-family="sans-serif" font-size="11">',
    `<text x="${L}" y="15" font-size="13" font-weight="bold">${esc(o.title)}</text>`,
  ];
  for (const f of o.faults) {
    const a = x(f.from);
    const b = Math.max(x(f.to), a + 2);
    parts.push(`<rect x="${a}" y="${T}" width="${b - a}" height="${H - T - B}" fill="#d62728" opacity="0.12"/>`);
    parts.push(`<text x="${a + 2}" y="${T + 10}" fill="#a00" font-size="10">${esc(f.label)}</text>`);
  }
  const ticks = o.log
    ? Array.from({ length: Math.round(Math.log10(hi / lo)) + 1 }, (_, i) => lo * 10 ** i)
    : [0, 0.25, 0.5, 0.75, 1].map((k) => k * hi);
  for (const v of ticks) {
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    parts.push(`<text x="${L - 4}" y="${y(v) + 4}" text-anchor="end">${fmtTick(v)}</text>`);
  }
  const minutes = o.seconds / 60;
  const step = minutes > 20 ? 5 : minutes > 6 ? 1 : minutes > 2 ? 0.5 : 0.25;
  for (let m = 0; m <= minutes + 1e-9; m += step)
    parts.push(`<text x="${x(m * 60_000)}" y="${H - 10}" text-anchor="middle">${m % 1 ? m.toFixed(2) : m}</text>`);
  parts.push(`<text x="${W - R + 16}" y="${H - 10}">min</text>`);
  parts.push(`<text x="10" y="${T - 6}" font-size="10">${esc(o.unit)}</text>`);
  o.series.forEach((s, i) => {
    let d = '';
    let pen = false;
    for (const p of s.points) {
      if (p.value === null || (o.log && p.value <= 0)) {
        pen = false;
        continue;
      }
      d += `${pen ? 'L' : 'M'}${x(p.t).toFixed(1)},${y(p.value).toFixed(1)}`;
      pen = true;
    }
    parts.push(
      `<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.4"${s.dashed ? ' stroke-dasharray="4 3"' : ''}/>`,
    );
    parts.push(
      `<line x1="${W - R + 10}" x2="${W - R + 28}" y1="${T + 6 + i * 14}" y2="${T + 6 + i * 14}" stroke="${s.color}"` +
        `${s.dashed ? ' stroke-dasharray="4 3"' : ''} stroke-width="2"/>`,
    );
    parts.push(`<text x="${W - R + 32}" y="${T + 10 + i * 14}">${esc(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('');
}

function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  for (const k of [1, 2, 2.5, 5, 10]) if (k * p >= v) return k * p;
  return 10 * p;
}
const fmtTick = (v: number) => (v >= 1000 ? `${v / 1000}k` : v < 1 ? v.toFixed(1) : String(Math.round(v * 100) / 100));

/** Per time bucket: p50, p99 and answers per second of one kind's samples. */
function buckets(samples: Sample[], seconds: number, size: number) {
  // Whole buckets only: a last partial one would read as a fall in throughput.
  const n = Math.max(1, Math.floor((seconds * 1000) / size));
  const by: number[][] = Array.from({ length: n }, () => []);
  for (const s of samples) by[Math.floor(s.t / size)]?.push(s.ms);
  return by.map((list, i) => ({
    t: (i + 0.5) * size,
    p50: list.length ? quantile(list, 0.5) : null,
    p99: list.length ? quantile(list, 0.99) : null,
    rate: list.length / (size / 1000),
  }));
}

const STAFF_HEADERS = ['instância (ajustes)', 'uma unidade p50 / p95 / p99 (n)', 'rede p50 / p95 / p99 (n)'];
const FORM_HEADERS = [
  'formulário',
  'enviados',
  'respondidos',
  'gravados 1×',
  'perdidos',
  'em dobro',
  'gravados sem resposta',
];

function htmlSection(r: SoakResult): string {
  const title =
    r.engine === 'postgres'
      ? `PostgreSQL, ${r.instances.length} instâncias atrás do nginx`
      : 'SQLite, 1 instância atrás do nginx';
  const size = Math.max(5_000, Math.round((r.seconds * 1000) / 150 / 1000) * 1000);
  const charts: string[] = [];
  for (const group of ['public', 'post', 'form', 'staff', 'export']) {
    const kinds = [...r.samples.keys()].filter((k) => r.groups.get(k) === group);
    if (!kinds.length) continue;
    const latency: Series[] = [];
    const rate: Series[] = [];
    kinds.forEach((k, i) => {
      const b = buckets(r.samples.get(k)!, r.seconds, group === 'export' ? size * 6 : size);
      const color = COLORS[i % COLORS.length]!;
      latency.push({ name: `${k} p99`, color, points: b.map((p) => ({ t: p.t, value: p.p99 })) });
      latency.push({ name: `${k} p50`, color, dashed: true, points: b.map((p) => ({ t: p.t, value: p.p50 })) });
      rate.push({ name: k, color, points: b.map((p) => ({ t: p.t, value: p.rate })) });
    });
    const label = GROUP_LABEL[group] ?? group;
    charts.push(
      chart({
        title: `Latência: ${label} (p99 contínua, p50 tracejada)`,
        unit: 'ms (log)',
        series: latency,
        faults: r.faults,
        seconds: r.seconds,
        log: true,
      }),
      chart({ title: `Vazão: ${label}`, unit: 'respostas/s', series: rate, faults: r.faults, seconds: r.seconds }),
    );
  }
  charts.push(
    chart({
      title: 'RSS por instância',
      unit: 'MB',
      series: r.instances.map((name, i) => ({ name, color: COLORS[i]!, points: r.rss.get(name) ?? [] })),
      faults: r.faults,
      seconds: r.seconds,
    }),
    chart({
      title: 'Heap JS em uso por instância (o resto do RSS é memória nativa)',
      unit: 'MB',
      series: r.instances.map((name, i) => ({ name, color: COLORS[i]!, points: r.heap.get(name) ?? [] })),
      faults: r.faults,
      seconds: r.seconds,
    }),
    chart({
      title: 'Máquina: load average de 1 minuto (outros processos incluídos)',
      unit: 'load',
      series: [{ name: `${os.cpus().length} núcleos`, color: COLORS[2]!, points: r.machine.loadAverage }],
      faults: r.faults,
      seconds: r.seconds,
    }),
    chart({
      title: 'Filas de saída (pendentes)',
      unit: 'itens',
      series: [
        { name: 'e-mails', color: COLORS[0]!, points: r.queues.mail },
        { name: 'webhooks', color: COLORS[1]!, points: r.queues.webhook },
      ],
      faults: r.faults,
      seconds: Math.max(r.seconds, (r.queues.mail.at(-1)?.t ?? 0) / 1000),
    }),
  );
  const v = verdicts(r);
  const row = (cells: string[], tag = 'td') => `<tr>${cells.map((c) => `<${tag}>${esc(c)}</${tag}>`).join('')}</tr>`;
  const stats = kindStats(r);
  return `<section>
<h1>Soak — ${esc(title)}</h1>
<p>Semente <b>${r.plan.seed}</b>; ${(r.seconds / 60).toFixed(1)} min a partir de ${esc(r.startedAt)};
${esc(r.volume)}.</p>
<p>${esc(machineLine(r))}.</p>
<p>Carga: ${r.plan.rates.publicPerSec} páginas públicas/s, ${r.plan.rates.formsPerSec} envios/s,
${r.plan.stack.managers} gerentes a cada ${r.plan.rates.managerEverySec} s, ${r.plan.stack.admins} admins a cada
${r.plan.rates.adminEverySec} s (exportação a cada ${r.plan.rates.exportEverySec} s).</p>
<table>${row(['meta', 'medido', 'resultado'], 'th')}${v
    .map(
      (x) =>
        `<tr><td>${esc(x.label)}</td><td>${esc(x.value)}</td>` +
        `<td class="${x.unmeasured ? 'NA' : resultOf(x)}">${resultOf(x)}</td></tr>`,
    )
    .join('')}</table>
${charts.join('\n')}
<table>${row(['tipo', 'pedidos', 'p50', 'p95', 'p99', 'máx', 'falhas (fora das janelas)'], 'th')}${stats
    .map((k) =>
      row([
        k.kind,
        String(k.count),
        ms(k.p50),
        ms(k.p95),
        ms(k.p99),
        ms(k.max),
        `${k.failures} (${k.failuresOutside}${statuses(k)})`,
      ]),
    )
    .join('')}</table>
<table>${row(STAFF_HEADERS, 'th')}${r.serverStaff.map((x) => row(serverStaffRow(x))).join('')}</table>
<p>Páginas da equipe medidas por cada instância (log de pedidos; a instância reiniciada, desde o reinício).</p>
<table>${row(FORM_HEADERS, 'th')}${r.forms
    .map((f) =>
      row([
        f.form,
        String(f.submitted),
        String(f.acknowledged),
        String(f.storedOnce),
        String(f.lost),
        String(f.doubled),
        String(f.storedUnacknowledged),
      ]),
    )
    .join('')}</table>
<p>Falhas: ${esc(r.faults.map((f) => `${f.label} ${min(f.from)}–${min(f.to)}`).join('; ') || 'nenhuma')}. As metas de
latência e de 5xx contam os pedidos fora de 15 s em volta de cada falha.</p>
</section>`;
}

/** One HTML file for the set-ups of one run (`notes`: what the reader must know, e.g. a shared machine). */
export function htmlReport(results: SoakResult[], notes: string[]): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Soak, semente ${results[0]?.plan.seed}</title>
<style>
body{font-family:sans-serif;margin:16px;max-width:960px;color:#222}
h1{font-size:20px;margin:0 0 4px}p{margin:4px 0;font-size:13px}section{margin-bottom:32px}
table{border-collapse:collapse;font-size:12px;margin:8px 0}td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}
.PASS{color:#070;font-weight:bold}.MISS{color:#b00;font-weight:bold}svg{display:block;margin:6px 0}
</style></head><body>
${notes.map((n) => `<p><i>${esc(n)}</i></p>`).join('')}
${results.map(htmlSection).join('\n')}
</body></html>
`;
}
