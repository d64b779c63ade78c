// The unit chooser of the pages that start at a unit (trial class, online enrolment): the
// "nearest to me" button (src/client/near-me.ts, as on /unidades) and one link per unit, by
// name or nearest first. Works without JavaScript. Each page keeps its own title and words.
import type { ComponentChildren } from 'preact';
import { Layout } from '../../views/layout';
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

/** What a page hands its chooser: the units and what the visitor asked for. */
export interface ChooserProps {
  units: ChooserUnit[];
  near: boolean;
  error?: string;
}

/** The "nearest to me" button: src/client/near-me.ts adds the visitor's location and sends the form. */
export function NearMeForm(p: { action: string; label: string; error?: string }) {
  return (
    <form method="get" action={p.action} class="near-me" data-near-me data-near-me-error={p.error}>
      <button type="submit" class="button accent">
        {p.label}
      </button>
      <p class="near-me-status hint" role="status" aria-live="polite" data-near-me-status />
    </form>
  );
}

export function UnitChooser(
  props: ChooserProps & {
    /** the page's path: the form asks it again with lat/lng, each unit links to it with ?unidade= */
    action: string;
    /** what the page says when no unit is listed */
    empty: ComponentChildren;
  },
) {
  const { action, units, near, error } = props;
  return (
    <>
      {error ? (
        <div class="alert alert-error" role="alert">
          <p>Não foi possível usar essa localização. {error}</p>
        </div>
      ) : null}
      <NearMeForm
        action={action}
        label="Ver as mais perto de mim"
        error="Não foi possível usar a sua localização. Escolha a unidade na lista."
      />
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

/** A page that starts at a unit: its own words (`children`), then the chooser, on the page's path. */
export function UnitChooserFrame(
  p: ChooserProps & {
    title: string;
    description: string;
    action: string;
    empty: ComponentChildren;
    children: ComponentChildren;
  },
) {
  return (
    <Layout title={p.title} description={p.description} scripts={['near-me.js']} canonical={p.action}>
      {p.children}
      <UnitChooser action={p.action} units={p.units} near={p.near} error={p.error} empty={p.empty} />
    </Layout>
  );
}
