// The staff lists' pieces: the `q` filter form, the page links that keep it, and the list
// page's frame ("Novo …", filter, rows, pages). Paging itself: src/lib/pagination.ts.
import type { ComponentChildren } from 'preact';
import { PageLinks } from '../views/table';
import type { StaffProps } from './form.view';
import type { ListState } from './list';

export { DataTable } from '../views/table';

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
        {list.total === 1 ? `1 ${noun[0]}` : `${list.total} ${noun[1]}`}
        {list.q ? ` ${list.total === 1 ? 'contém' : 'contêm'} “${list.q}”` : ''}
      </p>
    </form>
  );
}

/** Previous / next page links (keeping the filter); nothing when everything fits on one page. */
export function Pagination({ list }: { list: ListLinks & { page: number; pages: number } }) {
  return <PageLinks page={list.page} pages={list.pages} href={(page) => listHref(list, page)} />;
}

/** A staff list page's body: the "Novo …" button, the filter, the list itself and its pages. */
export function StaffList(p: {
  newHref: string;
  newLabel: string;
  filterLabel: string;
  list: ListLinks & { total: number; page: number; pages: number };
  children: ComponentChildren;
}) {
  return (
    <>
      <p>
        <a class="button" href={p.newHref}>
          {p.newLabel}
        </a>
      </p>
      <ListFilter list={p.list} label={p.filterLabel} />
      {p.children}
      <Pagination list={p.list} />
    </>
  );
}
