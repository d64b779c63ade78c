// Rules for a unit's weekly timetable: a class ends after it starts; two classes in the
// same room (same unit, weekday and sala) never overlap. A class points to nothing else
// (no answers or messages refer to it), so removing one is a real delete.
import { toId } from '../../../lib/form/index';
import { cleanText, foldText } from '../../../lib/text';
import { WEEKDAYS } from '../../../lib/time';
import type { ClassFields, ContentRepository } from '../shared/content.repository';
import { change, type ContentDeps } from '../shared/change';
import { NotFoundError } from '../../../staff/errors';
import { type Actor, auditRow } from '../../audit/audit.repository';
import type { FormFields } from '../../../staff/validation';
import * as v from '../../../staff/validation';
import type { FieldErrors, Result } from '../../../staff/validation';

export interface ModalityChoice {
  id: number;
  nome: string;
  ativo: number;
}

/** Validates one class's fields (without the overlap rule). */
export function parseClassFields(
  get: (k: string) => string,
  modalities: ModalityChoice[],
  byName = false,
): Result<ClassFields> {
  const e: FieldErrors = {};
  let modalidade_id = 0;
  if (byName) {
    const name = foldText(get('modalidade'));
    const found = modalities.find((m) => foldText(m.nome) === name && m.ativo === 1);
    if (!name) e.modalidade = 'Informe a modalidade.';
    else if (!found)
      e.modalidade = `Modalidade desconhecida ou inativa: "${cleanText(get('modalidade')).slice(0, 60)}".`;
    else modalidade_id = found.id;
  } else {
    modalidade_id = toId(get('modalidade_id')) ?? 0;
    if (!modalities.some((m) => m.id === modalidade_id)) e.modalidade_id = 'Escolha a modalidade.';
  }
  const dia = v.parseWeekday(get('dia_semana'));
  if (dia === null) e.dia_semana = 'Dia da semana inválido: use segunda, terça, ... ou domingo.';
  const inicio = v.time(e, 'inicio', get('inicio'), 'o horário de início');
  const fim = v.time(e, 'fim', get('fim'), 'o horário de término');
  if (!e.inicio && !e.fim && fim <= inicio) e.fim = 'A aula precisa terminar depois de começar.';
  const professor = v.optionalText(e, 'professor', get('professor'), 120);
  const sala = v.optionalText(e, 'sala', get('sala'), 120);
  if (v.hasErrors(e)) return { ok: false, errors: e };
  return { ok: true, value: { modalidade_id, dia_semana: dia!, inicio, fim, professor, sala } };
}

/** The first class in `others` that overlaps `c` in the same room, or undefined. */
export function findOverlap<T extends ClassFields>(c: ClassFields, others: T[]): T | undefined {
  return others.find((o) => v.overlaps(c, o));
}

export function overlapMessage(
  o: { dia_semana: number; inicio: string; fim: string; sala: string | null },
  modalidade?: string,
) {
  return (
    `Conflito de sala: ${o.sala} já tem ${modalidade ? `${modalidade} ` : 'uma aula '}na ` +
    `${WEEKDAYS[o.dia_semana]!.toLowerCase()} das ${o.inicio} às ${o.fim}.`
  );
}

export interface CsvRowCheck {
  line: number;
  values: Record<string, string>;
  fields: ClassFields | null;
  problems: string[];
}

/** Validates a whole week (CSV upload or copy): each row on its own, then overlaps between rows. */
export function checkWeek(
  rows: { line: number; values: Record<string, string> }[],
  modalities: ModalityChoice[],
): CsvRowCheck[] {
  const checked: CsvRowCheck[] = rows.map((r) => {
    const parsed = parseClassFields((k) => r.values[k] ?? '', modalities, true);
    return {
      line: r.line,
      values: r.values,
      fields: parsed.ok ? parsed.value : null,
      problems: parsed.ok ? [] : Object.values(parsed.errors),
    };
  });
  for (const [i, row] of checked.entries()) {
    if (!row.fields) continue;
    const clash = checked.slice(0, i).find((o) => o.fields && v.overlaps(row.fields!, o.fields));
    if (clash) row.problems.push(`${overlapMessage(clash.fields!, clash.values.modalidade)} (linha ${clash.line})`);
  }
  return checked;
}

