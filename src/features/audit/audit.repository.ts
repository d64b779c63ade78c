// The audit log's SQL. Rows are written inside the transaction of the change they record.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';

/** Who makes a change; null id = the command line (catalog import). */
export interface Actor {
  id: number | null;
}

export interface AuditEntry {
  usuarioId: number | null;
  acao: string;
  entidade: string;
  entidadeId: number | null;
  antes?: unknown;
  depois?: unknown;
}

/** One audit row as a change's `audit()` takes it: what was done to which record, before and after. */
export function auditRow(
  acao: string,
  entidade: string,
  entidadeId: number,
  antes: unknown,
  depois: unknown,
): Omit<AuditEntry, 'usuarioId'> {
  return { acao, entidade, entidadeId, antes, depois };
}

/** The audit row of an activate/deactivate button: the record's `ativo` before and after. */
export const activationEntry = (entidade: string, id: number, before: { ativo: number }, active: boolean) =>
  auditRow(active ? 'ativar' : 'desativar', entidade, id, { ativo: before.ativo }, { ativo: active ? 1 : 0 });

export interface AuditFilter {
  entidade?: string;
  entidadeId?: number;
  /** text the row's before/after values contain (case-insensitive for unaccented letters) */
  text?: string;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

export function createAuditRepository(db: Kysely<Database>) {
  function filtered(filter: AuditFilter) {
    let q = db.selectFrom('auditoria');
    if (filter.entidade) q = q.where('auditoria.entidade', '=', filter.entidade);
    if (filter.entidadeId) q = q.where('auditoria.entidade_id', '=', filter.entidadeId);
    if (filter.text) {
      const pattern = `%${escapeLike(filter.text.toLowerCase())}%`;
      q = q.where(
        sql<boolean>`lower(coalesce(auditoria.antes, '') || ' ' || coalesce(auditoria.depois, '')) like ${pattern} \
escape '\\'`,
      );
    }
    return q;
  }
  return {
    async record(entry: AuditEntry, now: string) {
      await db
        .insertInto('auditoria')
        .values({
          usuario_id: entry.usuarioId,
          acao: entry.acao,
          entidade: entry.entidade,
          entidade_id: entry.entidadeId,
          antes: json(entry.antes),
          depois: json(entry.depois),
          criado_em: now,
        })
        .execute();
    },
    async count(filter: AuditFilter) {
      const r = await filtered(filter)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    list(filter: AuditFilter, limit: number, offset: number) {
      return filtered(filter)
        .leftJoin('usuarios', 'usuarios.id', 'auditoria.usuario_id')
        .select([
          'auditoria.id',
          'auditoria.usuario_id',
          'auditoria.acao',
          'auditoria.entidade',
          'auditoria.entidade_id',
          'auditoria.antes',
          'auditoria.depois',
          'auditoria.criado_em',
          'usuarios.nome as usuario_nome',
          'usuarios.email as usuario_email',
        ])
        .orderBy('auditoria.criado_em', 'desc')
        .orderBy('auditoria.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
