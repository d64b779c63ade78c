// The rules of an online enrolment: what is sold where, the person's data, the summary and
// contract shown before acceptance, storing the acceptance once, and what the person does
// afterwards in "Minha matrícula" (withdraw within 7 days, cancel later). Never sees HTTP.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import { nowIso } from '../../db/index';
import type { Transactional } from '../../db/transactional';
import type { EnrolmentStatus } from '../../db/types';
import {
  EMAIL_MESSAGE,
  echoFields,
  hasErrors,
  oneLine,
  parseCpf,
  parseDay,
  parseEmail,
  parsePhone,
  rawString,
  takeFields,
  type FieldErrors,
} from '../../lib/form/index';
import { formatBRL } from '../../lib/text';
import { addDays, formatDateTime, formatDay, saoPauloDay } from '../../lib/time';
import { readEnvioKey, storeOnce } from '../../platform/envio/index';
import { enqueueMail } from '../../platform/mail/outbox.repository';
import type { PaymentInstructions, PaymentProvider } from '../../platform/payments/index';
import { emitWebhook } from '../../platform/webhooks/webhooks.repository';
import type { AuditRepository } from '../audit/audit.repository';
import { CONSENT_VERSION_FIELD, postedConsentVersion } from '../privacy/consent';
import { recordConsent } from '../privacy/consent.repository';
import { contractValues, fillContract, formatCpfDigits, sha256Hex } from './contract';
import type { Enrolment, EnrolmentRepository, OfferPlan, OfferUnit, Payment } from './enrolment.repository';
import {
  addMonths,
  ageOn,
  canWithdraw,
  cancellation,
  firstPayment,
  REFUND_DAYS,
  withdrawalDeadline,
  type FirstPayment,
} from './terms';

export type { Enrolment, OfferPlan, OfferUnit, Payment } from './enrolment.repository';

export const DATA_FIELDS = [
  'nome',
  'cpf',
  'nascimento',
  'email',
  'whatsapp',
  'aceita_ofertas',
  'responsavel_nome',
  'responsavel_cpf',
] as const;
/** The acceptance page's own fields. */
export const ACCEPT_FIELDS = ['aceite', 'aceite_responsavel', 'contrato_versao', 'contrato_sha256'] as const;
export type DataField = (typeof DATA_FIELDS)[number];
export type EnrolmentValues = Partial<
  Record<DataField | (typeof ACCEPT_FIELDS)[number] | 'envio_id' | typeof CONSENT_VERSION_FIELD, string>
>;
export type EnrolmentErrors = Partial<Record<DataField | 'aceite' | 'aceite_responsavel' | 'contrato', string>>;
export const YES = 'sim';
export const LIMITS = { nome: 120, email: 254, whatsapp: 30 } as const;

/** The repositories the service runs in one transaction. */
export interface EnrolmentRepos extends EnrolmentRepository {
  audit: AuditRepository;
}

export interface PersonData {
  nome: string;
  cpf: string;
  nascimento: string;
  email: string;
  whatsapp: string | null;
  aceitaOfertas: boolean;
  responsavelNome: string | null;
  responsavelCpf: string | null;
  minor: boolean;
}

/** What the summary page shows and the acceptance freezes. */
export interface Proposal {
  unit: OfferUnit & { razao_social: string; cnpj: string };
  plan: OfferPlan;
  person: PersonData;
  first: FirstPayment;
  legalAddress: string;
  contract: { versao: number; texto: string; sha256: string };
  withdrawUntil: string;
}

export type AcceptOutcome =
  | { kind: 'stored'; codigo: string; repeated: boolean }
  | { kind: 'invalid'; errors: EnrolmentErrors; step: 'dados' | 'resumo'; proposal?: Proposal }
  | { kind: 'unavailable' };

export interface EnrolmentDeps {
  config: Pick<Config, 'brandName' | 'publicUrl' | 'smtp' | 'payments'>;
  provider: PaymentProvider | null;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}

/**
 * What a provider that confirms by itself does after our own change (set by index.ts with
 * the provider's service): each is repeated by the reconciliation job when it fails here.
 */
export interface ProviderHooks {
  /** the charge's ids learnt while showing the payment page; `paid`: the provider has it paid */
  seen(
    enrolmentId: number,
    paymentId: number,
    ids: { providerId?: string; customerId?: string; authorizationId?: string },
    paid: boolean,
  ): Promise<void>;
  /** Pix Automático's QR code given up for the card: the charge's page, or null (already paid) */
  chooseCard(enrolmentId: number, paymentId: number): Promise<string | null>;
  withdrawn(enrolmentId: number): Promise<unknown>;
  cancelled(enrolmentId: number): Promise<unknown>;
}

export const STATUS_LABELS: Record<EnrolmentStatus, string> = {
  aguardando_pagamento: 'Aguardando pagamento',
  ativa: 'Ativa',
  expirada: 'Expirada (não paga no prazo)',
  desistencia: 'Desistência',
  cancelamento_solicitado: 'Cancelamento solicitado',
  cancelada: 'Cancelada',
};

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The posted values as typed (the form kit judges them). */
export function valuesFrom(body: Record<string, unknown>): EnrolmentValues {
  const values: EnrolmentValues = {};
  for (const f of [...DATA_FIELDS, ...ACCEPT_FIELDS, 'envio_id', CONSENT_VERSION_FIELD] as const)
    values[f] = rawString(body[f]).slice(0, 2000);
  return values;
}

/** Values shown again in a refused form: control characters removed, never stored. */
export const echoValues = (values: EnrolmentValues) => echoFields(values, { max: 300 });

