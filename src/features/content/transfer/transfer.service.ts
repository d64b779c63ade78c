// Catalog export/import between installations. The file references units by slug and
// areas, modalities, plans and questions by name/text, never by database id, so it can be
// imported into another database. An import is validated in full first (schema, then the
// same field rules as the screens, then references) and applied in ONE transaction: a bad
// file changes nothing and every problem is reported with its location.
// The file's shape is in catalog-file.ts and its validation in catalog-check.ts.
import { nowIso } from '../../../db/index';
import type { Transactional } from '../../../db/transactional';
import { foldText } from '../../../lib/text';
import type { ContentRepos } from '../shared/change';
import type { TransferRepository } from './transfer.repository';
import { parseUnitForm } from '../units/units.service';
import { catalogProblems } from './catalog-check';
import { CATALOG_FORMAT_VERSION, type CatalogFile, type ImportResult, type ImportSummary } from './catalog-file';

export { CATALOG_FORMAT_VERSION, CatalogSchema, type CatalogFile, type ImportResult, type ImportSummary } from './catalog-file';
export { catalogProblems, locationOf, parseCatalogText } from './catalog-check';

/** The content repositories and the transfer's own, bound together in the import's transaction. */
export interface TransferDeps {
  repos: Transactional<ContentRepos & { transfer: TransferRepository }>;
  onCatalogChange?: () => void;
}

/** Export and import on the repositories content/services.ts built (the CLI and tests go through it too). */
export function createTransferService(deps: TransferDeps) {
  return {
    exportCatalog: () => exportCatalog(deps.repos.transfer),
    importCatalog: (data: unknown, actor?: { id: number | null }) => importCatalog(deps, data, actor),
  };
}

// ---------------------------------------------------------------- export

async function exportCatalog(transfer: Pick<TransferRepository, 'readAll'>): Promise<CatalogFile> {
  const all = await transfer.readAll();
  const unitSlug = new Map(all.unidades.map((u) => [u.id, u.slug]));
  const areaName = new Map(all.areas.map((a) => [a.id, a.nome]));
  const modalityName = new Map(all.modalidades.map((m) => [m.id, m.nome]));
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    versao: CATALOG_FORMAT_VERSION,
    areas: all.areas.map((a) => ({ nome: a.nome, ativo: a.ativo === 1 })),
    modalidades: all.modalidades.map((m) => ({ nome: m.nome, descricao: m.descricao, ativo: m.ativo === 1 })),
    unidades: all.unidades.map((u) => ({
      slug: u.slug,
      nome: u.nome,
      cidade: u.cidade,
      uf: u.uf,
      bairro: u.bairro,
      endereco: u.endereco,
      cep: u.cep,
      telefone: u.telefone,
      whatsapp: u.whatsapp,
      email: u.email,
      latitude: u.latitude,
      longitude: u.longitude,
      descricao: u.descricao,
      beneficio_nome: u.beneficio_nome,
      beneficio_url: u.beneficio_url,
      ativo: u.ativo === 1,
      horarios: all.horarios.filter((h) => h.unidade_id === u.id).map(({ dia_semana, abre, fecha }) => ({ dia_semana, abre, fecha })),
      areas: all.unidadesAreas.filter((l) => l.unidade_id === u.id).map((l) => areaName.get(l.area_id)!).sort(byName),
      modalidades: all.unidadesModalidades.filter((l) => l.unidade_id === u.id).map((l) => modalityName.get(l.modalidade_id)!).sort(byName),
      aulas: all.aulas
        .filter((c) => c.unidade_id === u.id)
        .map((c) => ({ dia_semana: c.dia_semana, inicio: c.inicio, fim: c.fim, modalidade: modalityName.get(c.modalidade_id)!, professor: c.professor, sala: c.sala })),
    })),
    planos: all.planos.map((p) => ({
      nome: p.nome,
      descricao: p.descricao,
      preco_centavos: p.preco_centavos,
      periodicidade: p.periodicidade,
      ordem: p.ordem,
      ativo: p.ativo === 1,
      unidades: all.planosUnidades.filter((l) => l.plano_id === p.id).map((l) => unitSlug.get(l.unidade_id)!).sort(byName),
    })),
    perguntas: all.perguntas.map((q) => ({
      texto: q.texto,
      tipo: q.tipo,
      obrigatoria: q.obrigatoria === 1,
      ordem: q.ordem,
      ativo: q.ativo === 1,
      opcoes: all.opcoes.filter((o) => o.pergunta_id === q.id).map((o) => ({ texto: o.texto, valor: o.valor, ordem: o.ordem, ativo: o.ativo === 1 })),
    })),
  };
}

// ---------------------------------------------------------------- import

const ENTITY_KINDS = ['areas', 'modalidades', 'unidades', 'planos', 'perguntas'] as const;
type EntityKind = (typeof ENTITY_KINDS)[number];

