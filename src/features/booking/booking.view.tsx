// Public pages of trial-class booking: the form and the thanks page. Pure functions of props.
import type { ComponentChildren } from 'preact';
import { Layout, LinkList } from '../../views/layout';
import { bindFields, ErrorSummary, errorId, FieldMessage, TextField } from '../../views/form';
import { formatPhone as formatBrazilianPhone } from '../../lib/form/index';
import {
  addressOf,
  CONSENT_VALUE,
  LIMITS,
  mapUrl,
  timeOf,
  whenLabel,
  type Booking,
  type BookingErrors,
  type BookingUnit,
  type BookingValues,
  type OfferedDay,
  type OfferedSlot,
} from './booking.service';
import { whatsappHref } from '../../brand/index';
import { type ChooserProps, UnitChooserFrame } from '../catalog/unit-chooser.view';
import { ConsentCheckbox } from '../privacy/consent.view';

export const FORM_PATH = '/aula-experimental';

const LABELS: Record<keyof BookingErrors, string> = {
  vaga: 'Dia e horário',
  nome: 'Nome',
  whatsapp: 'WhatsApp',
  email: 'E-mail (opcional)',
  aceita_contato: 'Autorização de contato',
};

export interface BookingFormProps {
  unit: BookingUnit;
  days: OfferedDay[];
  csrfToken: string;
  envioId: string;
  values?: BookingValues;
  errors?: BookingErrors;
  /** a message above the form, e.g. the slot that just filled up */
  notice?: string;
  /** RETENTION_BOOKINGS_MONTHS: what the form promises is what the retention job does */
  retentionMonths: number;
}

/**
 * /aula-experimental without a unit: every active unit, each a link to its booking form;
 * nearest first when the visitor shares a location (the catalog's chooser, as on /unidades).
 */
export function UnitChooserPage(props: ChooserProps) {
  return (
    <UnitChooserFrame
      title="Aula experimental"
      description="Escolha a unidade e agende uma aula experimental grátis."
      action={FORM_PATH}
      {...props}
      empty="Nenhuma unidade recebe agendamentos no momento."
    >
      <h1>Agende uma aula experimental grátis</h1>
      <p>Em qual unidade você quer treinar? Escolha abaixo para ver os dias e horários livres.</p>
    </UnitChooserFrame>
  );
}

interface TextInput {
  name: 'nome' | 'whatsapp' | 'email';
  type: string;
  hint?: string;
  autocomplete: string;
  required?: boolean;
  maxLength: number;
}

/** A text field of the form, labelled from LABELS (the form kit's field). */
function BookingTextField(props: TextInput & { value?: string; error?: string }) {
  return <TextField {...props} label={LABELS[props.name]} inputMode={props.type === 'tel' ? 'tel' : undefined} />;
}

/** The form's text fields in order; their values and messages come by name. */
const TEXT_INPUTS: TextInput[] = [
  { name: 'nome', type: 'text', autocomplete: 'name', required: true, maxLength: LIMITS.nome },
  {
    name: 'whatsapp',
    type: 'tel',
    hint: 'Com DDD, por exemplo (11) 98765-4321. A unidade confirma a aula por ele.',
    autocomplete: 'tel-national',
    required: true,
    maxLength: LIMITS.whatsapp,
  },
  {
    name: 'email',
    type: 'email',
    hint: 'Se informar, enviamos a confirmação e um lembrete na véspera.',
    autocomplete: 'email',
    maxLength: LIMITS.email,
  },
];

function SlotPicker({ days, value, error }: { days: OfferedDay[]; value?: string; error?: string }) {
  const any = days.some((d) => d.slots.length);
  let first = true;
  /** One slot: its radio and its text; the first of the page carries the id the error summary links to. */
  const slot = (s: OfferedSlot, cls: string | undefined, text: ComponentChildren) => {
    const id = first ? 'vaga' : undefined;
    first = false;
    return (
      <li key={s.value}>
        <label class={cls}>
          <input
            type="radio"
            name="vaga"
            value={s.value}
            id={id}
            checked={value === s.value}
            required
            aria-invalid={error ? 'true' : undefined}
          />
          {text}
        </label>
      </li>
    );
  };
  return (
    <fieldset id="vaga-grupo" aria-describedby={error ? errorId('vaga') : undefined}>
      <legend>{LABELS.vaga}</legend>
      <FieldMessage id="vaga" message={error} />
      {!any ? <p>Não há horários disponíveis nos próximos 7 dias. Fale com a unidade pelo WhatsApp.</p> : null}
      {days.map((d) => {
        const classes = d.slots.filter((s) => s.kind === 'aula');
        const free = d.slots.filter((s) => s.kind === 'livre');
        return (
          <fieldset class="booking-day" key={d.day}>
            <legend>{d.label}</legend>
            {!d.slots.length ? <p class="muted">Sem horários disponíveis neste dia.</p> : null}
            {classes.length ? (
              <ul class="slot-list">
                {classes.map((s) =>
                  slot(
                    s,
                    'choice',
                    <span>
                      <strong>
                        {s.inicio}–{s.fim} · {s.atividade}
                      </strong>
                      <span class="slot-meta">
                        {[s.professor, s.sala].filter(Boolean).join(' · ')}
                        {s.professor || s.sala ? ' · ' : ''}
                        {s.remaining === 1 ? '1 vaga' : `${s.remaining} vagas`}
                      </span>
                    </span>,
                  ),
                )}
              </ul>
            ) : null}
            {free.length ? (
              <>
                <p class="slot-free-title">Treino livre (musculação e cardio, 1 hora)</p>
                <ul class="slot-chips">
                  {free.map((s) =>
                    slot(
                      s,
                      undefined,
                      <span>
                        {s.inicio}
                        <span class="visually-hidden"> treino livre, {d.label}</span>
                      </span>,
                    ),
                  )}
                </ul>
              </>
            ) : null}
          </fieldset>
        );
      })}
    </fieldset>
  );
}