/** The person's data, or the messages by the fields that are wrong. */
export function readPerson(values: EnrolmentValues, now: Date): { person: PersonData | null; errors: EnrolmentErrors } {
  const errors: FieldErrors = {};
  const { nome, cpf, nascimento } = takeFields(errors, {
    nome: oneLine(values.nome, { max: LIMITS.nome, min: 3, required: 'Informe o seu nome completo.' }),
    cpf: parseCpf(values.cpf, { required: 'Informe o seu CPF.' }),
    nascimento: parseDay(values.nascimento, { required: 'Informe a sua data de nascimento.' }),
  });
  const today = saoPauloDay(now);
  let minor = false;
  if (nascimento && !errors.nascimento) {
    const age = ageOn(nascimento, today);
    if (nascimento > today) errors.nascimento = 'A data de nascimento não pode estar no futuro.';
    else if (age > 120) errors.nascimento = 'Confira o ano de nascimento.';
    else if (age < 12) errors.nascimento = 'A matrícula online é para quem tem 12 anos ou mais. Fale com a unidade.';
    else minor = age < 18;
  }
  // Read after the age check, so a birth-date error stays before these (the form's order).
  const { email, whatsapp } = takeFields(errors, {
    email: parseEmail(values.email, { required: 'Informe o seu e-mail.', lowerCase: true }),
    whatsapp: parsePhone(values.whatsapp, { required: 'Informe o seu WhatsApp com DDD.' }),
  });
  if (errors.email === EMAIL_MESSAGE) errors.email = 'Informe um e-mail válido, por exemplo nome@exemplo.com.br.';
  let responsavelNome: string | null = null;
  let responsavelCpf: string | null = null;
  if (minor) {
    const guardian = takeFields(errors, {
      responsavel_nome: oneLine(values.responsavel_nome, {
        max: LIMITS.nome,
        min: 3,
        required: 'Menor de 18 anos: informe o nome do responsável.',
      }),
      responsavel_cpf: parseCpf(values.responsavel_cpf, { required: 'Informe o CPF do responsável.' }),
    });
    responsavelNome = guardian.responsavel_nome || null;
    responsavelCpf = guardian.responsavel_cpf || null;
    if (responsavelCpf && responsavelCpf === cpf)
      errors.responsavel_cpf = 'O CPF do responsável deve ser diferente do CPF de quem se matricula.';
  }
  if (values.aceita_ofertas && values.aceita_ofertas !== YES) errors.aceita_ofertas = 'Marque ou desmarque a opção.';
  if (hasErrors(errors)) return { person: null, errors: errors as EnrolmentErrors };
  return {
    person: {
      nome,
      cpf,
      nascimento,
      email,
      whatsapp: whatsapp || null,
      aceitaOfertas: values.aceita_ofertas === YES,
      responsavelNome,
      responsavelCpf,
      minor,
    },
    errors: {},
  };
}

/** Unguessable key of the payment page: 24 url-safe characters. */
const newCode = () => randomBytes(18).toString('base64url');

