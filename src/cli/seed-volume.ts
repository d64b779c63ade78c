// npm run seed:volume: years of realistic data (survey answers, free messages, franchise
// leads, trial-class bookings, CTA clicks) for benchmarks, on the configured database.
// Migrates first, under the start-up lock like `npm run migrate`. See docs/volume.md.
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { prepareDatabase } from '../db/startup';
import { readFlags } from './args';
import {
  BASE_TOTALS,
  DEFAULT_VOLUME,
  plannedCounts,
  seedVolume,
  VolumeError,
  volumeWindow,
  type VolumeKind,
  type VolumeOptions,
  VOLUME_SHAPES,
  type VolumeShape,
} from '../db/seeds/volume';

const USAGE = `Uso: npm run seed:volume -- [opções]

Preenche o banco configurado (DATABASE_URL; sem ela, ./data/academia.sqlite) com anos de
dados realistas de uma rede: respostas da pesquisa, mensagens do Fale aqui, leads de
franquia, aulas experimentais e cliques nos botões. Cria as unidades (e planos, perguntas e
contas da equipe) que faltarem. Recusa um banco que já tenha esse volume.

Opções:
  --unidades N     unidades da rede (padrão ${DEFAULT_VOLUME.unidades})
  --anos N         anos de histórico até ontem (padrão ${DEFAULT_VOLUME.anos})
  --escala X       multiplica todos os totais; 0.01 = versão pequena (padrão ${DEFAULT_VOLUME.escala})
  --semente N      semente do gerador: a mesma semente e o mesmo --fim geram as mesmas linhas
                   (padrão ${DEFAULT_VOLUME.semente})
  --fim AAAA-MM-DD último dia do período, horário de Brasília (padrão: ontem)
  --respostas N    total de respostas da pesquisa na escala 1
                   (padrão ${BASE_TOTALS.respostas.toLocaleString('pt-BR')} para 300 unidades e 3 anos)
  --mensagens N    mensagens do Fale aqui (padrão ${BASE_TOTALS.mensagens.toLocaleString('pt-BR')})
  --leads N        leads de franquia (padrão ${BASE_TOTALS.leads.toLocaleString('pt-BR')})
  --agendamentos N aulas experimentais (padrão ${BASE_TOTALS.agendamentos.toLocaleString('pt-BR')})
  --cliques N      cliques nos botões (padrão ${BASE_TOTALS.cliques.toLocaleString('pt-BR')})
  --forma F        padrao, ou desigual: poucas unidades enormes e muitas pequenas nas respostas,
                   mensagens e cliques, e comentários e mensagens longos (padrão padrao)
  -h, --help       mostra esta ajuda

Os padrões dos totais valem para 300 unidades e 3 anos e acompanham --unidades e --anos.
Exemplo: npm run seed:volume -- --unidades 300 --anos 3 --escala 1.0`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(1);
}

// Every flag but --help takes a value; one per kind of BASE_TOTALS sets that total.
const VALUE_FLAGS = ['unidades', 'anos', 'escala', 'semente', 'fim', 'forma', ...Object.keys(BASE_TOTALS)];
const values: Record<string, string | boolean | undefined> = readFlags(USAGE, {
  ...Object.fromEntries(VALUE_FLAGS.map((name) => [name, { type: 'string' } as const])),
  help: { type: 'boolean', short: 'h' },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

function number(name: string, fallback: number, check: (n: number) => boolean, rule: string): number {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const n = Number(String(raw).replace(',', '.'));
  if (!Number.isFinite(n) || !check(n)) fail(`--${name}: ${rule} (recebido "${raw}")`);
  return n;
}
const options: VolumeOptions = {
  unidades: number(
    'unidades',
    DEFAULT_VOLUME.unidades,
    (n) => Number.isInteger(n) && n >= 1 && n <= 5000,
    'um inteiro de 1 a 5000',
  ),
  anos: number(
    'anos',
    DEFAULT_VOLUME.anos,
    (n) => Math.round(n * 12) >= 1 && n <= 10,
    'de 0.1 a 10 (meses inteiros: 0.5 = 6 meses)',
  ),
  escala: number('escala', DEFAULT_VOLUME.escala, (n) => n > 0 && n <= 10, 'um número maior que 0 e até 10, ex.: 0.01'),
  semente: number(
    'semente',
    DEFAULT_VOLUME.semente,
    (n) => Number.isInteger(n) && n >= 0 && n < 2 ** 32,
    'um inteiro de 0 a 4294967295',
  ),
  totais: {},
};
if (values.forma !== undefined) {
  const forma = String(values.forma);
  if (!(VOLUME_SHAPES as readonly string[]).includes(forma)) fail(`--forma: padrao ou desigual (recebido "${forma}")`);
  options.forma = forma as VolumeShape;
}
if (values.fim !== undefined) {
  const fim = String(values.fim);
  if (
    !/^\d{4}-\d{2}-\d{2}$/.test(fim) ||
    Number.isNaN(Date.parse(`${fim}T12:00:00Z`)) ||
    new Date(`${fim}T12:00:00Z`).toISOString().slice(0, 10) !== fim
  ) {
    fail(`--fim: use uma data AAAA-MM-DD que exista (recebido "${fim}")`);
  }
  options.fim = fim;
}
for (const k of Object.keys(BASE_TOTALS) as VolumeKind[]) {
  if (values[k] !== undefined)
    options.totais![k] = number(
      k,
      0,
      (n) => Number.isInteger(n) && n >= 0 && n <= 100_000_000,
      'um inteiro de 0 a 100.000.000',
    );
}

loadDotEnv();
try {
  const config = loadConfig();
  const where =
    config.database.engine === 'sqlite'
      ? `SQLite ${config.database.filename}`
      : `PostgreSQL ${config.database.connectionString.replace(/\/\/[^@/]*@/, '//…@')}`;
  const planned = plannedCounts(options);
  const window = volumeWindow(options);
  console.log(`Banco: ${where}`);
  console.log(
    `Período: ${window.first} a ${window.last} (${window.months} meses), ${options.unidades} unidades, ` +
      `escala ${options.escala}, semente ${options.semente}, forma ${options.forma ?? 'padrao'}`,
  );
  console.log(
    `Planejado: ${Object.entries(planned)
      .map(([k, n]) => `${k} ${n.toLocaleString('pt-BR')}`)
      .join(', ')}`,
  );
  const t0 = performance.now();
  const { migrations } = await prepareDatabase(config.database, { seed: false });
  for (const r of migrations.results ?? [])
    console.log(`migração ${r.status === 'Success' ? 'aplicada' : r.status}: ${r.migrationName}`);
  const result = await seedVolume(config.database, { ...options, retencao: config.privacy.retention }, (m) =>
    console.log(`  ${m}`),
  );
  const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
  console.log('Linhas gravadas:');
  for (const [t, n] of Object.entries(result.counts))
    console.log(`  ${t.padEnd(28)} ${n.toLocaleString('pt-BR').padStart(12)}`);
  console.log(`Total: ${total.toLocaleString('pt-BR')} linhas em ${((performance.now() - t0) / 1000).toFixed(1)} s.`);
} catch (err) {
  console.error(err instanceof ConfigError || err instanceof VolumeError ? err.message : err);
  process.exit(1);
}