export function createTimetableService(deps: ContentDeps) {
  const read = deps.repos.content;
  const modalityChoices = (repo: ContentRepository) => repo.listModalities();

  async function week(repo: ContentRepository, unitId: number) {
    return (await repo.listClasses(unitId)).map(
      ({ id, modalidade, dia_semana, inicio, fim, professor, sala, modalidade_id }) => ({
        id,
        modalidade_id,
        modalidade,
        dia_semana,
        inicio,
        fim,
        professor,
        sala,
      }),
    );
  }

  return {
    async page(unitId: number) {
      const unit = await read.findUnit(unitId);
      if (!unit) return null;
      const [classes, modalities, units] = await Promise.all([
        read.listClasses(unitId),
        read.listModalities(),
        read.listUnits(),
      ]);
      return { unit, classes, modalities, units };
    },
    findClass: (unitId: number, classId: number) => read.findClass(unitId, classId),
    modalities: () => read.listModalities(),

    async add(actor: Actor, unitId: number, body: FormFields): Promise<Result<{ id: number }>> {
      return change(deps, actor, async (repo, audit) => {
        if (!(await repo.findUnit(unitId))) throw new NotFoundError();
        const parsed = parseClassFields((k) => v.field(body, k), await modalityChoices(repo));
        if (!parsed.ok) return parsed;
        const clash = findOverlap(parsed.value, await repo.listClasses(unitId));
        if (clash) return { ok: false, errors: { sala: overlapMessage(clash, clash.modalidade) } };
        const id = await repo.insertClass(unitId, parsed.value);
        await repo.ensureUnitModalities(unitId, [parsed.value.modalidade_id]);
        await audit(auditRow('criar', 'aula', id, null, { ...parsed.value, unidade_id: unitId }));
        return { ok: true, value: { id } };
      });
    },

    async update(actor: Actor, unitId: number, classId: number, body: FormFields): Promise<Result<{ id: number }>> {
      return change(deps, actor, async (repo, audit) => {
        const before = await repo.findClass(unitId, classId);
        if (!before) throw new NotFoundError();
        const parsed = parseClassFields((k) => v.field(body, k), await modalityChoices(repo));
        if (!parsed.ok) return parsed;
        const clash = findOverlap(
          parsed.value,
          (await repo.listClasses(unitId)).filter((c) => c.id !== classId),
        );
        if (clash) return { ok: false, errors: { sala: overlapMessage(clash, clash.modalidade) } };
        await repo.updateClass(classId, parsed.value);
        await repo.ensureUnitModalities(unitId, [parsed.value.modalidade_id]);
        await audit(auditRow('editar', 'aula', classId, before, { ...parsed.value, unidade_id: unitId }));
        return { ok: true, value: { id: classId } };
      });
    },

    async remove(actor: Actor, unitId: number, classId: number) {
      await change(deps, actor, async (repo, audit) => {
        const before = await repo.findClass(unitId, classId);
        if (!before) throw new NotFoundError();
        await repo.deleteClass(classId);
        await audit(auditRow('excluir', 'aula', classId, before, null));
      });
    },

    /** Replaces the unit's week with a copy of another unit's week. */
    async copyFrom(actor: Actor, unitId: number, sourceId: number): Promise<Result<{ count: number }>> {
      return change(deps, actor, async (repo, audit) => {
        if (!(await repo.findUnit(unitId))) throw new NotFoundError();
        if (sourceId === unitId || !(await repo.findUnit(sourceId)))
          return { ok: false, errors: { origem_id: 'Escolha outra unidade para copiar a grade.' } };
        const source = await repo.listClasses(sourceId);
        const before = await week(repo, unitId);
        const rows = source.map(({ modalidade_id, dia_semana, inicio, fim, professor, sala }) => ({
          modalidade_id,
          dia_semana,
          inicio,
          fim,
          professor,
          sala,
        }));
        await repo.deleteUnitClasses(unitId);
        await repo.insertClasses(unitId, rows);
        await repo.ensureUnitModalities(
          unitId,
          rows.map((r) => r.modalidade_id),
        );
        await audit(
          auditRow('copiar_grade', 'grade', unitId, before, {
            origem_unidade_id: sourceId,
            aulas: await week(repo, unitId),
          }),
        );
        return { ok: true, value: { count: rows.length } };
      });
    },

    /** CSV preview: every row checked, nothing written. */
    async preview(rows: { line: number; values: Record<string, string> }[]) {
      return checkWeek(rows, await read.listModalities());
    },

    /**
     * Applies a previewed CSV: the rows are checked again (the hidden field came back from
     * the browser and is not trusted), then they replace the unit's week.
     */
    async replaceWeek(
      actor: Actor,
      unitId: number,
      rows: { line: number; values: Record<string, string> }[],
    ): Promise<Result<{ count: number }> & { checked?: CsvRowCheck[] }> {
      return change(deps, actor, async (repo, audit) => {
        if (!(await repo.findUnit(unitId))) throw new NotFoundError();
        const checked = checkWeek(rows, await repo.listModalities());
        if (!rows.length) return { ok: false, errors: { arquivo: 'O arquivo não tem nenhuma aula.' }, checked };
        if (checked.some((r) => r.problems.length))
          return {
            ok: false,
            errors: { arquivo: 'Corrija as linhas com problema e envie o arquivo de novo.' },
            checked,
          };
        const fields = checked.map((r) => r.fields!);
        const before = await week(repo, unitId);
        await repo.deleteUnitClasses(unitId);
        await repo.insertClasses(unitId, fields);
        await repo.ensureUnitModalities(
          unitId,
          fields.map((r) => r.modalidade_id),
        );
        await audit(auditRow('importar_csv', 'grade', unitId, before, await week(repo, unitId)));
        return { ok: true, value: { count: fields.length } };
      });
    },
  };
}