export function createEnrolmentService(deps: EnrolmentDeps, repo: Transactional<EnrolmentRepos>) {
  const { config, provider } = deps;
  let hooks: ProviderHooks | null = null;
  /** A provider's follow-up after our transaction: a failure is logged, the job does it again. */
  // Waited for up to FOLLOW_UP_WAIT_MS so the page after it shows the result; a slow provider
  // does not hold the person's answer longer (the work goes on, the job repeats a failure).
  const followUp = (what: string, run: () => Promise<unknown>) =>
    within(
      FOLLOW_UP_WAIT_MS,
      run().catch((err) => deps.log?.warn({ err }, `payment provider: ${what} failed; the reconciliation retries it`)),
    );

  function legalAddressOf(u: OfferUnit): string {
    return u.endereco_juridico?.trim() || `${u.endereco}, ${u.bairro}, ${u.cidade} - ${u.uf}`;
  }

  /** The unit and plan on sale, or null (unknown, inactive, not sold online, no legal entity). */
  async function offerOf(unitId: number, planId: number) {
    const unit = await repo.unit(unitId);
    if (unit?.ativo !== 1 || !unit.cnpj || !unit.razao_social) return null;
    const plan = (await repo.plansSold(unitId)).find((p) => p.id === planId);
    if (!plan) return null;
    return { unit: unit as Proposal['unit'], plan };
  }

  async function proposalFor(unitId: number, planId: number, person: PersonData, now: Date): Promise<Proposal | null> {
    const offer = await offerOf(unitId, planId);
    const contract = await repo.currentContract();
    if (!offer || !contract) return null;
    const first = firstPayment(offer.plan, now);
    const legalAddress = legalAddressOf(offer.unit);
    const texto = fillContract(
      contract.texto,
      contractValues(
        {
          unidade_nome: offer.unit.nome,
          razao_social: offer.unit.razao_social,
          cnpj: offer.unit.cnpj,
          endereco_juridico: legalAddress,
          plano_nome: offer.plan.nome,
          mensalidade_centavos: offer.plan.mensalidade_centavos,
          dia_vencimento: first.billingDay,
          taxa_matricula_centavos: offer.plan.taxa_matricula_centavos,
          taxa_anual_centavos: offer.plan.taxa_anual_centavos,
          taxa_anual_mes: offer.plan.taxa_anual_mes,
          fidelidade_meses: offer.plan.fidelidade_meses,
          multa_percentual: offer.plan.multa_percentual,
          nome: person.nome,
          cpf: person.cpf,
          responsavel_nome: person.responsavelNome,
        },
        config.brandName,
      ),
    );
    return {
      ...offer,
      person,
      first,
      legalAddress,
      contract: { versao: contract.versao, texto, sha256: sha256Hex(texto) },
      withdrawUntil: addDays(saoPauloDay(now), 7),
    };
  }

  /** What makes two acceptances the same: the same form sent twice is one enrolment. */
  function acceptanceContent(unitId: number, planId: number, p: PersonData, sha: string) {
    return {
      unidade_id: unitId,
      plano_id: planId,
      nome: p.nome,
      cpf: p.cpf,
      nascimento: p.nascimento,
      email: p.email,
      whatsapp: p.whatsapp,
      ofertas: p.aceitaOfertas,
      responsavel: [p.responsavelNome, p.responsavelCpf],
      contrato: sha,
    };
  }

  async function history(
    tx: EnrolmentRepos,
    id: number,
    de: EnrolmentStatus | null,
    para: EnrolmentStatus,
    origem: 'cliente' | 'equipe' | 'sistema' | 'provedor',
    usuarioId: number | null,
    detalhe: string | null,
    now: string,
  ) {
    await tx.addHistory({ matricula_id: id, de, para, origem, usuario_id: usuarioId, detalhe, criado_em: now });
  }

  function eventData(e: Enrolment, extra: Record<string, unknown> = {}) {
    return {
      id: e.id,
      unidade: { id: e.unidade_id, nome: e.unidade_nome },
      plano: { id: e.plano_id, nome: e.plano_nome },
      status: e.status,
      mensalidade_centavos: e.mensalidade_centavos,
      criado_em: e.criado_em,
      ...extra,
    };
  }

  const statusUrl = (codigo: string) => `${config.publicUrl}/matricula/${codigo}`;
  const minePath = '/matricula/minha';

  /** Queues a one-time link to "Minha matrícula" (in the caller's transaction). */
  async function queueAccessLink(tx: EnrolmentRepos, email: string, now: Date, validDays: number) {
    const token = randomBytes(32).toString('base64url');
    await tx.insertLink({
      email,
      tokenHash: sha256(token),
      now: nowIso(now),
      expiresAt: nowIso(new Date(now.getTime() + validDays * 86_400_000)),
    });
    return `${config.publicUrl}${minePath}/entrar?token=${token}`;
  }

  function summaryLines(
    e: Pick<
      Enrolment,
      | 'unidade_nome'
      | 'razao_social'
      | 'cnpj'
      | 'plano_nome'
      | 'mensalidade_centavos'
      | 'dia_vencimento'
      | 'primeiro_pagamento_centavos'
      | 'fidelidade_meses'
      | 'multa_percentual'
    >,
  ) {
    return [
      `Unidade: ${e.unidade_nome} — ${e.razao_social}, CNPJ ${e.cnpj}`,
      `Plano: ${e.plano_nome}`,
      `Primeiro pagamento: ${formatBRL(e.primeiro_pagamento_centavos)}`,
      `Mensalidade: ${formatBRL(e.mensalidade_centavos)}, todo dia ${e.dia_vencimento}`,
      `Fidelidade: ${e.fidelidade_meses ? `${e.fidelidade_meses} meses` : 'sem fidelidade'}; ` +
        `multa de cancelamento: ${e.multa_percentual}% da mensalidade por mês restante`,
    ];
  }

  return {
    /** Whether anything can be paid online now (production without PIX_KEY: no). */
    get selling(): boolean {
      return provider !== null;
    },
    get demo(): boolean {
      return config.payments.pix?.demo ?? false;
    },

    /** The units that sell online now. */
    unitIdsSelling: async () => new Set(await repo.unitIdsSelling()),

    /** A unit on sale and its plans, or null. */
    async unitOffer(unitId: number): Promise<{ unit: OfferUnit; plans: OfferPlan[] } | null> {
      const unit = await repo.unit(unitId);
      if (unit?.ativo !== 1 || !unit.cnpj || !unit.razao_social) return null;
      const plans = await repo.plansSold(unitId);
      return plans.length ? { unit, plans } : null;
    },
    offerOf,

    /** Step "seus dados" → summary: the proposal, or the messages by the fields. */
    async preview(
      unitId: number,
      planId: number,
      values: EnrolmentValues,
      now: Date,
    ): Promise<
      { ok: true; proposal: Proposal } | { ok: false; errors: EnrolmentErrors } | { ok: false; unavailable: true }
    > {
      const { person, errors } = readPerson(values, now);
      if (!person) return { ok: false, errors };
      const proposal = await proposalFor(unitId, planId, person, now);
      if (!proposal) return { ok: false, unavailable: true };
      const held = await repo.inForce(unitId, person.cpf);
      if (held) return { ok: false, errors: { cpf: inForceMessage(held) } };
      return { ok: true, proposal };
    },

    /**
     * Stores the acceptance once (the envio rule): the enrolment with everything frozen, its
     * first charge, the history, the consent, the confirmation mail and the webhook, in one
     * transaction. The contract must be the one shown (its SHA-256): a new version saved
     * meanwhile shows the summary again.
     */
    async accept(
      unitId: number,
      planId: number,
      values: EnrolmentValues,
      meta: { ip: string | null; userAgent: string | null },
      now: Date = new Date(),
    ): Promise<AcceptOutcome> {
      if (!provider) return { kind: 'unavailable' };
      const { person, errors } = readPerson(values, now);
      if (!person) return { kind: 'invalid', errors, step: 'dados' };
      const proposal = await proposalFor(unitId, planId, person, now);
      if (!proposal) return { kind: 'unavailable' };
      const envio = readEnvioKey(values, acceptanceContent(unitId, planId, person, values.contrato_sha256 ?? ''));
      const refuse: EnrolmentErrors = {};
      if (
        values.contrato_sha256 !== proposal.contract.sha256 ||
        values.contrato_versao !== String(proposal.contract.versao)
      )
        refuse.contrato =
          'O contrato ou os valores mudaram desde que esta página foi aberta. Leia o resumo e o contrato atualizados ' +
          'abaixo e aceite de novo.';
      if (values.aceite !== YES) refuse.aceite = 'Para continuar, marque que você leu e aceita o contrato.';
      if (person.minor && values.aceite_responsavel !== YES)
        refuse.aceite_responsavel = 'O responsável precisa marcar que leu e aceita o contrato.';

      const at = nowIso(now);
      const codigo = newCode();
      let stored: Enrolment | null = null;
      try {
        const result = await repo.transaction(async (tx, trx) => {
          // A resend of an acceptance already stored is answered as the first time,
          // even when it would now be refused (the CPF is in force: by itself).
          return storeOnce(trx, 'matricula', envio, async (key) => {
            if (Object.keys(refuse).length)
              throw new Refused({ kind: 'invalid', errors: refuse, step: 'resumo', proposal });
            const held = await tx.inForce(unitId, person.cpf);
            if (held) throw new Refused({ kind: 'invalid', errors: { cpf: inForceMessage(held) }, step: 'dados' });
            const e = await tx.insertEnrolment({
              codigo,
              envio_id: key,
              unidade_id: unitId,
              plano_id: planId,
              status: 'aguardando_pagamento',
              nome: person.nome,
              cpf: person.cpf,
              nascimento: person.nascimento,
              email: person.email,
              whatsapp: person.whatsapp,
              aceita_marketing: person.aceitaOfertas ? 1 : 0,
              responsavel_nome: person.responsavelNome,
              responsavel_cpf: person.responsavelCpf,
              unidade_nome: proposal.unit.nome,
              plano_nome: proposal.plan.nome,
              razao_social: proposal.unit.razao_social,
              cnpj: proposal.unit.cnpj,
              endereco_juridico: proposal.legalAddress,
              mensalidade_centavos: proposal.plan.mensalidade_centavos,
              taxa_matricula_centavos: proposal.plan.taxa_matricula_centavos,
              taxa_anual_centavos: proposal.plan.taxa_anual_centavos,
              taxa_anual_mes: proposal.plan.taxa_anual_mes,
              taxa_anual_agora: proposal.first.annualFeeCents > 0 ? 1 : 0,
              primeiro_pagamento_centavos: proposal.first.totalCents,
              fidelidade_meses: proposal.plan.fidelidade_meses,
              multa_percentual: proposal.plan.multa_percentual,
              dia_vencimento: proposal.first.billingDay,
              contrato_versao: proposal.contract.versao,
              contrato_texto: proposal.contract.texto,
              contrato_sha256: proposal.contract.sha256,
              aceito_em: at,
              aceite_ip: meta.ip?.slice(0, 45) ?? null,
              aceite_user_agent: meta.userAgent?.slice(0, 300) ?? null,
              provedor: provider.name,
              expira_em: nowIso(new Date(now.getTime() + config.payments.pixExpiryMs)),
              criado_em: at,
              atualizado_em: at,
            });
            await tx.addPayment({
              matricula_id: e.id,
              tipo: 'primeiro',
              valor_centavos: e.primeiro_pagamento_centavos,
              status: 'pendente',
              provedor: provider.name,
              referencia: `MAT${e.id}P1`,
              criado_em: at,
              atualizado_em: at,
            });
            await history(tx, e.id, null, 'aguardando_pagamento', 'cliente', null, 'contrato aceito no site', at);
            if (person.aceitaOfertas) {
              await recordConsent(trx, {
                finalidade: 'matricula_ofertas',
                // the wording the data page showed, carried through the summary
                versao: postedConsentVersion('matricula_ofertas', values[CONSENT_VERSION_FIELD]),
                canal: 'site',
                email: person.email,
                telefone: person.whatsapp,
                tabela: 'matriculas',
                registroId: e.id,
                aceitoEm: at,
              });
            }
            if (config.smtp) {
              const link = await queueAccessLink(tx, person.email, now, 7);
              await enqueueMail(trx, {
                to: person.email,
                subject: `Sua matrícula na ${config.brandName} ${e.unidade_nome}: contrato e próximos passos`,
                text: [
                  `Olá, ${person.nome}.`,
                  '',
                  'Recebemos a sua matrícula. Ela fica ativa quando o pagamento de ' +
                    `${formatBRL(e.primeiro_pagamento_centavos)} for confirmado.`,
                  `Pagamento e situação: ${statusUrl(e.codigo)}`,
                  '',
                  ...summaryLines(e),
                  '',
                  `Você pode desistir até ${formatDay(withdrawalDeadline(at))} com devolução integral, ` +
                    'e cancelar depois,',
                  `pelo site, em "Minha matrícula" (este link vale uma vez, por 7 dias): ${link}`,
                  `Depois, peça um novo link em ${config.publicUrl}${minePath}`,
                  '',
                  `Contrato aceito (versão ${e.contrato_versao}, SHA-256 ${e.contrato_sha256}):`,
                  '',
                  e.contrato_texto,
                ].join('\n'),
                origin: `matricula:${e.id}`,
              });
            }
            await emitWebhook(trx, {
              type: 'matricula.criada',
              data: eventData(e),
              origin: `matricula:${e.id}`,
              at: now,
            });
            stored = e;
            return e.id;
          });
        });
        if (result.status === 'duplicate') {
          const earlier = result.id ? await repo.byId(result.id) : undefined;
          if (earlier) return { kind: 'stored', codigo: earlier.codigo, repeated: true };
          return {
            kind: 'invalid',
            errors: { contrato: 'Esta página já foi enviada. Abra a matrícula de novo.' },
            step: 'dados',
          };
        }
        const e = stored as Enrolment | null;
        deps.log?.info({ enrolmentId: result.id }, 'enrolment accepted');
        return { kind: 'stored', codigo: e?.codigo ?? codigo, repeated: false };
      } catch (err) {
        if (err instanceof Refused) return err.outcome;
        if (isUniqueViolation(err)) {
          // Two tabs with the same CPF at once: the other one was stored first.
          return { kind: 'invalid', errors: { cpf: IN_FORCE_MESSAGE }, step: 'dados' };
        }
        throw err;
      }
    },

    /** The status and the number of unpaid charges, from our database only (the page's script polls it). */
    async situation(codigo: string): Promise<{ status: EnrolmentStatus; pendentes: number } | null> {
      const e = await repo.byCode(codigo);
      if (!e) return null;
      const pendentes = (await repo.payments(e.id)).filter((p) => toPayNow(p, new Date())).length;
      return { status: e.status, pendentes };
    },

    /** Pix Automático's page: the card instead; the charge's page at the provider, or null. */
    async chooseCard(codigo: string): Promise<string | null> {
      const e = await repo.byCode(codigo);
      if (e?.status !== 'aguardando_pagamento' || !hooks) return null;
      const first = (await repo.payments(e.id)).find((p) => p.tipo === 'primeiro' && p.status === 'pendente');
      return first ? hooks.chooseCard(e.id, first.id) : null;
    },

    /** Set once by index.ts when the provider confirms by itself. */
    setProviderHooks(h: ProviderHooks) {
      hooks = h;
    },

    /** The payment/status page of an enrolment (`unavailable`: the provider did not answer now). */
    async statusOf(codigo: string): Promise<{
      enrolment: Enrolment;
      pending: Payment[];
      instructions: Map<number, PaymentInstructions>;
      unavailable?: boolean;
    } | null> {
      let e = await repo.byCode(codigo);
      if (!e) return null;
      const unpaid = (p: Payment) => toPayNow(p, new Date());
      let pending = (await repo.payments(e.id)).filter(unpaid);
      const instructions = new Map<number, PaymentInstructions>();
      const shown: EnrolmentStatus[] = ['aguardando_pagamento', 'cancelamento_solicitado', 'cancelada'];
      if (provider?.name === 'asaas') shown.push('ativa');
      let unavailable = false;
      let paid = false;
      if (provider && shown.includes(e.status))
        for (const p of pending) {
          // A minor's payer is the guardian who accepted the contract.
          const payer = {
            name: e.responsavel_nome ?? e.nome,
            cpf: e.responsavel_cpf ?? e.cpf,
            email: e.email,
            phone: e.whatsapp,
          };
          try {
            const shownNow = await within(
              INSTRUCTIONS_WAIT_MS,
              provider.instructions({
                reference: p.referencia,
                amountCents: p.valor_centavos,
                description: `Matrícula ${e.id}`,
                payer,
                customerId: e.cliente_provedor_id,
                providerId: p.provedor_id,
                dueDate: saoPauloDay(new Date(e.expira_em ?? Date.now())),
                successUrl: statusUrl(e.codigo),
                // The first payment may authorise the monthly debits (Pix Automático, when on).
                recurring:
                  p.tipo === 'primeiro' && e.status === 'aguardando_pagamento'
                    ? {
                        startDate: addMonths(saoPauloDay(new Date(e.aceito_em)), 1, e.dia_vencimento),
                        valueCents: e.mensalidade_centavos,
                        description: `Mensalidade ${e.plano_nome}`,
                        expiresAt: e.expira_em ?? nowIso(new Date(Date.now() + 86_400_000)),
                      }
                    : undefined,
              }),
            );
            if (!shownNow) throw new Error('payment instructions: the provider did not answer in time');
            if (hooks && (shownNow.providerId || shownNow.paid)) {
              await hooks.seen(e.id, p.id, shownNow, shownNow.paid === true);
              paid ||= shownNow.paid === true;
            }
            if (!shownNow.paid) instructions.set(p.id, shownNow);
          } catch (err) {
            deps.log?.warn({ err, enrolmentId: e.id }, 'payment instructions unavailable');
            unavailable = true;
          }
        }
      if (paid) {
        e = (await repo.byId(e.id)) ?? e;
        pending = (await repo.payments(e.id)).filter(unpaid);
      }
      return { enrolment: e, pending, instructions, unavailable };
    },

    /** "Minha matrícula": sends a one-time link when the address has enrolments; the answer is always the same. */
    async requestLink(email: string, now = new Date()): Promise<void> {
      if (!config.smtp) {
        deps.log?.warn('"Minha matrícula" precisa de e-mail para enviar o link: defina SMTP_HOST');
        return;
      }
      if (!(await repo.hasEmail(email))) return;
      await repo.transaction(async (tx, trx) => {
        const link = await queueAccessLink(tx, email, now, 1);
        await enqueueMail(trx, {
          to: email,
          subject: `Minha matrícula — ${config.brandName}`,
          text: [
            'Para ver a sua matrícula, desistir ou pedir o cancelamento, abra o link abaixo ' +
              '(vale uma vez, por 24 horas):',
            '',
            link,
            '',
            'Se você não fez este pedido, ignore esta mensagem.',
          ].join('\n'),
          origin: 'matricula:link',
        });
      });
    },

    /** Uses a link once and opens a session of 1 hour: the session token, or null. */
    async openLink(token: string, now = new Date()): Promise<string | null> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
      const session = randomBytes(32).toString('base64url');
      const found = await repo.consumeLink(
        sha256(token),
        sha256(session),
        nowIso(now),
        nowIso(new Date(now.getTime() + 3_600_000)),
      );
      return found ? session : null;
    },

    /** The e-mail a session was opened for, or null. */
    async sessionEmail(session: string | undefined, now = new Date()): Promise<string | null> {
      if (!session || !/^[A-Za-z0-9_-]{43}$/.test(session)) return null;
      return (await repo.findSession(sha256(session), nowIso(now)))?.email ?? null;
    },

    async mine(email: string) {
      const list = await repo.byEmail(email);
      const payments = await repo.paymentsOf(list.map((e) => e.id));
      return list.map((e) => ({ enrolment: e, payments: payments.filter((p) => p.matricula_id === e.id) }));
    },

    /** One of the person's enrolments (the session's e-mail), or undefined. */
    async ownedBy(email: string, codigo: string): Promise<Enrolment | undefined> {
      const e = await repo.byCode(codigo);
      return e && e.email.toLowerCase() === email.toLowerCase() && !e.anonimizado_em ? e : undefined;
    },

    canWithdraw: (e: Enrolment, now: Date) =>
      (e.status === 'ativa' || e.status === 'aguardando_pagamento') && canWithdraw(e.aceito_em, now),
    canCancel: (e: Enrolment, now: Date) => e.status === 'ativa' && !canWithdraw(e.aceito_em, now),

    /** What a cancellation asked today would cost and when it would take effect. */
    cancellationQuote(e: Enrolment, now: Date) {
      return cancellation({ ...e, start: saoPauloDay(new Date(e.ativada_em ?? e.aceito_em)) }, saoPauloDay(now));
    },

    /**
     * "Desistir" within 7 São Paulo days of acceptance: everything paid is refunded (a
     * refund in the staff queue with `pix`); unpaid, the charge is simply called off.
     */
    async withdraw(e: Enrolment, now = new Date()): Promise<{ ok: boolean; refundCents: number }> {
      if (!this.canWithdraw(e, now)) return { ok: false, refundCents: 0 };
      const at = nowIso(now);
      const result = await repo.transaction(async (tx, trx) => {
        if (!(await tx.moveStatus(e.id, ['ativa', 'aguardando_pagamento'], 'desistencia', { desistencia_em: at }, at)))
          return { ok: false, refundCents: 0 };
        const payments = await tx.payments(e.id);
        let refundCents = 0;
        for (const p of payments) {
          if (p.status === 'pendente' && p.tipo !== 'reembolso')
            await tx.settlePayment(p.id, ['pendente'], 'cancelado', {}, at);
          if (p.status === 'pago' && p.tipo !== 'reembolso') refundCents += p.valor_centavos;
        }
        if (refundCents > 0)
          await tx.addPayment({
            matricula_id: e.id,
            tipo: 'reembolso',
            valor_centavos: refundCents,
            status: 'pendente',
            provedor: e.provedor,
            referencia: `MAT${e.id}R1`,
            prazo: nowIso(new Date(now.getTime() + REFUND_DAYS * 86_400_000)),
            criado_em: at,
            atualizado_em: at,
          });
        await history(
          tx,
          e.id,
          e.status,
          'desistencia',
          'cliente',
          null,
          refundCents ? `reembolso de ${formatBRL(refundCents)}` : null,
          at,
        );
        await enqueueMail(trx, {
          to: e.email,
          subject: `Desistência da matrícula confirmada — ${config.brandName} ${e.unidade_nome}`,
          text: [
            `Olá, ${e.nome}.`,
            '',
            `Confirmamos a sua desistência da matrícula no plano ${e.plano_nome} (${e.unidade_nome}), ` +
              `em ${formatDateTime(at)}.`,
            refundCents
              ? `Tudo o que você pagou, ${formatBRL(refundCents)}, será devolvido pelo mesmo meio de pagamento até ` +
                `${formatDateTime(nowIso(new Date(now.getTime() + REFUND_DAYS * 86_400_000)))}.`
              : e.provedor === 'pix'
                ? 'Nenhum pagamento tinha sido confirmado; nada será cobrado. Se você já pagou o Pix, ' +
                  `devolvemos o valor em até ${REFUND_DAYS} dias depois que a unidade o confirmar no extrato.`
                : 'Nenhum pagamento foi feito; nada será cobrado.',
            '',
            `${e.razao_social}, CNPJ ${e.cnpj}`,
          ].join('\n'),
          origin: `matricula:${e.id}`,
        });
        const after = { ...e, status: 'desistencia' as const };
        await emitWebhook(trx, {
          type: 'matricula.cancelada',
          data: eventData(after, { motivo: 'desistencia', reembolso_centavos: refundCents }),
          origin: `matricula:${e.id}`,
          at: now,
        });
        return { ok: true, refundCents };
      });
      if (result.ok && hooks) {
        const h = hooks;
        await followUp('refund of a withdrawal', () => h.withdrawn(e.id));
      }
      return result;
    },

    /** "Solicitar cancelamento" after the 7 days: a protocol, the fine as a one-off charge, effective at the end
     * of the paid period. */
    async cancel(e: Enrolment, now = new Date()): Promise<{ ok: boolean; protocolo?: string }> {
      if (!this.canCancel(e, now)) return { ok: false };
      const quote = this.cancellationQuote(e, now);
      const at = nowIso(now);
      const protocolo = `${saoPauloDay(now).replaceAll('-', '')}${String(e.id).padStart(6, '0')}`;
      const result = await repo.transaction(async (tx, trx) => {
        const moved = await tx.moveStatus(
          e.id,
          ['ativa'],
          'cancelamento_solicitado',
          {
            protocolo,
            cancelamento_solicitado_em: at,
            cancelamento_efetivo_em: quote.effectiveDay,
            multa_centavos: quote.fineCents,
          },
          at,
        );
        if (!moved) return { ok: false };
        if (quote.fineCents > 0)
          await tx.addPayment({
            matricula_id: e.id,
            tipo: 'multa',
            valor_centavos: quote.fineCents,
            status: 'pendente',
            provedor: e.provedor,
            referencia: `MAT${e.id}M1`,
            criado_em: at,
            atualizado_em: at,
          });
        await history(tx, e.id, 'ativa', 'cancelamento_solicitado', 'cliente', null, `protocolo ${protocolo}`, at);
        await enqueueMail(trx, {
          to: e.email,
          subject: `Cancelamento solicitado — protocolo ${protocolo}`,
          text: [
            `Olá, ${e.nome}.`,
            '',
            `Recebemos o seu pedido de cancelamento da matrícula no plano ${e.plano_nome} (${e.unidade_nome}).`,
            `Protocolo: ${protocolo}`,
            `O cancelamento vale a partir de ${formatDay(quote.effectiveDay)}, fim do período já pago.`,
            quote.fineCents
              ? `Multa por ${quote.monthsLeft} ${quote.monthsLeft === 1 ? 'mês restante' : 'meses restantes'} ` +
                `da fidelidade: ${formatBRL(quote.fineCents)}. Pagamento: ${statusUrl(e.codigo)}`
              : 'Não há multa.',
            '',
            `${e.razao_social}, CNPJ ${e.cnpj}`,
          ].join('\n'),
          origin: `matricula:${e.id}`,
        });
        return { ok: true, protocolo };
      });
      if (result.ok && hooks) {
        const h = hooks;
        await followUp('end of the subscription and the fine', () => h.cancelled(e.id));
      }
      return result;
    },

    /**
     * The scheduled step, safe on several instances (conditional updates): unpaid enrolments
     * past their time expire; cancellations whose paid period ended take effect.
     */
    async runJobs(now = new Date()): Promise<{ expired: number; cancelled: number }> {
      const at = nowIso(now);
      let expired = 0;
      let cancelled = 0;
      for (const id of await repo.expiredIds(at, 500)) {
        const did = await repo.transaction(async (tx, trx) => {
          if (!(await tx.moveStatus(id, ['aguardando_pagamento'], 'expirada', {}, at))) return false;
          for (const p of await tx.payments(id))
            if (p.status === 'pendente') await tx.settlePayment(p.id, ['pendente'], 'expirado', {}, at);
          await history(
            tx,
            id,
            'aguardando_pagamento',
            'expirada',
            'sistema',
            null,
            'pagamento não confirmado no prazo',
            at,
          );
          const e = await tx.byId(id);
          if (e)
            await emitWebhook(trx, {
              type: 'matricula.cancelada',
              data: eventData(e, { motivo: 'expirada' }),
              origin: `matricula:${id}`,
              at: now,
            });
          return true;
        });
        if (did) expired++;
      }
      for (const id of await repo.cancellationsDue(saoPauloDay(now), 500)) {
        const did = await repo.transaction(async (tx, trx) => {
          if (!(await tx.moveStatus(id, ['cancelamento_solicitado'], 'cancelada', {}, at))) return false;
          await history(tx, id, 'cancelamento_solicitado', 'cancelada', 'sistema', null, 'fim do período pago', at);
          const e = await tx.byId(id);
          if (e)
            await emitWebhook(trx, {
              type: 'matricula.cancelada',
              data: eventData(e, { motivo: 'cancelamento', protocolo: e.protocolo, multa_centavos: e.multa_centavos }),
              origin: `matricula:${id}`,
              at: now,
            });
          return true;
        });
        if (did) cancelled++;
      }
      await repo.pruneAccess(nowIso(new Date(now.getTime() - 86_400_000)));
      return { expired, cancelled };
    },

    /** Staff: the payment seen in the bank statement (pix) activates the enrolment. */
    confirmPayment(e: Enrolment, paymentId: number, staffId: number, now = new Date()): Promise<boolean> {
      return this.settlePaid(e, paymentId, { origem: 'equipe', staffId }, now);
    },

    /**
     * A payment received: the one path of a staff confirmation and of the provider's
     * (webhook or reconciliation). The first payment activates the enrolment (history,
     * audit, mail, webhook matricula.ativada); a monthly payment extends the paid period.
     * Only a row still unpaid moves, so a repeat changes nothing: false then.
     */
    async settlePaid(
      e: Enrolment,
      paymentId: number,
      by: { origem: 'equipe'; staffId: number } | { origem: 'provedor'; detalhe: string },
      now = new Date(),
    ): Promise<boolean> {
      const at = nowIso(now);
      const staffId = by.origem === 'equipe' ? by.staffId : null;
      return repo.transaction(async (tx, trx) => {
        // The enrolment's row first, as a withdrawal takes it: the two at once wait, never deadlock.
        await tx.lock(e.id);
        const payment = (await tx.payments(e.id)).find((p) => p.id === paymentId);
        if (!payment || payment.tipo === 'reembolso') return false;
        // A provider that confirms by itself settles its own charges; staff confirm Pix ones.
        if (by.origem === 'equipe' && payment.provedor !== 'pix') return false;
        // A late Pix of an expired enrolment whose CPF enrolled at the unit again since cannot make it
        // active beside the other one (the unique index would refuse it): staff confirm that one or refund.
        if (by.origem === 'equipe' && payment.tipo === 'primeiro') {
          const held = await tx.inForce(e.unidade_id, e.cpf);
          if (held && held.id !== e.id) return false;
        }
        const from = by.origem === 'equipe' ? ['pendente', 'expirado'] : ['pendente', 'expirado', 'atrasado'];
        if (!(await tx.settlePayment(paymentId, from, 'pago', { pago_em: at, usuario_id: staffId }, at))) return false;
        await tx.audit.record(
          {
            usuarioId: staffId,
            acao: 'confirmar_pagamento',
            entidade: 'matricula',
            entidadeId: e.id,
            depois: { pagamento: paymentId, valor_centavos: payment.valor_centavos, origem: by.origem },
          },
          at,
        );
        const detalhe = by.origem === 'provedor' ? by.detalhe : null;
        if (payment.tipo !== 'primeiro') {
          if (payment.tipo === 'mensalidade' && payment.vencimento) {
            const until = addMonths(payment.vencimento, 1, e.dia_vencimento);
            const current = (await tx.byId(e.id))?.pago_ate ?? null;
            if (!current || current < until) await tx.update(e.id, { pago_ate: until, atualizado_em: at });
          }
          await history(
            tx,
            e.id,
            e.status,
            e.status,
            by.origem,
            staffId,
            detalhe ?? `pagamento de ${payment.tipo} confirmado`,
            at,
          );
          return true;
        }
        const start = saoPauloDay(new Date(e.aceito_em));
        const activated = await tx.moveStatus(
          e.id,
          ['aguardando_pagamento', 'expirada'],
          'ativa',
          { ativada_em: at, pago_ate: addMonths(start, 1, e.dia_vencimento) },
          at,
        );
        if (!activated) return true;
        await history(
          tx,
          e.id,
          e.status,
          'ativa',
          by.origem,
          staffId,
          detalhe ?? 'pagamento confirmado no extrato',
          at,
        );
        await enqueueMail(trx, {
          to: e.email,
          subject: `Matrícula ativa — ${config.brandName} ${e.unidade_nome}`,
          text: [
            `Olá, ${e.nome}.`,
            '',
            `Seu pagamento de ${formatBRL(payment.valor_centavos)} foi confirmado e a sua matrícula no plano ` +
              `${e.plano_nome} está ativa.`,
            `Leve um documento com foto na primeira visita à unidade ${e.unidade_nome}.`,
            '',
            `Situação da matrícula: ${statusUrl(e.codigo)}`,
          ].join('\n'),
          origin: `matricula:${e.id}`,
        });
        await emitWebhook(trx, {
          type: 'matricula.ativada',
          data: eventData({ ...e, status: 'ativa' }, { ativada_em: at }),
          origin: `matricula:${e.id}`,
          at: now,
        });
        return true;
      });
    },

    /**
     * Staff: a Pix seen in the statement for a charge the person's withdrawal had called off
     * (paid, then withdrawn before staff confirmed it). The money came in, so it is recorded and
     * a refund of it enters the queue, with a mail saying when it is made.
     */
    async receivedAfterWithdrawal(e: Enrolment, paymentId: number, staffId: number, now = new Date()) {
      const at = nowIso(now);
      const prazo = nowIso(new Date(now.getTime() + REFUND_DAYS * 86_400_000));
      return repo.transaction(async (tx, trx) => {
        await tx.lock(e.id);
        if ((await tx.byId(e.id))?.status !== 'desistencia') return false;
        const payments = await tx.payments(e.id);
        const payment = payments.find((p) => p.id === paymentId && p.tipo !== 'reembolso' && p.provedor === 'pix');
        if (!payment) return false;
        if (!(await tx.settlePayment(paymentId, ['cancelado'], 'pago', { pago_em: at, usuario_id: staffId }, at)))
          return false;
        const refunds = payments.filter((p) => p.tipo === 'reembolso').length;
        await tx.addPayment({
          matricula_id: e.id,
          tipo: 'reembolso',
          valor_centavos: payment.valor_centavos,
          status: 'pendente',
          provedor: payment.provedor,
          referencia: `MAT${e.id}R${refunds + 1}`,
          prazo,
          criado_em: at,
          atualizado_em: at,
        });
        await tx.audit.record(
          {
            usuarioId: staffId,
            acao: 'confirmar_pagamento',
            entidade: 'matricula',
            entidadeId: e.id,
            depois: { pagamento: paymentId, valor_centavos: payment.valor_centavos, depois_da_desistencia: true },
          },
          at,
        );
        const detalhe = `pagamento recebido depois da desistência; reembolso de ${formatBRL(payment.valor_centavos)}`;
        await history(tx, e.id, 'desistencia', 'desistencia', 'equipe', staffId, detalhe, at);
        await enqueueMail(trx, {
          to: e.email,
          subject: `Devolução do seu Pix — ${config.brandName} ${e.unidade_nome}`,
          text: [
            `Olá, ${e.nome}.`,
            '',
            `Recebemos o seu Pix de ${formatBRL(payment.valor_centavos)} da matrícula no plano ${e.plano_nome}, ` +
              'da qual você desistiu.',
            `Ele será devolvido pelo mesmo meio de pagamento até ${formatDateTime(prazo)}.`,
            '',
            `${e.razao_social}, CNPJ ${e.cnpj}`,
          ].join('\n'),
          origin: `matricula:${e.id}`,
        });
        return true;
      });
    },

    /** Staff: a refund made by hand (pix) leaves the queue. */
    async registerRefund(e: Enrolment, paymentId: number, staffId: number, now = new Date()): Promise<boolean> {
      const at = nowIso(now);
      return repo.transaction(async (tx) => {
        const payment = (await tx.payments(e.id)).find((p) => p.id === paymentId && p.tipo === 'reembolso');
        if (!payment) return false;
        if (!(await tx.settlePayment(paymentId, ['pendente'], 'pago', { pago_em: at, usuario_id: staffId }, at)))
          return false;
        await tx.audit.record(
          {
            usuarioId: staffId,
            acao: 'registrar_reembolso',
            entidade: 'matricula',
            entidadeId: e.id,
            depois: { pagamento: paymentId, valor_centavos: payment.valor_centavos },
          },
          at,
        );
        await history(
          tx,
          e.id,
          e.status,
          e.status,
          'equipe',
          staffId,
          `reembolso de ${formatBRL(payment.valor_centavos)} feito`,
          at,
        );
        return true;
      });
    },

    /** Staff: the member was registered in the front desk's system. */
    async markFrontDesk(e: Enrolment, staffId: number, now = new Date()): Promise<boolean> {
      if (e.recepcao_em || e.status !== 'ativa') return false;
      const at = nowIso(now);
      return repo.transaction(async (tx) => {
        await tx.update(e.id, { recepcao_em: at, recepcao_por: staffId, atualizado_em: at });
        await tx.audit.record(
          { usuarioId: staffId, acao: 'registrar_recepcao', entidade: 'matricula', entidadeId: e.id },
          at,
        );
        await history(tx, e.id, e.status, e.status, 'equipe', staffId, 'cadastrada na recepção', at);
        return true;
      });
    },
  };
}

