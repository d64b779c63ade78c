// The conditional UPDATE that lets instances race safely: a row changes only while a column
// still holds what the caller saw, and the caller learns whether its own statement won.
import type { Kysely, Updateable } from 'kysely';
import type { Database } from '../../db/types';

/** What the row must still hold: `[column, 'is', null]`, `[column, 'is not', null]` or `[column, '=', value]`. */
type Guard<T extends keyof Database> = readonly [keyof Database[T] & string, 'is' | 'is not' | '=', string | null];

/** updateWhile(table, id, guard, values) on `db`. */
export function createUpdateWhile(db: Kysely<Database>) {
  // Any table seen as plain rows: Kysely cannot check one query over a table not yet chosen.
  const rows = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  /**
   * Updates row `id` of `table` only while the guard holds: of callers at once exactly one
   * changes it. True when this call did.
   */
  return async function updateWhile<T extends keyof Database>(
    table: T,
    id: number,
    [column, op, value]: Guard<T>,
    values: Updateable<Database[T]>,
  ): Promise<boolean> {
    const name: string = table;
    const res = await rows
      .updateTable(name)
      .set(values as Record<string, unknown>)
      .where('id', '=', id)
      .where(column as string, op, value)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  };
}
