// Pieces shared by the staff feedback pages (survey results and the messages inbox).
import type { LayoutProps } from '../../views/layout';
import { compareText } from '../../lib/text';

export type StaffProps = LayoutProps['staff'];

/**
 * The "Unidade" filter: only the units this staff member may see, grouped by city (a chain repeats unit names across
 * cities).
 */
export function UnitFilter({
  units,
  selected,
}: {
  units: { id: number; nome: string; cidade?: string; uf?: string }[];
  selected: string;
}) {
  const option = (u: { id: number; nome: string }) => (
    <option value={String(u.id)} selected={selected === String(u.id)} key={u.id}>
      {u.nome}
    </option>
  );
  const byCity = new Map<string, { id: number; nome: string }[]>();
  for (const u of units) {
    // by city and state: a city's name repeats across states
    const city = u.cidade ? (u.uf ? `${u.cidade}/${u.uf}` : u.cidade) : '';
    const list = byCity.get(city);
    if (list) list.push(u);
    else byCity.set(city, [u]);
  }
  const grouped = byCity.size > 1 && !byCity.has('');
  return (
    <div>
      <label for="f-unidade">Unidade</label>
      <select id="f-unidade" name="unidade_id">
        <option value="">Todas as minhas unidades</option>
        {grouped
          ? [...byCity]
              .sort(([a], [b]) => compareText(a, b))
              .map(([cidade, list]) => (
                <optgroup label={cidade} key={cidade}>
                  {list.sort((a, b) => compareText(a.nome, b.nome) || a.id - b.id).map(option)}
                </optgroup>
              ))
          : units.map(option)}
      </select>
    </div>
  );
}

/** A filter's `<select>` with "Todas" first (no filter). */
export function ChoiceFilter(p: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  selected: string | undefined;
}) {
  return (
    <div>
      <label for={`f-${p.name}`}>{p.label}</label>
      <select id={`f-${p.name}`} name={p.name}>
        <option value="">Todas</option>
        {p.options.map((o) => (
          <option value={o.value} selected={p.selected === o.value} key={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The filter form's buttons: apply, and the CSV export of the same filters. */
export function FilterActions({ csvHref }: { csvHref: string }) {
  return (
    <p>
      <button type="submit">Filtrar</button> <a href={csvHref}>Exportar CSV</a>
    </p>
  );
}
