// The unit page (/Detalhes.php): hours, timetable, plans, photos, contacts. A pure function of its props.
import { brand } from '../../brand/index';
import { Layout, LinkList } from '../../views/layout';
import { jsonForScript } from '../../views/render';
import { formatPhone as formatBrazilianPhone, normalizePhone, phoneDigits } from '../../lib/form/index';
import { WEEKDAYS } from '../../lib/time';
import { ctaHref } from '../cta/cta';
import { shareImagePath, UnitPhotoPicture } from '../unit-photos/picture.view';
import type { UnitPageData } from './catalog.service';
import { safeExternalUrl } from '../../lib/url';
import { unitHref, passHref, surveyHref, freeMessageHref, UNITS_HREF, PlanPrice, fromLabel } from './catalog.parts';

const SCHEMA_DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Opening hours are listed Monday to Sunday, as Brazilian gyms print them. */
const HOURS_ORDER = [1, 2, 3, 4, 5, 6, 0];

function mapHref(u: { endereco: string; bairro: string; cidade: string; uf: string }): string {
  const place = `${u.endereco}, ${u.bairro}, ${u.cidade} - ${u.uf}`;
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(place)}`;
}

function linkDigits(value: string | null): string | null {
  const e164 = value ? normalizePhone(value) : null;
  return e164 ? phoneDigits(e164) : null;
}

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
          <LinkList
            class="contact-links"
            links={[
              { href: mapHref(u), label: 'Ver no mapa', external: true },
              tel ? { href: `tel:+${tel}`, label: `Ligar: ${formatBrazilianPhone(`+${tel}`)}` } : null,
              whats
                ? {
                    href: `https://wa.me/${whats}`,
                    label: `WhatsApp: ${formatBrazilianPhone(`+${whats}`)}`,
                    external: true,
                  }
                : null,
              u.email ? { href: `mailto:${u.email}`, label: u.email } : null,
            ]}
          />
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
        <LinkList
          class="contact-links"
          links={[
            { href: surveyHref(u.id), label: 'Avalie esta unidade' },
            { href: freeMessageHref(u.id), label: 'Fale aqui: elogios, sugestões e reclamações' },
          ]}
        />
      </section>
    </Layout>
  );
}

/** The lowest monthly price, or the first plan's price when none is monthly. */
