// The frame every staff list and report shares: a data table in a horizontally scrollable
// region reachable by keyboard (axe: scrollable-region-focusable), and the previous/next
// page links under a paged list. Pure views.
import type { ComponentChildren } from 'preact';

/** A horizontally scrollable table region, named by `label` (or by the heading `labelledBy`). */
export function TableWrap({
  label,
  labelledBy,
  children,
}: {
  label?: string;
  labelledBy?: string;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={label} aria-labelledby={labelledBy}>
      {children}
    </div>
  );
}

/**
 * A table of `rows` with one header row of `columns` (scope="col") and an optional hidden
 * caption; `empty` is shown as the one row when there are none.
 */
export function DataTable<T>(p: {
  label: string;
  caption?: ComponentChildren;
  columns: ComponentChildren[];
  rows: readonly T[];
  row: (item: T, index: number) => ComponentChildren;
  empty?: string;
  class?: string;
}) {
  return (
    <TableWrap label={p.label}>
      <table class={p.class}>
        {p.caption ? <caption class="visually-hidden">{p.caption}</caption> : null}
        <TableHead columns={p.columns} />
        <tbody>
          {p.rows.length === 0 && p.empty ? (
            <tr>
              <td colSpan={p.columns.length}>{p.empty}</td>
            </tr>
          ) : (
            p.rows.map(p.row)
          )}
        </tbody>
      </table>
    </TableWrap>
  );
}

/** A table's one header row: a column header (scope="col") per column. */
export function TableHead({ columns }: { columns: ComponentChildren[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c, i) => (
          <th scope="col" key={i}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}

/**
 * A body row named by its row header (scope="row"), with its data cells after it and any
 * `before` it (a rank); `data-*` attributes go on the row.
 */
export function HeadedRow({
  head,
  cells,
  before = [],
  ...data
}: {
  head: ComponentChildren;
  cells: ComponentChildren[];
  before?: ComponentChildren[];
} & { [attribute: `data-${string}`]: string | number }) {
  const cell = (c: ComponentChildren, i: number) => <td key={i}>{c}</td>;
  return (
    <tr {...data}>
      {before.map(cell)}
      <th scope="row">{head}</th>
      {cells.map(cell)}
    </tr>
  );
}

/** "Anterior · Página N de M · Próxima"; nothing when everything fits on one page. */
export function PageLinks({
  page,
  pages,
  href,
  linkClass,
}: {
  page: number;
  pages: number;
  href: (page: number) => string;
  linkClass?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav class="pagination" aria-label="Páginas">
      {page > 1 ? (
        <a class={linkClass} href={href(page - 1)} rel="prev">
          Anterior
        </a>
      ) : null}
      <span>
        Página {page} de {pages}
      </span>
      {page < pages ? (
        <a class={linkClass} href={href(page + 1)} rel="next">
          Próxima
        </a>
      ) : null}
    </nav>
  );
}
