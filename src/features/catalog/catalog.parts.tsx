// Pieces the public pages share: addresses, prices, unit cards. Preact escapes every text and attribute.
import { formatBRL } from '../../lib/text';
import type { UnitPhoto } from '../unit-photos/photos';
import { UnitPhotoPicture } from '../unit-photos/picture.view';
import type { PlanRow, UnitSummaryRow } from './catalog.repository';
import type { CatalogSnapshot } from './catalog.snapshot';
import { safeExternalUrl } from '../../lib/url';

export const unitHref = (id: number) => `/Detalhes.php?id=${id}`;
export const passHref = (id: number) => `/pages/Pass/index.php?id=${id}`;
export const surveyHref = (id?: number) =>
  id ? `/NPS/nps_app_php/index.php?unidade_id=${id}` : '/NPS/nps_app_php/index.php';
export const freeMessageHref = (id?: number) =>
  id ? `/NPS/nps_app_php/fale_aqui.php?unidade=${id}` : '/NPS/nps_app_php/fale_aqui.php';
export const UNITS_HREF = '/unidades';
export const FRANCHISE_HREF = '/pages/Franquia/index.php';
export const FREE_MESSAGE_HREF = '/NPS/nps_app_php/fale_aqui.php';

/** How a plan's period reads after its price: in words ("por mês") and short ("/mês"). */
const PERIODS: Record<string, { words: string; short: string }> = {
  mensal: { words: 'por mês', short: '/mês' },
  trimestral: { words: 'por trimestre', short: '/trimestre' },
  semestral: { words: 'por semestre', short: '/semestre' },
  anual: { words: 'por ano', short: '/ano' },
};

export function PlanPrice({ plan }: { plan: PlanRow }) {
  return (
    <p class="price">
      <strong>{formatBRL(plan.preco_centavos)}</strong>{' '}
      <span class="muted">{PERIODS[plan.periodicidade]?.words ?? plan.periodicidade}</span>
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
  return `${formatBRL(plan.preco_centavos)}${PERIODS[plan.periodicidade]?.short ?? ` (${plan.periodicidade})`}`;
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

/** "R$ 99,90 por mês": the lowest monthly price of `plans` (the lowest of any period without a monthly one). */
export function fromLabel(plans: PlanRow[]): string {
  const monthly = plans.filter((p) => p.periodicidade === 'mensal');
  const pick = (monthly.length ? monthly : plans).reduce((a, b) => (b.preco_centavos < a.preco_centavos ? b : a));
  return priceLabel(pick);
}