/** The natural key of an entity in the file: slug, name (case and accents ignored for areas and modalities) or text. */
function entityKey(kind: EntityKind, e: object): string {
  const r = e as { slug?: string; nome?: string; texto?: string };
  if (kind === 'unidades') return r.slug!;
  if (kind === 'perguntas') return r.texto!;
  return kind === 'planos' ? r.nome! : foldText(r.nome!);
}

/** "kind:key" → the entity as exported (with its links, hours and classes), as JSON. */
function entityFingerprints(file: CatalogFile): Map<string, string> {
  const out = new Map<string, string>();
  for (const kind of ENTITY_KINDS) for (const e of file[kind]) out.set(`${kind}:${entityKey(kind, e)}`, JSON.stringify(e));
  return out;
}

async function importCatalog(deps: TransferDeps, data: unknown, actor: { id: number | null } = { id: null }): Promise<ImportResult> {
  const result = await deps.repos.transaction(async ({ transfer, content, audit }): Promise<ImportResult> => {
    const problems = catalogProblems(data, await transfer.keys());
    if (problems.length) return { ok: false, problemas: problems };
    const file = data as CatalogFile;
    const now = nowIso();
    // Created / updated / unchanged: each entity's exported form before and after the import.
    const before = entityFingerprints(await exportCatalog(transfer));

    const areaIds = new Map<string, number>();
    for (const a of file.areas) {
      await transfer.upsertArea(a.nome, a.ativo ? 1 : 0);
    }
    for (const a of await content.listAreas()) areaIds.set(foldText(a.nome), a.id);
    for (const m of file.modalidades) {
      await transfer.upsertModality(m.nome, m.descricao ?? null, m.ativo ? 1 : 0);
    }
    const modalityIds = new Map<string, number>();
    for (const m of await content.listModalities()) modalityIds.set(foldText(m.nome), m.id);

    const unitIds = new Map<string, number>();
    for (const u of file.unidades) {
      const body: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(u)) if (typeof val === 'string' || typeof val === 'number') body[k] = String(val);
      for (const h of u.horarios) {
        body[`abre_${h.dia_semana}`] = h.abre;
        body[`fecha_${h.dia_semana}`] = h.fecha;
      }
      const parsed = parseUnitForm(body);
      if (!parsed.ok) throw new Error('validated unit failed to parse'); // unreachable: validated above
      const r = await transfer.upsertUnit({ ...parsed.value.fields, ativo: u.ativo ? 1 : 0 }, now);
      unitIds.set(u.slug, r.id);
      await content.replaceHours(r.id, parsed.value.hours);
      await content.replaceUnitAreas(r.id, [...new Set(u.areas.map((n) => areaIds.get(foldText(n))!))]);
      const classes = u.aulas.map((c) => ({
        modalidade_id: modalityIds.get(foldText(c.modalidade))!,
        dia_semana: c.dia_semana,
        inicio: c.inicio,
        fim: c.fim,
        professor: c.professor?.trim() || null,
        sala: c.sala?.trim() || null,
      }));
      await content.replaceUnitModalities(r.id, [...new Set([...u.modalidades.map((n) => modalityIds.get(foldText(n))!), ...classes.map((c) => c.modalidade_id)])]);
      await content.deleteUnitClasses(r.id);
      await content.insertClasses(r.id, classes);
    }
    for (const u of await content.listUnits()) if (!unitIds.has(u.slug)) unitIds.set(u.slug, u.id);

    for (const p of file.planos) {
      const r = await transfer.upsertPlan(
        { nome: p.nome, descricao: p.descricao?.trim() || null, preco_centavos: p.preco_centavos, periodicidade: p.periodicidade, ordem: p.ordem, ativo: p.ativo ? 1 : 0 },
        now,
      );
      await content.replacePlanUnits(r.id, [...new Set(p.unidades.map((slug) => unitIds.get(slug)!))]);
    }

    for (const q of file.perguntas) {
      const r = await transfer.upsertQuestion({ texto: q.texto, tipo: q.tipo, obrigatoria: q.obrigatoria ? 1 : 0, ordem: q.ordem, ativo: q.ativo ? 1 : 0 }, now);
      for (const o of q.opcoes) await transfer.upsertOption(r.id, { texto: o.texto, valor: o.valor ?? null, ordem: o.ordem, ativo: o.ativo ? 1 : 0 });
    }

    const after = entityFingerprints(await exportCatalog(transfer));
    const resumo: ImportSummary = {};
    for (const kind of ENTITY_KINDS) {
      const c = { criados: 0, atualizados: 0, inalterados: 0 };
      for (const key of new Set(file[kind].map((e) => entityKey(kind, e)))) {
        const was = before.get(`${kind}:${key}`);
        if (was === undefined) c.criados++;
        else if (was === after.get(`${kind}:${key}`)) c.inalterados++;
        else c.atualizados++;
      }
      resumo[kind] = c;
    }

    await audit.record({ usuarioId: actor.id, acao: 'importar', entidade: 'catalogo', entidadeId: null, antes: null, depois: resumo }, now);
    return { ok: true, resumo };
  });
  if (result.ok) deps.onCatalogChange?.();
  return result;
}
