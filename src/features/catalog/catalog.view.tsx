// Public pages: pure functions of their props. Preact escapes every text and attribute.
import { brand } from '../../brand/index';
import { Layout } from '../../views/layout';
import { jsonForScript } from '../../views/render';
import { formatBRL } from '../../lib/text';
import { formatPhone as formatBrazilianPhone, normalizePhone, phoneDigits } from '../../lib/form/index';
import { WEEKDAYS } from '../../lib/time';
import { ctaHref } from '../cta/cta';
import type { UnitPhoto } from '../unit-photos/photos';
import { shareImagePath, UnitPhotoPicture } from '../unit-photos/picture.view';
import type { PlanRow, UnitSummaryRow } from './catalog.repository';
import {
  NEARBY_BENEFIT_KM,
  type CatalogSnapshot,
  type FeaturedPlans,
  type NearbyUnit,
  type PassPageData,
  type SearchResultDetail,
  type UnitPageData,
} from './catalog.service';
import { safeExternalUrl } from '../../lib/url';

const NEARBY_KM_LABEL = `${NEARBY_BENEFIT_KM} km`;
export const unitHref = (id: number) => `/Detalhes.php?id=${id}`;
export const passHref = (id: number) => `/pages/Pass/index.php?id=${id}`;
export const surveyHref = (id?: number) =>
  id ? `/NPS/nps_app_php/index.php?unidade_id=${id}` : '/NPS/nps_app_php/index.php';
export const freeMessageHref = (id?: number) =>
  id ? `/NPS/nps_app_php/fale_aqui.php?unidade=${id}` : '/NPS/nps_app_php/fale_aqui.php';
export const UNITS_HREF = '/unidades';
export const PRIVACY_HREF = '/privacidade';
export const FRANCHISE_HREF = '/pages/Franquia/index.php';
export const FREE_MESSAGE_HREF = '/NPS/nps_app_php/fale_aqui.php';

const PERIOD_LABEL: Record<string, string> = {
  mensal: 'por mês',
  trimestral: 'por trimestre',
  semestral: 'por semestre',
  anual: 'por ano',
};
const PERIOD_SHORT: Record<string, string> = {
  mensal: '/mês',
  trimestral: '/trimestre',
  semestral: '/semestre',
  anual: '/ano',
};
const SCHEMA_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Opening hours are listed Monday to Sunday, as Brazilian gyms print them. */
const HOURS_ORDER = [1, 2, 3, 4, 5, 6, 0];

