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

export { CATALOG_LIMITS, type CatalogFile, type ImportResult } from './catalog-file';
export { catalogSizeProblem, parseCatalogText } from './catalog-check';

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

/** Rows grouped by one of their ids (one pass: the export of a chain reads ~100,000 link and class rows). */
function groupBy<T>(rows: readonly T[], key: (row: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}

async function exportCatalog(transfer: Pick<TransferRepository, 'readAll'>): Promise<CatalogFile> {
  const all = await transfer.readAll();
  const unitSlug = new Map(all.unidades.map((u) => [u.id, u.slug]));
  const areaName = new Map(all.areas.map((a) => [a.id, a.nome]));
  const modalityName = new Map(all.modalidades.map((m) => [m.id, m.nome]));
  const hoursOf = groupBy(all.horarios, (h) => h.unidade_id);
  const areasOf = groupBy(all.unidadesAreas, (l) => l.unidade_id);
  const modalitiesOf = groupBy(all.unidadesModalidades, (l) => l.unidade_id);
  const classesOf = groupBy(all.aulas, (c) => c.unidade_id);
  const unitsOf = groupBy(all.planosUnidades, (l) => l.plano_id);
  const optionsOf = groupBy(all.opcoes, (o) => o.pergunta_id);
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
      horarios: (hoursOf.get(u.id) ?? []).map(({ dia_semana, abre, fecha }) => ({ dia_semana, abre, fecha })),
      areas: (areasOf.get(u.id) ?? []).map((l) => areaName.get(l.area_id)!).sort(byName),
      modalidades: (modalitiesOf.get(u.id) ?? []).map((l) => modalityName.get(l.modalidade_id)!).sort(byName),
      aulas: (classesOf.get(u.id) ?? []).map((c) => ({
        dia_semana: c.dia_semana,
        inicio: c.inicio,
        fim: c.fim,
        modalidade: modalityName.get(c.modalidade_id)!,
        professor: c.professor,
        sala: c.sala,
      })),
    })),
    planos: all.planos.map((p) => ({
      nome: p.nome,
      descricao: p.descricao,
      preco_centavos: p.preco_centavos,
      periodicidade: p.periodicidade,
      ordem: p.ordem,
      ativo: p.ativo === 1,
      unidades: (unitsOf.get(p.id) ?? []).map((l) => unitSlug.get(l.unidade_id)!).sort(byName),
    })),
    perguntas: all.perguntas.map((q) => ({
      texto: q.texto,
      tipo: q.tipo,
      obrigatoria: q.obrigatoria === 1,
      ordem: q.ordem,
      ativo: q.ativo === 1,
      opcoes: (optionsOf.get(q.id) ?? []).map((o) => ({
        texto: o.texto,
        valor: o.valor,
        ordem: o.ordem,
        ativo: o.ativo === 1,
      })),
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

/**
 * What counts as a change of an entity, as JSON: its exported form, except that a unit's
 * areas, modalities and classes name them folded — they are matched that way, so a unit
 * linked to "Yoga" is unchanged when the file writes "yoga" or when the modality's own
 * spelling changes (that is the modality's update, docs/decisions/178).
 */
function fingerprint(kind: EntityKind, e: object): string {
  if (kind !== 'unidades') return JSON.stringify(e);
  const u = e as CatalogFile['unidades'][number];
  const folded = (names: string[]) => [...new Set(names.map(foldText))].sort();
  return JSON.stringify({
    ...u,
    areas: folded(u.areas),
    modalidades: folded(u.modalidades),
    aulas: u.aulas.map((c) => ({ ...c, modalidade: foldText(c.modalidade) })),
  });
}

/** "kind:key" → the entity exactly as exported (`raw`) and its fingerprint. */
function entityForms(file: CatalogFile): { raw: Map<string, string>; prints: Map<string, string> } {
  const raw = new Map<string, string>();
  const prints = new Map<string, string>();
  for (const kind of ENTITY_KINDS) {
    for (const e of file[kind]) {
      const key = `${kind}:${entityKey(kind, e)}`;
      raw.set(key, JSON.stringify(e));
      prints.set(key, fingerprint(kind, e));
    }
  }
  return { raw, prints };
}

async function importCatalog(
  deps: TransferDeps,
  data: unknown,
  actor: { id: number | null } = { id: null },
): Promise<ImportResult> {
  const result = await deps.repos.transaction(async ({ transfer, content, audit }): Promise<ImportResult> => {
    const problems = catalogProblems(data, await transfer.keys());
    if (problems.length) return { ok: false, problemas: problems };
    const file = data as CatalogFile;
    const now = nowIso();
    // Created / updated / unchanged: each entity's exported form before and after the import.
    const before = entityForms(await exportCatalog(transfer));
    // An entity written in the file exactly as the export writes it is already stored as
    // the file says: nothing to write (a chain's unchanged round trip writes nothing).
    const asStored = (kind: EntityKind, e: object) =>
      before.raw.get(`${kind}:${entityKey(kind, e)}`) === JSON.stringify(e);

    const areaIds = new Map<string, number>();
    for (const a of file.areas) {
      if (!asStored('areas', a)) await transfer.upsertArea(a.nome, a.ativo ? 1 : 0);
    }
    for (const a of await content.listAreas()) areaIds.set(foldText(a.nome), a.id);
    for (const m of file.modalidades) {
      if (!asStored('modalidades', m)) await transfer.upsertModality(m.nome, m.descricao ?? null, m.ativo ? 1 : 0);
    }
    const modalityIds = new Map<string, number>();
    for (const m of await content.listModalities()) modalityIds.set(foldText(m.nome), m.id);

    const unitIds = new Map<string, number>();
    for (const u of file.unidades) {
      if (asStored('unidades', u)) continue;
      const body: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(u))
        if (typeof val === 'string' || typeof val === 'number') body[k] = String(val);
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
      await content.replaceUnitModalities(r.id, [
        ...new Set([
          ...u.modalidades.map((n) => modalityIds.get(foldText(n))!),
          ...classes.map((c) => c.modalidade_id),
        ]),
      ]);
      await content.deleteUnitClasses(r.id);
      await content.insertClasses(r.id, classes);
    }
    for (const u of await content.listUnits()) if (!unitIds.has(u.slug)) unitIds.set(u.slug, u.id);

    const planIds = await transfer.planIdsByName();
    const writtenPlans: number[] = [];
    const planLinks: { plano_id: number; unidade_id: number }[] = [];
    for (const p of file.planos) {
      if (asStored('planos', p)) continue;
      const fields = {
        nome: p.nome,
        descricao: p.descricao?.trim() || null,
        preco_centavos: p.preco_centavos,
        periodicidade: p.periodicidade,
        ordem: p.ordem,
        ativo: p.ativo ? 1 : 0,
      };
      const id = await transfer.savePlan(planIds.get(p.nome), fields, now);
      writtenPlans.push(id);
      for (const unitId of new Set(p.unidades.map((slug) => unitIds.get(slug)!)))
        planLinks.push({ plano_id: id, unidade_id: unitId });
    }
    await transfer.replaceUnitsOfPlans(writtenPlans, planLinks);

    for (const q of file.perguntas) {
      if (asStored('perguntas', q)) continue;
      const r = await transfer.upsertQuestion(
        { texto: q.texto, tipo: q.tipo, obrigatoria: q.obrigatoria ? 1 : 0, ordem: q.ordem, ativo: q.ativo ? 1 : 0 },
        now,
      );
      for (const o of q.opcoes)
        await transfer.upsertOption(r.id, {
          texto: o.texto,
          valor: o.valor ?? null,
          ordem: o.ordem,
          ativo: o.ativo ? 1 : 0,
        });
    }

    const after = entityForms(await exportCatalog(transfer)).prints;
    const resumo: ImportSummary = {};
    for (const kind of ENTITY_KINDS) {
      const c = { criados: 0, atualizados: 0, inalterados: 0 };
      for (const key of new Set(file[kind].map((e) => entityKey(kind, e)))) {
        const was = before.prints.get(`${kind}:${key}`);
        if (was === undefined) c.criados++;
        else if (was === after.get(`${kind}:${key}`)) c.inalterados++;
        else c.atualizados++;
      }
      resumo[kind] = c;
    }

    await audit.record(
      { usuarioId: actor.id, acao: 'importar', entidade: 'catalogo', entidadeId: null, antes: null, depois: resumo },
      now,
    );
    return { ok: true, resumo };
  });
  if (result.ok) deps.onCatalogChange?.();
  return result;
}