export function BookingFormPage({
  unit,
  days,
  csrfToken,
  envioId,
  values = {},
  errors = {},
  notice,
  retentionMonths,
}: BookingFormProps) {
  const field = bindFields(values, errors);
  return (
    <Layout
      title={`Aula experimental · ${unit.nome}`}
      description={`Agende uma aula experimental grátis na unidade ${unit.nome}.`}
      scripts={['envio-fresh.js']}
    >
      <p class="breadcrumb">
        <a href={`/Detalhes.php?id=${unit.id}`}>{unit.nome}</a> › Aula experimental
      </p>
      <h1>Agende uma aula experimental</h1>
      <p>
        Grátis, na unidade <strong>{unit.nome}</strong> ({addressOf(unit)}). Escolha uma aula da grade ou um horário de
        treino livre nos próximos 7 dias.
      </p>
      {notice ? (
        <div class="alert alert-error" role="alert">
          <p>{notice}</p>
        </div>
      ) : null}
      <ErrorSummary errors={errors as Record<string, string>} labels={LABELS} />
      <form method="post" action={`${FORM_PATH}?unidade=${unit.id}`} novalidate class="booking-form card">
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <input type="hidden" name="envio_id" value={envioId} />
        <input type="hidden" name="unidade" value={String(unit.id)} />
        <SlotPicker days={days} value={values.vaga} error={errors.vaga} />
        {TEXT_INPUTS.map((input) => (
          <BookingTextField key={input.name} {...input} {...field(input.name)} />
        ))}
        <div class="field">
          <ConsentCheckbox
            purpose="aula_experimental"
            name="aceita_contato"
            value={CONSENT_VALUE}
            values={values}
            required
            error={errors.aceita_contato}
          />
        </div>
        <p class="hint">
          Seus dados são usados só para esta aula e apagados (anonimizados) {retentionMonths} meses depois. Veja a{' '}
          <a href="/privacidade">política de privacidade</a>.
        </p>
        <p>
          <button type="submit">Agendar aula experimental</button>
        </p>
      </form>
    </Layout>
  );
}

export function whatsappLink(phone: string, text: string): string {
  return whatsappHref(phone.replace(/\D/g, ''), text);
}

export function ThanksPage({ booking, unit, brandName }: { booking: Booking; unit: BookingUnit; brandName: string }) {
  const contact = unit.whatsapp ?? unit.telefone;
  const when = whenLabel(booking);
  return (
    <Layout title="Aula experimental agendada">
      <section class="card">
        <h1>Aula experimental agendada!</h1>
        <p>Esperamos você. Chegue 10 minutos antes, com roupa confortável, tênis e uma garrafa de água.</p>
        <dl class="booking-summary">
          <dt>Atividade</dt>
          <dd>{booking.atividade}</dd>
          <dt>Quando</dt>
          <dd>
            {when} até {timeOf(booking.fim_em)} (horário de Brasília)
          </dd>
          <dt>Unidade</dt>
          <dd>
            {brandName} · {unit.nome}
          </dd>
          <dt>Endereço</dt>
          <dd>{addressOf(unit)}</dd>
        </dl>
        <LinkList
          class="contact-links"
          links={[
            { href: mapUrl(unit), label: 'Ver no mapa', external: true },
            {
              href: `${FORM_PATH}/confirmada/${booking.codigo}/agenda.ics`,
              label: 'Adicionar à agenda (.ics)',
              download: 'aula-experimental.ics',
            },
            contact
              ? {
                  href: whatsappLink(
                    contact,
                    `Olá! Agendei uma aula experimental pelo site: ${booking.atividade}, ${when}.`,
                  ),
                  label: `Falar com a unidade no WhatsApp: ${formatBrazilianPhone(contact)}`,
                  external: true,
                }
              : null,
          ]}
        />
        {booking.email ? <p class="hint">Enviamos a confirmação para o seu e-mail e um lembrete na véspera.</p> : null}
        <p>
          <a class="button secondary" href={`/Detalhes.php?id=${unit.id}`}>
            Voltar para a unidade
          </a>
        </p>
      </section>
    </Layout>
  );
}
