// The home page: featured plans, the search and its results, the units by city. A pure function of its props.
import { brand } from '../../brand/index';
import { Layout } from '../../views/layout';
import { formatBRL } from '../../lib/text';
import type { FeaturedPlans, SearchResultDetail } from './catalog.service';
import type { CatalogSnapshot } from './catalog.snapshot';
import {
  unitHref,
  surveyHref,
  UNITS_HREF,
  FRANCHISE_HREF,
  FREE_MESSAGE_HREF,
  PlanPrice,
  priceLabel,
  UnitsByCity,
} from './catalog.parts';
import { NearMeForm } from './unit-chooser.view';

export interface HomeProps {
  snapshot: Pick<CatalogSnapshot, 'cities' | 'units' | 'photosByUnit'>;
  featured?: FeaturedPlans;
  q: string;
  results: SearchResultDetail[] | null;
  error: string | null;
}

export function HomePage({ snapshot, featured, q, results, error }: HomeProps) {
  const b = brand();
  const unitCount = snapshot.units.length;
  const cityCount = snapshot.cities.length;
  return (
    <Layout
      title={b.name}
      description={
        `Encontre a unidade da ${b.name} mais perto de você: ` +
        'planos, aulas, horários e acesso por plataforma de benefício.'
      }
      scripts={['search.js', 'near-me.js']}
      canonical="/"
    >
      <section class="hero" aria-labelledby="busca-titulo">
        <p class="hero-kicker">{b.tagline}</p>
        <h1 id="busca-titulo">Encontre sua unidade</h1>
        <p class="hero-lead">
          {unitCount} {unitCount === 1 ? 'unidade' : 'unidades'} em {cityCount} {cityCount === 1 ? 'cidade' : 'cidades'}
          {featured?.fromCents != null ? (
            <>
              {' · '}planos a partir de <strong class="price-tag">{formatBRL(featured.fromCents)}/mês</strong>
            </>
          ) : null}
        </p>
        <form role="search" method="get" action="/" class="search-box" data-search>
          <label for="q">Busque por unidade, bairro, cidade, plano ou modalidade</label>
          <div class="search-row">
            <input
              type="search"
              id="q"
              name="q"
              value={q}
              maxLength={100}
              autoComplete="off"
              spellcheck={false}
              aria-describedby="q-dica"
            />
            <button type="submit">Buscar</button>
          </div>
          <p id="q-dica" class="hint">
            Digite pelo menos 2 letras. Ex.: “Pinheiros”, “Curitiba”, “Pilates”, “Piscina”.
          </p>
          <ul id="q-sugestoes" class="search-results" role="listbox" aria-label="Sugestões de busca" hidden />
          <p id="q-status" class="visually-hidden" role="status" aria-live="polite" />
        </form>
        <NearMeForm action={UNITS_HREF} label="Unidades perto de mim" />
      </section>

      {error ? (
        <div class="alert alert-error" role="alert">
          {error}
        </div>
      ) : null}
      {results ? <SearchResults q={q} results={results} /> : null}

      {featured?.plans.length ? (
        <section aria-labelledby="planos-destaque-titulo" class="featured-plans">
          <h2 id="planos-destaque-titulo">Planos</h2>
          <ul class="plan-list">
            {featured.plans.map((p) => (
              <li class="card plan-card" key={p.id}>
                <h3>{p.nome}</h3>
                <p class="price">
                  <strong>{priceLabel(p)}</strong>
                </p>
                {p.descricao ? <p>{p.descricao}</p> : null}
                <p class="muted">
                  Em {p.unitCount} {p.unitCount === 1 ? 'unidade' : 'unidades'}.{' '}
                  <a href={`/?q=${encodeURIComponent(p.nome)}#resultados`}>
                    Ver onde<span class="visually-hidden"> há o {p.nome}</span>
                  </a>
                </p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section id="unidades" aria-labelledby="unidades-titulo">
        <h2 id="unidades-titulo">Nossas unidades</h2>
        <p class="muted">
          {unitCount} {unitCount === 1 ? 'unidade' : 'unidades'} em {cityCount} {cityCount === 1 ? 'cidade' : 'cidades'}
          . <a href={UNITS_HREF}>Buscar por CEP ou cidade</a>
        </p>
        <UnitsByCity snapshot={snapshot} />
      </section>

      <section aria-labelledby="links-titulo" class="quick-links">
        <h2 id="links-titulo">Fale com a gente</h2>
        <ul class="link-cards">
          <li>
            <a href={surveyHref()}>Avalie sua unidade</a>
            <span class="muted"> Pesquisa de satisfação em 1 minuto.</span>
          </li>
          <li>
            <a href={FREE_MESSAGE_HREF}>Fale aqui</a>
            <span class="muted"> Elogios, sugestões e reclamações, com fotos.</span>
          </li>
          <li>
            <a href={FRANCHISE_HREF}>Seja um franqueado</a>
            <span class="muted"> Leve a {b.name} para a sua cidade.</span>
          </li>
        </ul>
      </section>
    </Layout>
  );
}

function SearchResults({ q, results }: { q: string; results: SearchResultDetail[] }) {
  return (
    <section id="resultados" aria-labelledby="resultados-titulo" class="card catalog-card">
      <h2 id="resultados-titulo">Resultados para “{q}”</h2>
      {results.length === 0 ? (
        <p>Nada encontrado. Tente o nome do bairro, da cidade ou do plano.</p>
      ) : (
        <>
          <p class="muted">
            {results.length} {results.length === 1 ? 'resultado' : 'resultados'}
          </p>
          <ul class="result-list">
            {results.map((r) =>
              r.item.tipo === 'unidade' ? (
                <li key={`u${r.item.id}`}>
                  <span class="badge">Unidade</span> <a href={unitHref(r.item.id)}>{r.item.nome}</a>{' '}
                  <span class="muted">{r.item.cidade}</span>
                </li>
              ) : (
                <li key={`p${r.item.id}`}>
                  <span class="badge">Plano</span> <strong>{r.item.nome}</strong>
                  {r.plan ? <PlanPrice plan={r.plan} /> : null}
                  {r.plan?.descricao ? <p>{r.plan.descricao}</p> : null}
                  {r.units && r.units.length > 0 ? (
                    <details>
                      <summary>
                        Disponível em {r.units.length} {r.units.length === 1 ? 'unidade' : 'unidades'}
                      </summary>
                      <ul class="unit-list">
                        {r.units.map((u) => (
                          <li key={u.id}>
                            <a href={unitHref(u.id)}>{u.nome}</a> <span class="muted">{u.cidade}</span>
                          </li>
                        ))}
                      </ul>
                    </details>
                  ) : (
                    <p class="muted">No momento, nenhuma unidade oferece este plano.</p>
                  )}
                </li>
              ),
            )}
          </ul>
        </>
      )}
    </section>
  );
}

// ---------------------------------------------------------------- unit page
