// The staff lists' pieces: the `q` filter form, the page links that keep it, tables told by
// their columns, and the list page's frame ("Novo …", filter, rows, pages). Paging itself:
// src/lib/pagination.ts.
import type { ComponentChildren, ComponentProps } from 'preact';
import { DataTable, PageLinks } from '../views/table';
import { type Crumb, StaffPage, type StaffProps } from './form.view';
import type { ListState } from './list';

export { DataTable } from '../views/table';

/** A table column: its heading and what each row shows in its cell. */
export type Column<T> = [head: string, cell: (row: T) => ComponentChildren];

/**
 * A DataTable told by its columns, one <td> each, rows keyed by their id: the lists of
 * records say what they show, not how a table row is built.
 */
export function ColumnTable<T extends { id: number }>(p: {
  label: string;
  caption?: string;
  class?: string;
  empty?: string;
  rows: readonly T[];
  columns: Column<T>[];
  /** e.g. "overdue" or "unread" */
  rowClass?: (row: T) => string | undefined;
}) {
  return (
    <DataTable
      label={p.label}
      caption={p.caption}
      class={p.class}
      empty={p.empty}
      columns={p.columns.map(([head]) => head)}
      rows={p.rows}
      row={(r) => (
        <tr key={r.id} class={p.rowClass?.(r)}>
          {p.columns.map(([head, cell]) => (
            <td key={head}>{cell(r)}</td>
          ))}
        </tr>
      )}
    />
  );
}

/** What every staff list page is given (screens.ts): who looks, the list's filter and page, the notice of a save. */
export interface ListPageProps {
  staff: StaffProps;
  list: ListState;
  notice?: string;
}

type ListLinks = { path: string; q: string; params?: Record<string, string> };
/** A list's address at `page`, keeping its filter and params. */
export const listHref = (list: ListLinks, page: number) => {
  const params = new URLSearchParams(list.params);
  if (list.q) params.set('q', list.q);
  if (page > 1) params.set('pagina', String(page));
  const qs = params.toString();
  return qs ? `${list.path}?${qs}` : list.path;
};

/** "1 cadastro", "12 cadastros": how many rows a list has, with its noun in the right number. */
const countOf = (total: number, noun: [string, string]) => (total === 1 ? `1 ${noun[0]}` : `${total} ${noun[1]}`);

/** The `q` filter of a staff list (a plain GET form) and how many rows match. */
export function ListFilter({
  list,
  label,
  noun = ['cadastro', 'cadastros'],
}: {
  list: { path: string; q: string; total: number };
  label: string;
  noun?: [string, string];
}) {
  return (
    <form method="get" action={list.path} class="list-filter" role="search" aria-label="Filtro da lista">
      <label for="lista-q">{label}</label>
      <input id="lista-q" name="q" type="search" value={list.q} maxLength={100} />
      <button type="submit">Filtrar</button>
      {list.q ? <a href={list.path}>Limpar filtro</a> : null}
      <p class="muted">
        {countOf(list.total, noun)}
        {list.q ? ` ${list.total === 1 ? 'contém' : 'contêm'} “${list.q}”` : ''}
      </p>
    </form>
  );
}

/** Previous / next page links (keeping the filter); nothing when everything fits on one page. */
export function Pagination({ list }: { list: ListLinks & { page: number; pages: number } }) {
  return <PageLinks page={list.page} pages={list.pages} href={(page) => listHref(list, page)} />;
}

/** A paged list without a text filter: how many rows, the table and the page links. */
export function PagedTable<T extends { id: number }>({
  list,
  noun,
  ...table
}: ComponentProps<typeof ColumnTable<T>> & {
  list: ListLinks & { total: number; page: number; pages: number };
  noun: [string, string];
}) {
  return (
    <>
      <p class="muted">{countOf(list.total, noun)}</p>
      <ColumnTable {...table} />
      <Pagination list={list} />
    </>
  );
}

/** A staff list page: its frame, the "Novo …" button, the filter, the list itself and its pages. */
export function StaffListPage(
  p: ListPageProps & {
    title: string;
    crumbs?: Crumb[];
    newHref: string;
    newLabel: string;
    filterLabel: string;
    children: ComponentChildren;
  },
) {
  return (
    <StaffPage title={p.title} staff={p.staff} crumbs={p.crumbs} notice={p.notice}>
      <p>
        <a class="button" href={p.newHref}>
          {p.newLabel}
        </a>
      </p>
      <ListFilter list={p.list} label={p.filterLabel} />
      {p.children}
      <Pagination list={p.list} />
    </StaffPage>
  );
}
