// Rules of trial-class booking: which slots are offered, validating a request, booking it
// under the capacity and one-future-booking rules, and the confirmation mail. Never sees HTTP.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Transactional } from '../../db/transactional';
import {
  echoFields,
  EMAIL_MAX,
  EMAIL_MESSAGE,
  formatPhone as formatBrazilianPhone,
  newEnvioId,
  oneLine,
  parseEmail,
  parsePhone,
  PHONE_MAX,
  rawString,
  readEnvioId,
  takeFields,
  type FieldErrors,
} from '../../lib/form/index';
import { formatTime } from '../../lib/time';
import { enqueueMail } from '../../platform/mail/outbox.repository';
import { emitWebhook } from '../../platform/webhooks/webhooks.repository';
import { contentKey, type EnvioKey, fingerprintOf, staleBefore, storeOnce } from '../../platform/envio/index';
import { bookingEventData } from './webhook-events';

import type { Booking, BookingRepository, BookingUnit } from './booking.repository';
import {
  CONSENT_CHANNEL_FIELD,
  CONSENT_VERSION_FIELD,
  postedConsentVersion,
  readConsentChannel,
} from '../privacy/consent';
import { recordConsent } from '../privacy/consent.repository';

export type { Booking, BookingUnit } from './booking.repository';
import { addDays, dayLabel, mondayOf, parseSlotValue, slotsOfDay, spDay, windowDays, type Slot } from './slots';

export const FIELDS = ['nome', 'whatsapp', 'email', 'aceita_contato', 'vaga'] as const;
export type Field = (typeof FIELDS)[number];
/** The hidden fields beside the visible ones: the form's envio_id and the consent text version it showed. */
const HIDDEN_FIELDS = ['envio_id', CONSENT_VERSION_FIELD, CONSENT_CHANNEL_FIELD] as const;
export type BookingValues = Partial<Record<Field | (typeof HIDDEN_FIELDS)[number], string>>;
export type BookingErrors = Partial<Record<Field, string>>;
export const CONSENT_VALUE = 'sim';
/** The form's maxlength: the kit's own bounds for a phone and an e-mail. */
export const LIMITS = { nome: 120, whatsapp: PHONE_MAX, email: EMAIL_MAX } as const;

export interface OfferedSlot extends Slot {
  remaining: number;
}
export interface OfferedDay {
  day: string;
  label: string;
  slots: OfferedSlot[];
}

export type BookingOutcome =
  | { kind: 'booked'; booking: Booking; repeated: boolean }
  | { kind: 'invalid'; errors: BookingErrors }
  | { kind: 'full' }
  | { kind: 'unit-unavailable' };

// The form kit's envio_id (docs/decisions/082, 183, 184): claimed in `envios` with the
// booking's fingerprint, and kept on aulas_experimentais.envio_id (UNIQUE) — the posted key,
// or its content key when another booking was made under it first.
export { newEnvioId };

/** A booking refused inside its transaction (full slot, one-future-booking rule): nothing is kept. */
class Refused extends Error {
  constructor(readonly outcome: BookingOutcome) {
    super('booking refused');
  }
}

/** The fields as the booking stores them, or the messages by the fields that are wrong. */
function readFields(values: BookingValues) {
  // The form kit's text kinds: NUL, CR/LF and other control characters get a field message.
  const fieldErrors: FieldErrors = {};
  const { nome, whatsapp, email } = takeFields(fieldErrors, {
    nome: oneLine(values.nome, { max: LIMITS.nome, min: 2, required: 'Informe o seu nome.' }),
    whatsapp: parsePhone(values.whatsapp, { required: 'Informe o seu WhatsApp com DDD.' }),
    email: parseEmail(values.email),
  });
  if (fieldErrors.email === EMAIL_MESSAGE)
    fieldErrors.email = 'Informe um e-mail válido, por exemplo nome@exemplo.com.br, ou deixe em branco.';
  const errors = fieldErrors as BookingErrors;
  if (values.aceita_contato !== CONSENT_VALUE) {
    errors.aceita_contato = 'Para agendar, autorize a unidade a falar com você pelo WhatsApp sobre a aula.';
  }
  return { errors, nome, whatsapp, email: email || null };
}

/**
 * The fingerprint of a booking request (docs/decisions/184): the unit, the slot, the fields
 * as stored and the consent it gives (text version and channel). Null when a field is
 * wrong: such a request repeats no stored booking. Independent of the clock, so a resend
 * after the class began still finds the booking it repeats.
 */
