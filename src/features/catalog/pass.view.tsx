// The Pass page: a unit's benefit link, or the nearest units that have one. A pure function of its props.
import { brand } from '../../brand/index';
import { Layout } from '../../views/layout';
import { ctaHref } from '../cta/cta';
import type { PassPageData } from './catalog.service';
import { NEARBY_BENEFIT_KM, type NearbyUnit } from './catalog.geo';
import { safeExternalUrl } from '../../lib/url';
import { unitHref, passHref, UNITS_HREF, formatKm } from './catalog.parts';

const NEARBY_KM_LABEL = `${NEARBY_BENEFIT_KM} km`;

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
