// The register of security incidents (ANPD Resolution 15/2024): each incident's facts,
// checked field by field with the form kit, stored with an audit row in one transaction;
// the list, one incident, and the CSV export. Records are kept five years (retention.ts).
import { mappedBatches } from '../../lib/batches';
import { nowIso } from '../../db/index';
import type { Transactional } from '../../db/transactional';
import { csvDate } from '../../db/csv/index';
import { multiLine, parseDay, parseInteger, rawString, take, type FieldErrors } from '../../lib/form/index';
import { pageWindow } from '../../lib/pagination';
import { formatDay, saoPauloDay } from '../../lib/time';
import { LIST_PAGE_SIZE } from '../../staff/list';
import type { AuditRepository } from '../audit/audit.repository';
import type { IncidentFields, IncidentsRepository } from './incidents.repository';

export const RISKS = [
  { value: 'baixo', label: 'Baixo' },
  { value: 'medio', label: 'Médio' },
  { value: 'alto', label: 'Alto' },
] as const;
export const riskLabel = (v: string) => RISKS.find((r) => r.value === v)?.label ?? v;

export const INCIDENT_LIMITS = {
  descricao: 5000,
  dados_afetados: 2000,
  titulares_afetados: 2000,
  medidas: 5000,
} as const;
export const MAX_PEOPLE = 1_000_000_000;

export type IncidentResult = { ok: true; id: number } | { ok: false; errors: FieldErrors };

/** Checks a posted incident; every refused field gets its pt-BR message. */
export function validateIncident(body: Record<string, unknown>, today: string): IncidentResult | IncidentFields {
  const errors: FieldErrors = {};
  const day = (key: string, required?: string) => {
    const v = take(errors, key, parseDay(body[key], { required }), '');
    if (v && v > today) errors[key] = 'A data não pode estar no futuro.';
    return v;
  };
  const text = (key: keyof typeof INCIDENT_LIMITS, required: string) =>
    take(errors, key, multiLine(body[key], { max: INCIDENT_LIMITS[key], required }), '');

  const constatado = day('constatado_em', 'Informe a data em que o incidente foi constatado.');
  const descricao = text('descricao', 'Descreva o que aconteceu.');
  const dados = text('dados_afetados', 'Informe que tipos de dados foram afetados (ex.: nome, e-mail, fotos).');
  const titulares = text('titulares_afetados', 'Informe quem foi afetado (ex.: clientes da unidade, candidatos).');
  const rawCount = rawString(body.quantidade_titulares).replace(/[.\s]/g, '');
  const quantidade = take(errors, 'quantidade_titulares', parseInteger(rawCount, 0, MAX_PEOPLE, -1), -1);
  const risco = rawString(body.risco);
  if (!RISKS.some((r) => r.value === risco)) errors.risco = 'Escolha o risco: baixo, médio ou alto.';
  const medidas = text('medidas', 'Informe as medidas tomadas (ou a tomar) para conter e remediar.');
  const anpd = day('anpd_comunicada_em');
  const people = day('titulares_comunicados_em');
  for (const [key, v] of [
    ['anpd_comunicada_em', anpd],
    ['titulares_comunicados_em', people],
  ] as const) {
    if (v && constatado && v < constatado && !errors[key])
      errors[key] = `A comunicação não pode ser anterior à data do incidente (${formatDay(constatado)}).`;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    constatado_em: constatado,
    descricao,
    dados_afetados: dados,
    titulares_afetados: titulares,
    quantidade_titulares: quantidade < 0 ? null : quantidade,
    risco,
    medidas,
    anpd_comunicada_em: anpd || null,
    titulares_comunicados_em: people || null,
  };
}

const isResult = (v: IncidentResult | IncidentFields): v is IncidentResult => 'ok' in v;

export function createIncidentsService(
  repos: Transactional<{ incidents: IncidentsRepository; audit: AuditRepository }>,
) {
  return {
    async page(pagina: unknown) {
      const info = pageWindow(await repos.incidents.count(), LIST_PAGE_SIZE, pagina);
      return { info, rows: await repos.incidents.list(info.size, info.offset) };
    },

    get(id: number) {
      return repos.incidents.byId(id);
    },

    async create(userId: number, body: Record<string, unknown>, now = new Date()): Promise<IncidentResult> {
      const checked = validateIncident(body, saoPauloDay(now));
      if (isResult(checked)) return checked;
      const at = nowIso(now);
      const id = await repos.transaction(async (tx) => {
        const id = await tx.incidents.insert(checked, userId, at);
        await tx.audit.record(
          { usuarioId: userId, acao: 'criar', entidade: 'incidente', entidadeId: id, depois: checked },
          at,
        );
        return id;
      });
      return { ok: true, id };
    },

    /** null when the incident does not exist (any more). */
    async update(
      userId: number,
      id: number,
      body: Record<string, unknown>,
      now = new Date(),
    ): Promise<IncidentResult | null> {
      const checked = validateIncident(body, saoPauloDay(now));
      if (isResult(checked)) return checked;
      const at = nowIso(now);
      return repos.transaction(async (tx) => {
        const before = await tx.incidents.byId(id);
        if (!before) return null;
        await tx.incidents.update(id, checked, at);
        const { id: _id, criado_por: _by, criado_em: _c, atualizado_em: _u, ...antes } = before;
        await tx.audit.record(
          { usuarioId: userId, acao: 'editar', entidade: 'incidente', entidadeId: id, antes, depois: checked },
          at,
        );
        return { ok: true, id } as const;
      });
    },

    /** The whole register as CSV rows, newest first, read in batches. */
    exportRows() {
      const header = [
        'id',
        'constatado_em',
        'o_que_aconteceu',
        'dados_afetados',
        'titulares_afetados',
        'quantidade_aproximada',
        'risco',
        'medidas',
        'anpd_comunicada_em',
        'titulares_comunicados_em',
        'registrado_em',
        'atualizado_em',
      ];
      const incidents = repos.incidents;
      const rows = mappedBatches(
        {
          size: 500,
          fetch: (before: number | null) => incidents.before(before, 500),
          cursorOf: (i) => i.id,
        },
        (i) => [
          i.id,
          formatDay(i.constatado_em),
          i.descricao,
          i.dados_afetados,
          i.titulares_afetados,
          i.quantidade_titulares ?? '',
          riskLabel(i.risco),
          i.medidas,
          i.anpd_comunicada_em ? formatDay(i.anpd_comunicada_em) : '',
          i.titulares_comunicados_em ? formatDay(i.titulares_comunicados_em) : '',
          csvDate(i.criado_em),
          csvDate(i.atualizado_em),
        ],
      );
      return { header, rows };
    },
  };
}