export type EnrolmentService = ReturnType<typeof createEnrolmentService>;

const IN_FORCE_MESSAGE =
  'Já existe uma matrícula em andamento com este CPF nesta unidade. ' +
  'Para vê-la, use "Minha matrícula" com o seu e-mail.';

function inForceMessage(e: Enrolment): string {
  return e.status === 'aguardando_pagamento'
    ? 'Já existe uma matrícula com este CPF nesta unidade aguardando pagamento ' +
        `(CPF ${formatCpfDigits(e.cpf)}). Pague-a ou use "Minha matrícula" com o seu e-mail.`
    : IN_FORCE_MESSAGE;
}

/** The longest a page waits for the provider's payment instructions, and an action for its follow-up. */
const INSTRUCTIONS_WAIT_MS = 8_000;
const FOLLOW_UP_WAIT_MS = 5_000;

/** The promise's value, or undefined once `ms` have passed (the work itself goes on). */
async function within<T>(ms: number, work: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Days before its due day a monthly payment made by the provider's subscription shows on the page. */
const SHOWN_BEFORE_DUE_DAYS = 10;

/** An unpaid charge the person is asked to pay now (a monthly one only near or past its due day). */
function toPayNow(p: Payment, now: Date): boolean {
  if ((p.status !== 'pendente' && p.status !== 'atrasado') || p.tipo === 'reembolso') return false;
  return p.status === 'atrasado' || !p.vencimento || p.vencimento <= addDays(saoPauloDay(now), SHOWN_BEFORE_DUE_DAYS);
}

/** A refusal inside the transaction: nothing is kept. */
class Refused extends Error {
  constructor(readonly outcome: AcceptOutcome) {
    super('enrolment refused');
  }
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '');
}
