// /unidades: every active unit by city, or the nearest to a point, CEP or city.
import { FieldMessage, fieldAria, hintId } from '../../views/form';
import { Layout } from '../../views/layout';
import type { CatalogSnapshot } from './catalog.snapshot';
import { UnitCard, UnitsByCity } from './catalog.parts';
import type { NearOutcome, NearQuery } from './nearby';
import { NearMeForm } from './unit-chooser.view';

/** A way to name a place: a CEP or a city, each a field of the place form. */
interface PlaceInput {
  name: 'cep' | 'cidade';
  label: string;
  inputMode?: 'numeric';
  autoComplete: string;
  maxLength: number;
  /** an example, shown while the field has no message */
  example?: string;
}

const CEP_FIELD: PlaceInput = {
  name: 'cep',
  label: 'CEP',
  inputMode: 'numeric',
  autoComplete: 'postal-code',
  maxLength: 9,
  example: 'Ex.: 05422-001',
};
const CITY_FIELD: PlaceInput = { name: 'cidade', label: 'Cidade', autoComplete: 'address-level2', maxLength: 80 };

/** One field of the place form; its message takes the example's place. */
function PlaceField({ field, value, error }: { field: PlaceInput; value?: string; error?: string }) {
  const showExample = Boolean(field.example) && !error;
  return (
    <div>
      <label for={field.name}>{field.label}</label>
      <input
        type="text"
        id={field.name}
        name={field.name}
        inputMode={field.inputMode}
        autoComplete={field.autoComplete}
        maxLength={field.maxLength}
        value={value ?? ''}
        {...fieldAria(field.name, error, showExample)}
      />
      {showExample ? (
        <p class="hint" id={hintId(field.name)}>
          {field.example}
        </p>
      ) : (
        <FieldMessage id={field.name} message={error} />
      )}
    </div>
  );
}

export function UnitsPage({
  snapshot,
  query,
  outcome,
}: {
  snapshot: Pick<CatalogSnapshot, 'cities' | 'units' | 'photosByUnit'>;
  query: NearQuery;
  outcome: NearOutcome;
}) {
  const error = outcome.kind === 'invalid' || outcome.kind === 'unknown' ? outcome : null;
  const cepError = error?.field === 'cep' ? error.message : undefined;
  const cityError = error?.field === 'cidade' ? error.message : undefined;
  return (
    <Layout
      title={outcome.kind === 'near' ? `Unidades perto de ${outcome.label}` : 'Unidades'}
      description="Todas as unidades por cidade, e as mais perto de você por CEP, cidade ou localização."
      scripts={['near-me.js']}
      canonical="/unidades"
    >
      <nav aria-label="Trilha de navegação" class="breadcrumb">
        <a href="/">Início</a> › <span aria-current="page">Unidades</span>
      </nav>
      <h1>{outcome.kind === 'near' ? `Unidades perto de ${outcome.label}` : 'Unidades'}</h1>
      {error?.field === 'lat' ? (
        <div class="alert alert-error" role="alert">
          Não foi possível usar essa localização. {error.message}
        </div>
      ) : null}
      <section class="card find-place" aria-labelledby="buscar-local-titulo">
        <h2 id="buscar-local-titulo">Encontre a mais perto</h2>
        <NearMeForm action="/unidades" label="Usar minha localização" />
        <form method="get" action="/unidades" class="place-form" novalidate>
          <div class="place-fields">
            <PlaceField field={CEP_FIELD} value={query.cep} error={cepError} />
            <p class="or">ou</p>
            <PlaceField field={CITY_FIELD} value={query.cidade} error={cityError} />
          </div>
          <button type="submit">Buscar unidades</button>
        </form>
      </section>

      {outcome.kind === 'near' ? (
        <section aria-labelledby="perto-titulo">
          <h2 id="perto-titulo">Mais perto primeiro</h2>
          <ol class="unit-cards near-list">
            {outcome.units.map((u) => (
              <UnitCard unit={u} photo={snapshot.photosByUnit.get(u.id)?.[0]} distanceKm={u.distanceKm} key={u.id} />
            ))}
          </ol>
        </section>
      ) : (
        <section aria-labelledby="cidades-titulo">
          <h2 id="cidades-titulo">Por cidade</h2>
          <UnitsByCity snapshot={snapshot} />
        </section>
      )}
    </Layout>
  );
}
