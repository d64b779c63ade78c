// The unit chooser of the pages that start at a unit (trial class, online enrolment): the
// "nearest to me" button (src/client/near-me.ts, as on /unidades) and one link per unit, by
// name or nearest first. Works without JavaScript. Each page keeps its own title and words.
import type { ComponentChildren } from 'preact';
import { formatKm } from './catalog.parts';

/** A unit the chooser lists, with its distance when the visitor gave a location. */
export interface ChooserUnit {
  id: number;
  nome: string;
  bairro: string;
  cidade: string;
  uf: string;
  distanceKm?: number | null;
}

export function UnitChooser(props: {
  /** the page's path: the form asks it again with lat/lng, each unit links to it with ?unidade= */
  action: string;
  units: ChooserUnit[];
  near: boolean;
  error?: string;
  /** what the page says when no unit is listed */
  empty: ComponentChildren;
}) {
  const { action, units, near, error } = props;
  return (
    <>
      {error ? (
        <div class="alert alert-error" role="alert">
          <p>Não foi possível usar essa localização. {error}</p>
        </div>
      ) : null}
      <form
        method="get"
        action={action}
        class="near-me"
        data-near-me
        data-near-me-error="Não foi possível usar a sua localização. Escolha a unidade na lista."
      >
        <button type="submit" class="button accent">
          Ver as mais perto de mim
        </button>
        <p class="near-me-status hint" role="status" aria-live="polite" data-near-me-status />
      </form>
      <h2>{near ? 'Unidades mais perto primeiro' : 'Unidades'}</h2>
      {units.length ? (
        <ul class="unit-choices">
          {units.map((u) => (
            <li key={u.id}>
              <a class="button secondary big-button" href={`${action}?unidade=${u.id}`}>
                {u.nome}{' '}
                <span class="hint">
                  · {u.bairro ? `${u.bairro}, ` : ''}
                  {u.cidade} – {u.uf}
                  {typeof u.distanceKm === 'number' ? ` · ${formatKm(u.distanceKm)}` : ''}
                </span>
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p>{props.empty}</p>
      )}
    </>
  );
}