export function bookingFingerprint(unitId: number, values: BookingValues): string | null {
  const { errors, nome, whatsapp, email } = readFields(values);
  if (Object.keys(errors).length || !values.vaga) return null;
  return fingerprintOf({
    unidade_id: unitId,
    vaga: values.vaga,
    nome,
    whatsapp,
    email: email?.toLowerCase() ?? null,
    aceita_contato: 1,
    versao_consentimento: postedConsentVersion('aula_experimental', values[CONSENT_VERSION_FIELD]),
    origem: readConsentChannel(values[CONSENT_CHANNEL_FIELD]),
  });
}

/** The posted values as typed (the kit's text kinds judge them in validate). */
export function valuesFrom(body: Record<string, unknown>): BookingValues {
  const values: BookingValues = {};
  for (const f of [...FIELDS, ...HIDDEN_FIELDS]) values[f] = rawString(body[f]).slice(0, 2000);
  return values;
}

/** Values shown again in a refused form: control characters removed, never stored. */
export const echoValues = (values: BookingValues) => echoFields(values, { max: 300 });

/** Google Maps link for the unit (the same as the unit page's). */
export function mapUrl(u: Pick<BookingUnit, 'endereco' | 'bairro' | 'cidade' | 'uf'>): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(
    `${u.endereco}, ${u.bairro}, ${u.cidade} - ${u.uf}`,
  )}`;
}

export function addressOf(u: Pick<BookingUnit, 'endereco' | 'bairro' | 'cidade' | 'uf'>): string {
  return `${u.endereco}, ${u.bairro}, ${u.cidade} - ${u.uf}`;
}

/** "Terça-feira, 24/11, às 07:00" */
export function whenLabel(b: Pick<Booking, 'dia' | 'inicio_em'>): string {
  return `${dayLabel(b.dia)}, às ${formatTime(b.inicio_em)}`;
}
export function timeOf(iso: string): string {
  return formatTime(iso);
}

export interface BookingDeps {
  config: Pick<Config, 'smtp' | 'brandName' | 'publicUrl'>;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

export function createBookingService(deps: BookingDeps, repo: Transactional<BookingRepository>) {
  /** Every slot of the window for a unit (no capacity or clock filter). */
  async function allSlots(unitId: number, now: Date): Promise<Slot[]> {
    const { hours, classes } = await repo.schedule(unitId);
    return windowDays(now).flatMap((day) => slotsOfDay(day, classes, hours));
  }

  return {
    /** An active unit, or undefined (unknown or inactive). */
    async activeUnit(id: number): Promise<BookingUnit | undefined> {
      const unit = await repo.findUnit(id);
      return unit && unit.ativo === 1 ? unit : undefined;
    },

    /** What the form offers: slots that have not begun and still have a place, by day. */
    async offeredDays(unit: BookingUnit, now: Date): Promise<OfferedDay[]> {
      const slots = (await allSlots(unit.id, now)).filter((s) => s.startsAt.getTime() > now.getTime());
      const reserved = await repo.reserved(
        unit.id,
        slots.map((s) => s.value),
      );
      const byDay = new Map<string, OfferedSlot[]>();
      for (const day of windowDays(now)) byDay.set(day, []);
      for (const s of slots) {
        const remaining = unit.vagas_experimentais - (reserved.get(s.value) ?? 0);
        if (remaining > 0) byDay.get(s.day)!.push({ ...s, remaining });
      }
      return [...byDay].map(([day, list]) => ({ day, label: dayLabel(day), slots: list }));
    },

    /** Checks the fields and the slot; the slot's explanation says why it cannot be booked. */
    async validate(
      unit: BookingUnit,
      values: BookingValues,
      now: Date,
    ): Promise<
      | { ok: true; slot: Slot; nome: string; whatsapp: string; email: string | null }
      | { ok: false; errors: BookingErrors }
    > {
      const { errors, nome, whatsapp, email } = readFields(values);

      let slot: Slot | undefined;
      const raw = values.vaga ?? '';
      const parsed = raw ? parseSlotValue(raw) : null;
      const today = spDay(now);
      if (!raw) errors.vaga = 'Escolha o dia e o horário da sua aula.';
      else if (!parsed) errors.vaga = 'Escolha um horário da lista.';
      else if (parsed.day < today) errors.vaga = 'Este horário já passou. Escolha outro horário da lista.';
      else if (parsed.day > addDays(today, 6))
        errors.vaga = 'Só é possível agendar para os próximos 7 dias. Escolha um horário da lista.';
      else {
        slot = (await allSlots(unit.id, now)).find((s) => s.value === raw);
        if (!slot) {
          errors.vaga =
            parsed.kind === 'aula'
              ? 'Esta aula não está na grade da unidade para esse dia. Escolha um horário da lista.'
              : 'A unidade não está aberta nesse horário. Escolha um horário da lista.';
        } else if (slot.startsAt.getTime() <= now.getTime()) {
          errors.vaga =
            `Esta ${slot.kind === 'aula' ? 'aula' : 'faixa de horário'} já começou. Escolha outro ` +
            `horário da lista.`;
        }
      }
      if (Object.keys(errors).length || !slot) return { ok: false, errors };
      return { ok: true, slot, nome, whatsapp, email };
    },

    /**
     * The booking a request repeats (docs/decisions/183, 184): the same envio_id (or its
     * content key) with the same fingerprint, within the 24 h window; or a booking under
     * the key that `envios` no longer knows (past the window, or stored before
     * fingerprints), which any content repeats, as before.
     */
    async repeatOf(envio: EnvioKey, now: Date): Promise<Booking | undefined> {
      const second = contentKey(envio.id, envio.fingerprint);
      const stored = await repo.findByEnvioIds([envio.id, second]);
      if (!stored.length) return undefined;
      const hit = await repo.storedEnvio(envio.id, envio.fingerprint, staleBefore(now));
      if (hit) return stored.find((b) => b.id === hit.registro_id) ?? stored.find((b) => b.envio_id === second);
      const row = await repo.envioRow(envio.id);
      if (row && row.criado_em >= staleBefore(now)) return undefined;
      return stored.find((b) => b.envio_id === second) ?? stored.find((b) => b.envio_id === envio.id);
    },

    /**
     * Books a slot. A repeat (the same envio_id and the same content) answers with the
     * booking it made the first time, storing nothing; another content under a used
     * envio_id is a booking of its own. One transaction: the envio claim, the contact's
     * lock, the one-future-booking rule, a place from the slot's counter, the booking, its
     * consent, webhook event and confirmation mail.
     */
    async book(unitId: number, values: BookingValues, now: Date = new Date()): Promise<BookingOutcome> {
      // A POST without a (well-formed) envio_id is accepted, as on every public form; it
      // just has no double-submit protection.
      const envioId = readEnvioId(values);
      const fingerprint = envioId ? bookingFingerprint(unitId, values) : null;
      const envio = envioId && fingerprint ? { id: envioId, fingerprint } : null;
      // Before the checks that depend on the clock and the unit: a resend is answered as
      // the first time even once the class began or the unit stopped taking bookings.
      const earlier = envio && (await this.repeatOf(envio, now));
      if (earlier) return { kind: 'booked', booking: earlier, repeated: true };
      const unit = await this.activeUnit(unitId);
      if (!unit) return { kind: 'unit-unavailable' };
      const checked = await this.validate(unit, values, now);
      if (!checked.ok) return { kind: 'invalid', errors: checked.errors };
      const { slot, nome, whatsapp, email } = checked;
      const nowIso = now.toISOString();
      try {
        const once = await repo.transaction((tx, trx) =>
          storeOnce(trx, 'aula_experimental', envio, async (key) => {
            await tx.lockContact(unit.id, whatsapp);
            const existing = await tx.futureBookingOf(unit.id, whatsapp, nowIso);
            if (existing) {
              throw new Refused({
                kind: 'invalid',
                errors: {
                  whatsapp:
                    `Este WhatsApp já tem uma aula experimental agendada nesta unidade (${existing.atividade}, ` +
                    `${whenLabel({ dia: spDay(new Date(existing.inicio_em)), inicio_em: existing.inicio_em })}). ` +
                    `Para mudar o horário, fale com a unidade pelo WhatsApp.`,
                },
              });
            }
            if (!(await tx.takePlace(unit.id, slot.value))) throw new Refused({ kind: 'full' });
            const booking = {
              unidade_id: unit.id,
              aula_id: slot.aulaId,
              vaga: slot.value,
              atividade: slot.atividade,
              inicio_em: slot.startsAt.toISOString(),
              fim_em: slot.endsAt.toISOString(),
              dia: slot.day,
              nome,
              whatsapp,
              email,
              aceita_contato: 1,
              envio_id: key ?? `sem-envio-${newEnvioId()}`,
              codigo: randomBytes(18).toString('base64url'),
              status: 'agendado',
              status_por: null,
              lembrete_em: null,
              anonimizado_em: null,
              semana: mondayOf(spDay(now)),
              criado_em: nowIso,
              atualizado_em: nowIso,
            };
            const id = await tx.insert(booking);
            // The proof of consent, in the booking's transaction (LGPD art. 8 §2).
            await recordConsent(trx, {
              finalidade: 'aula_experimental',
              versao: postedConsentVersion('aula_experimental', values[CONSENT_VERSION_FIELD]),
              canal: readConsentChannel(values[CONSENT_CHANNEL_FIELD]),
              email: email?.toLowerCase() ?? null,
              telefone: whatsapp,
              tabela: 'aulas_experimentais',
              registroId: id,
              aceitoEm: nowIso,
            });
            const stored: Booking = { ...booking, id };
            await emitWebhook(trx, {
              type: 'aula_experimental.agendada',
              origin: `aulas_experimentais:${id}`,
              at: now,
              data: bookingEventData(stored, unit.nome, deps.config.publicUrl),
            });
            if (email && deps.config.smtp) {
              await enqueueMail(trx, confirmationMail(deps.config, unit, stored, 'confirmacao'));
            }
            return id;
          }),
        );
        const booking = once.id === null ? undefined : await repo.findById(once.id);
        if (booking) return { kind: 'booked', booking, repeated: once.status === 'duplicate' };
        // A repeat whose first booking is not readable (never expected): the key's booking.
        const earlier = envio && (await this.repeatOf(envio, now));
        if (earlier) return { kind: 'booked', booking: earlier, repeated: true };
        throw new Error('booking stored but not found');
      } catch (err) {
        if (err instanceof Refused) return err.outcome;
        // The key's booking exists while `envios` no longer knows it (past the 24 h window,
        // or stored before fingerprints): its UNIQUE envio_id refused this one, a repeat.
        const code = (err as { code?: string }).code;
        if (envio && (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE')) {
          const earlier = await this.repeatOf(envio, now);
          if (earlier) return { kind: 'booked', booking: earlier, repeated: true };
        }
        throw err;
      }
    },

    async thanks(codigo: string) {
      const booking = await repo.findByCodigo(codigo);
      if (!booking) return undefined;
      const unit = await repo.findUnit(booking.unidade_id);
      return unit ? { booking, unit } : undefined;
    },
  };
}
export type BookingService = ReturnType<typeof createBookingService>;

export function thanksPath(codigo: string): string {
  return `/aula-experimental/confirmada/${codigo}`;
}

/** The confirmation (right after booking) or the reminder (the day before). */
export function confirmationMail(
  config: Pick<Config, 'brandName' | 'publicUrl'>,
  unit: Pick<BookingUnit, 'nome' | 'endereco' | 'bairro' | 'cidade' | 'uf' | 'whatsapp' | 'telefone'>,
  booking: Booking,
  kind: 'confirmacao' | 'lembrete',
) {
  const link = `${config.publicUrl}${thanksPath(booking.codigo)}`;
  const contact = unit.whatsapp ?? unit.telefone;
  const lines = [
    `Olá, ${booking.nome}!`,
    '',
    kind === 'confirmacao'
      ? `Sua aula experimental na ${config.brandName} está agendada.`
      : `Lembrete: sua aula experimental na ${config.brandName} é amanhã.`,
    '',
    `Atividade: ${booking.atividade}`,
    `Quando: ${whenLabel(booking)} (horário de Brasília)`,
    `Unidade: ${unit.nome}`,
    `Endereço: ${addressOf(unit)}`,
    `Mapa: ${mapUrl(unit)}`,
    ...(contact ? [`WhatsApp da unidade: ${formatBrazilianPhone(contact)}`] : []),
    '',
    `Detalhes e arquivo para a sua agenda (.ics): ${link}`,
    '',
    'Leve roupa confortável, tênis e uma garrafa de água. Chegue 10 minutos antes.',
    'Se não puder vir, avise a unidade pelo WhatsApp.',
  ];
  return {
    to: booking.email!,
    subject:
      kind === 'confirmacao'
        ? `Aula experimental agendada: ${booking.atividade}, ${whenLabel(booking)}`
        : `Lembrete: sua aula experimental é amanhã (${booking.atividade}, ${timeOf(booking.inicio_em)})`,
    text: lines.join('\n'),
    origin: `aulas_experimentais:${booking.id}:${kind}`,
  };
}
