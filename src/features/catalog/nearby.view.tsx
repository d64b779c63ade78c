// /unidades: every active unit by city, or the nearest to a point, CEP or city.
import { Layout } from '../../views/layout';
import type { CatalogSnapshot } from './catalog.snapshot';
import { UnitCard, UnitsByCity } from './catalog.parts';
import type { NearOutcome, NearQuery } from './nearby';

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
        <form method="get" action="/unidades" class="near-me" data-near-me>
          <button type="submit" class="button accent">
            Usar minha localização
          </button>
          <p class="near-me-status hint" role="status" aria-live="polite" data-near-me-status />
        </form>
        <form method="get" action="/unidades" class="place-form" novalidate>
          <div class="place-fields">
            <div>
              <label for="cep">CEP</label>
              <input
                type="text"
                id="cep"
                name="cep"
                inputMode="numeric"
                autoComplete="postal-code"
                maxLength={9}
                value={query.cep ?? ''}
                aria-invalid={cepError ? 'true' : undefined}
                aria-describedby={cepError ? 'cep-erro' : 'cep-dica'}
              />
              {cepError ? (
                <p class="field-error" id="cep-erro">
                  {cepError}
                </p>
              ) : (
                <p class="hint" id="cep-dica">
                  Ex.: 05422-001
                </p>
              )}
            </div>
            <p class="or">ou</p>
            <div>
              <label for="cidade">Cidade</label>
              <input
                type="text"
                id="cidade"
                name="cidade"
                autoComplete="address-level2"
                maxLength={80}
                value={query.cidade ?? ''}
                aria-invalid={cityError ? 'true' : undefined}
                aria-describedby={cityError ? 'cidade-erro' : undefined}
              />
              {cityError ? (
                <p class="field-error" id="cidade-erro">
                  {cityError}
                </p>
              ) : null}
            </div>
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