export function mapHref(u: { endereco: string; bairro: string; cidade: string; uf: string }): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(
    `${u.endereco}, ${u.bairro}, ${u.cidade} - ${u.uf}`,
  )}`;
}

function linkDigits(value: string | null): string | null {
  const e164 = value ? normalizePhone(value) : null;
  return e164 ? phoneDigits(e164) : null;
}

function PlanPrice({ plan }: { plan: PlanRow }) {
  return (
    <p class="price">
      <strong>{formatBRL(plan.preco_centavos)}</strong>{' '}
      <span class="muted">{PERIOD_LABEL[plan.periodicidade] ?? plan.periodicidade}</span>
    </p>
  );
}

function BenefitLink({ unit }: { unit: UnitSummaryRow }) {
  if (!safeExternalUrl(unit.beneficio_url)) return null;
  return (
    <a href={passHref(unit.id)}>
      {unit.beneficio_nome ?? 'Benefício'}
      <span class="visually-hidden"> na unidade {unit.nome}</span>
    </a>
  );
}

// ---------------------------------------------------------------- shared pieces

/** "R$ 89,90/mês" */
export function priceLabel(plan: Pick<PlanRow, 'preco_centavos' | 'periodicidade'>): string {
  return `${formatBRL(plan.preco_centavos)}${PERIOD_SHORT[plan.periodicidade] ?? ` (${plan.periodicidade})`}`;
}

const kmFormat = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
/** "a 2,4 km" */
export function formatKm(km: number): string {
  return km < 1 ? 'a menos de 1 km' : `a ${kmFormat.format(km)} km`;
}

/** A card per unit: picture, name, where, how far, benefit. */
const CARD_SIZES = '(min-width: 60rem) 22rem, (min-width: 40rem) 45vw, 92vw';

export function UnitCard({
  unit,
  photo,
  distanceKm,
  headingLevel = 3,
}: {
  unit: UnitSummaryRow;
  photo?: UnitPhoto;
  distanceKm?: number | null;
  headingLevel?: 3 | 4;
}) {
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  return (
    <li class="unit-card">
      <UnitPhotoPicture photo={photo} sizes={CARD_SIZES} decorative />
      <div class="unit-card-body">
        <Heading class="unit-card-title">
          <a class="unit-name" href={unitHref(unit.id)}>
            {unit.nome}
          </a>
        </Heading>
        <p class="unit-sub">
          <span class="muted">
            {unit.bairro}, {unit.cidade} – {unit.uf}
          </span>
          {distanceKm !== undefined && distanceKm !== null ? (
            <strong class="distance"> · {formatKm(distanceKm)}</strong>
          ) : null}
        </p>
        {safeExternalUrl(unit.beneficio_url) ? (
          <p class="unit-sub">
            <BenefitLink unit={unit} />
          </p>
        ) : null}
      </div>
    </li>
  );
}

/** Every unit as a card, city by city (the home page and /unidades without a place). */
export function UnitsByCity({ snapshot }: { snapshot: Pick<CatalogSnapshot, 'cities' | 'photosByUnit'> }) {
  return (
    <>
      {snapshot.cities.map((city) => (
        <section class="city" key={`${city.cidade}-${city.uf}`} aria-label={`${city.cidade} – ${city.uf}`}>
          <h3 class="city-title">
            {city.cidade} – {city.uf}
          </h3>
          <ul class="unit-cards city-units">
            {city.units.map((u) => (
              <UnitCard unit={u} photo={snapshot.photosByUnit.get(u.id)?.[0]} key={u.id} headingLevel={4} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

// ---------------------------------------------------------------- home

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
        `Encontre a unidade da ${b.name} mais perto de você: planos, aulas, horários e acesso por ` +
        `plataforma de benefício.`
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
        <form method="get" action={UNITS_HREF} class="near-me" data-near-me>
          <button type="submit" class="button accent">
            Unidades perto de mim
          </button>
          <p class="near-me-status hint" role="status" aria-live="polite" data-near-me-status />
        </form>
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

function unitJsonLd(d: UnitPageData) {
  const u = d.unit;
  const phone = u.telefone ? normalizePhone(u.telefone) : null;
  return {
    '@context': 'https://schema.org',
    '@type': 'ExerciseGym',
    name: u.nome,
    ...(u.descricao ? { description: u.descricao } : {}),
    ...(phone ? { telephone: phone } : {}),
    ...(u.email ? { email: u.email } : {}),
    address: {
      '@type': 'PostalAddress',
      streetAddress: u.endereco,
      addressLocality: u.cidade,
      addressRegion: u.uf,
      ...(u.cep ? { postalCode: u.cep } : {}),
      addressCountry: 'BR',
    },
    ...(u.latitude !== null && u.longitude !== null
      ? { geo: { '@type': 'GeoCoordinates', latitude: u.latitude, longitude: u.longitude } }
      : {}),
    openingHoursSpecification: d.hours.map((h) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: `https://schema.org/${SCHEMA_DAYS[h.dia_semana]}`,
      opens: h.abre,
      closes: h.fecha,
    })),
  };
}

/** The two calls to action of a unit, in the page and in the phone's bottom bar. */
function UnitActions({ unit, place }: { unit: UnitPageData['unit']; place: 'page' | 'bar' }) {
  const enrol = data_enrolTarget(unit);
  return (
    <>
      {enrol ? (
        <a class="button cta-primary" href={ctaHref('matricula', unit.id)} rel="nofollow">
          Matricule-se{place === 'bar' ? null : <span class="visually-hidden"> na {unit.nome}</span>}
        </a>
      ) : null}
      <a class="button cta-secondary" href={ctaHref('aula_experimental', unit.id)} rel="nofollow">
        {place === 'bar' ? 'Aula experimental' : 'Agende uma aula experimental'}
      </a>
    </>
  );
}

/** "Matricule-se" needs a WhatsApp: the unit's, or the chain's (BRAND_WHATSAPP). */
function data_enrolTarget(unit: { whatsapp: string | null }): boolean {
  return Boolean(linkDigits(unit.whatsapp) ?? brand().whatsappDigits);
}

export function UnitPage({ data }: { data: UnitPageData }) {
  const u = data.unit;
  const description =
    `${u.nome}: academia em ${u.bairro}, ${u.cidade} – ${u.uf}. ` + 'Planos, horários, modalidades e grade de aulas.';
  const tel = linkDigits(u.telefone);
  const whats = linkDigits(u.whatsapp);
  const benefit = safeExternalUrl(u.beneficio_url);
  const canEnrol = data_enrolTarget(u);
  const head = [
    <script
      type="application/ld+json"
      key="ld"
      dangerouslySetInnerHTML={{ __html: jsonForScript(unitJsonLd(data)) }}
    />,
  ];
  const bar = (
    <nav class="bottom-bar" aria-label="Matrícula e aula experimental">
      <UnitActions unit={u} place="bar" />
    </nav>
  );
  return (
    <Layout
      title={u.nome}
      description={description}
      head={head}
      canonical={unitHref(u.id)}
      ogTitle={u.nome}
      image={shareImagePath(data.photos[0])}
      bottomBar={bar}
    >
      <nav aria-label="Trilha de navegação" class="breadcrumb">
        <a href="/">Início</a> › <a href={UNITS_HREF}>Unidades</a> › <span aria-current="page">{u.nome}</span>
      </nav>
      <div class="unit-top">
        <figure class="unit-hero">
          <UnitPhotoPicture photo={data.photos[0]} sizes="(min-width: 60rem) 36rem, 100vw" eager />
        </figure>
        <div class="unit-intro">
          <h1>{u.nome}</h1>
          <p class="unit-meta">
            <span class="muted">
              {u.bairro}, {u.cidade} – {u.uf}
            </span>{' '}
            <span class={data.openNow ? 'badge open' : 'badge closed'}>
              {data.openNow ? 'Aberta agora' : 'Fechada agora'}
            </span>
          </p>
          {u.descricao ? <p>{u.descricao}</p> : null}
          {data.plans.length ? (
            <p class="from-price">
              Planos a partir de <strong class="price-tag">{fromLabel(data.plans)}</strong>
            </p>
          ) : null}
          <div class="cta-group">
            <UnitActions unit={u} place="page" />
          </div>
          {benefit ? (
            <p class="cta-benefit">
              <a href={passHref(u.id)}>Treine aqui com {u.beneficio_nome ?? 'seu benefício'}</a>
            </p>
          ) : null}
        </div>
      </div>

      {data.photos.length > 1 ? (
        <div class="unit-photos">
          <h2 id="fotos-titulo" class="visually-hidden">
            Fotos da unidade
          </h2>
          {/* scrolls sideways inside its own box: focusable, so a keyboard can scroll it too */}
          <div class="photo-strip" tabIndex={0} role="region" aria-labelledby="fotos-titulo">
            <ul>
              {data.photos.slice(1).map((p) => (
                <li key={p.id}>
                  <UnitPhotoPicture photo={p} sizes="(min-width: 60rem) 18rem, 70vw" />
                </li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}

      <section id="planos" aria-labelledby="planos-titulo">
        <h2 id="planos-titulo">Planos</h2>
        {data.plans.length ? (
          <ul class="plan-list">
            {data.plans.map((p) => (
              <li class="card plan-card" key={p.id}>
                <h3>{p.nome}</h3>
                <PlanPrice plan={p} />
                {p.descricao ? <p>{p.descricao}</p> : null}
                {canEnrol ? (
                  <p class="plan-action">
                    <a class="button secondary" href={ctaHref('matricula', u.id, p.id)} rel="nofollow">
                      Quero este plano<span class="visually-hidden">: {p.nome}</span>
                    </a>
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p class="muted">Consulte os planos na recepção.</p>
        )}
      </section>

      <div class="grid">
        <section class="card catalog-card" aria-labelledby="contato-titulo">
          <h2 id="contato-titulo">Endereço e contato</h2>
          <address>
            {u.endereco}
            <br />
            {u.bairro}, {u.cidade} – {u.uf}
            {u.cep ? (
              <>
                <br />
                CEP {u.cep}
              </>
            ) : null}
          </address>
          <ul class="contact-links">
            <li>
              <a href={mapHref(u)} rel="noopener noreferrer">
                Ver no mapa
              </a>
            </li>
            {tel ? (
              <li>
                <a href={`tel:+${tel}`}>Ligar: {formatBrazilianPhone(`+${tel}`)}</a>
              </li>
            ) : null}
            {whats ? (
              <li>
                <a href={`https://wa.me/${whats}`} rel="noopener noreferrer">
                  WhatsApp: {formatBrazilianPhone(`+${whats}`)}
                </a>
              </li>
            ) : null}
            {u.email ? (
              <li>
                <a href={`mailto:${u.email}`}>{u.email}</a>
              </li>
            ) : null}
          </ul>
        </section>

        <section class="card catalog-card" aria-labelledby="horario-titulo">
          <h2 id="horario-titulo">Horário de funcionamento</h2>
          <table class="hours">
            <caption class="visually-hidden">Horário de funcionamento por dia da semana</caption>
            <tbody>
              {HOURS_ORDER.map((dia) => {
                const slots = data.hours.filter((h) => h.dia_semana === dia);
                return (
                  <tr key={dia} class={dia === data.today ? 'today' : undefined}>
                    <th scope="row">
                      {WEEKDAYS[dia]}
                      {dia === data.today ? ' (hoje)' : ''}
                    </th>
                    <td>{slots.length ? slots.map((h) => `${h.abre} às ${h.fecha}`).join(', ') : 'Fechado'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </section>
      </div>

      <div class="grid">
        <section aria-labelledby="areas-titulo">
          <h2 id="areas-titulo">Áreas</h2>
          {data.areas.length ? (
            <ul class="tags">
              {data.areas.map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ul>
          ) : (
            <p class="muted">Nenhuma área cadastrada.</p>
          )}
        </section>
        <section aria-labelledby="modalidades-titulo">
          <h2 id="modalidades-titulo">Modalidades</h2>
          {data.modalities.length ? (
            <ul class="tags">
              {data.modalities.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          ) : (
            <p class="muted">Nenhuma modalidade cadastrada.</p>
          )}
        </section>
      </div>

      <section aria-labelledby="grade-titulo">
        <h2 id="grade-titulo">Grade de aulas</h2>
        <p class="muted">A partir de hoje, {WEEKDAYS[data.today]?.toLowerCase()}.</p>
        <div class="timetable">
          {data.timetable.map((day) => (
            <section
              class={day.dia_semana === data.today ? 'timetable-day today' : 'timetable-day'}
              key={day.dia_semana}
              aria-labelledby={`dia-${day.dia_semana}`}
            >
              <h3 id={`dia-${day.dia_semana}`}>
                {WEEKDAYS[day.dia_semana]}
                {day.dia_semana === data.today ? ' (hoje)' : ''}
              </h3>
              {day.classes.length ? (
                <ul>
                  {day.classes.map((c, i) => (
                    <li key={i}>
                      <span class="time">
                        {c.inicio}–{c.fim}
                      </span>{' '}
                      <strong>{c.modalidade}</strong>
                      {c.professor || c.sala ? (
                        <span class="muted"> · {[c.professor, c.sala].filter(Boolean).join(' · ')}</span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="muted">Sem aulas neste dia.</p>
              )}
            </section>
          ))}
        </div>
      </section>

      <section aria-labelledby="opiniao-titulo" class="card catalog-card">
        <h2 id="opiniao-titulo">Sua opinião</h2>
        <ul class="contact-links">
          <li>
            <a href={surveyHref(u.id)}>Avalie esta unidade</a>
          </li>
          <li>
            <a href={freeMessageHref(u.id)}>Fale aqui: elogios, sugestões e reclamações</a>
          </li>
        </ul>
      </section>
    </Layout>
  );
}

/** The lowest monthly price, or the first plan's price when none is monthly. */
function fromLabel(plans: PlanRow[]): string {
  const monthly = plans.filter((p) => p.periodicidade === 'mensal');
  const pick = (monthly.length ? monthly : plans).reduce((a, b) => (b.preco_centavos < a.preco_centavos ? b : a));
  return priceLabel(pick);
}

// ---------------------------------------------------------------- Pass page

export function PassPage({ data }: { data: PassPageData }) {
  const u = data.unit;
  const url = safeExternalUrl(u.beneficio_url);
  const platform = u.beneficio_nome ?? 'plataforma de benefício';
  const title = url ? `${u.nome} com ${platform}` : `${u.nome}: acesso por benefício`;
  const description = url
    ? `Treine na ${u.nome} (${u.bairro}, ${u.cidade}) usando o seu benefício ${platform}.`
    : `A ${u.nome} ainda não aceita plataformas de benefício. Veja unidades próximas que aceitam.`;
  return (
    <Layout title={title} description={description} canonical={passHref(u.id)} ogTitle={title}>
      <nav aria-label="Trilha de navegação" class="breadcrumb">
        <a href="/">Início</a> › <a href={unitHref(u.id)}>{u.nome}</a> › <span aria-current="page">Benefício</span>
      </nav>
      <h1>{title}</h1>
      <p class="muted">
        {u.endereco} · {u.bairro}, {u.cidade} – {u.uf}
      </p>
      {url ? (
        <section class="card catalog-card pass-cta" aria-labelledby="pass-titulo">
          <h2 id="pass-titulo">Use o seu benefício</h2>
          <p>
            Se a sua empresa oferece {platform}, você pode treinar na {u.nome} sem pagar mensalidade: faça o check-in
            pelo aplicativo.
          </p>
          <p>
            <a
              class="button cta-button"
              href={ctaHref('beneficio', u.id)}
              rel="noopener noreferrer nofollow"
              target="_blank"
            >
              Acessar {platform}
              <span class="visually-hidden"> (abre em nova aba)</span>
            </a>
          </p>
          <p class="muted">
            Você vai para o site da {platform}, que não pertence à {brand().name}.
          </p>
        </section>
      ) : (
        <section class="card catalog-card" aria-labelledby="sem-beneficio-titulo">
          <h2 id="sem-beneficio-titulo">Esta unidade ainda não aceita benefício</h2>
          <p>
            A {u.nome} ainda não tem parceria com plataformas de benefício. Você pode conhecer os{' '}
            <a href={unitHref(u.id)}>planos da unidade</a>
            {data.nearby.length ? ' ou usar o seu benefício numa unidade próxima:' : '.'}
          </p>
          <NearbyList units={data.nearby} />
        </section>
      )}
      <p>
        <a href={unitHref(u.id)}>Ver endereço, horários e aulas da {u.nome}</a>
      </p>
    </Layout>
  );
}

function NearbyList({ units }: { units: NearbyUnit[] }) {
  if (!units.length) {
    return (
      <p class="muted">
        Nenhuma unidade com benefício fica perto desta (até {NEARBY_KM_LABEL}).{' '}
        <a href={UNITS_HREF}>Veja todas as unidades</a>.
      </p>
    );
  }
  return (
    <ul class="unit-list nearby">
      {units.map((n) => (
        <li key={n.id}>
          <a href={passHref(n.id)}>
            {n.nome} com {n.beneficio_nome ?? 'benefício'}
          </a>{' '}
          <span class="muted">
            {n.bairro}, {n.cidade} – {n.uf}
            {n.distanceKm !== null ? ` · ${formatKm(n.distanceKm)}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
