// Public pages of the online enrolment: unit → plan → your data → summary and contract →
// payment; "Minha matrícula" (withdraw, cancel). Pure functions of props; no JavaScript needed.
import { Layout } from '../../views/layout';
import {
  bindFields,
  type BoundFields,
  Checkbox,
  EmailLinkForm,
  ErrorSummary,
  TextField,
  type TextFieldProps,
} from '../../views/form';
import { formatBRL } from '../../lib/text';
import { formatDateTime, formatDay } from '../../lib/time';
import { type ChooserProps, UnitChooserFrame } from '../catalog/unit-chooser.view';
import { CONSENT_VERSION_FIELD } from '../privacy/consent';
import { ConsentCheckbox } from '../privacy/consent.view';
import { formatCnpjDigits } from './contract';
import {
  DATA_FIELDS,
  type DataField,
  LIMITS,
  STATUS_LABELS,
  YES,
  type Enrolment,
  type EnrolmentErrors,
  type EnrolmentValues,
  type OfferPlan,
  type OfferUnit,
  type Payment,
  type Proposal,
} from './enrolment.service';
import type { PaymentInstructions } from '../../platform/payments/index';
import { MONTH_NAMES, withdrawalDeadline } from './terms';

export const FLOW_PATH = '/matricula';
export const MINE_PATH = '/matricula/minha';
export const statusPath = (codigo: string) => `${FLOW_PATH}/${codigo}`;

const LABELS: Record<keyof EnrolmentErrors, string> = {
  contrato: 'Contrato',
  nome: 'Nome completo',
  cpf: 'CPF',
  nascimento: 'Data de nascimento',
  email: 'E-mail',
  whatsapp: 'WhatsApp',
  responsavel_nome: 'Nome do responsável',
  responsavel_cpf: 'CPF do responsável',
  aceita_ofertas: 'Ofertas',
  aceite: 'Aceite do contrato',
  aceite_responsavel: 'Aceite do responsável',
};

function Steps({ at }: { at: number }) {
  const steps = ['Unidade', 'Plano', 'Seus dados', 'Resumo e contrato', 'Pagamento'];
  return (
    <ol class="steps" aria-label="Etapas da matrícula">
      {steps.map((s, i) => (
        <li key={s} aria-current={i === at ? 'step' : undefined} class={i === at ? 'current' : undefined}>
          {s}
        </li>
      ))}
    </ol>
  );
}

export function UnitChooserPage(props: ChooserProps) {
  return (
    <UnitChooserFrame
      title="Matricule-se"
      description="Escolha a unidade e o plano e faça a sua matrícula online."
      action={FLOW_PATH}
      {...props}
      empty={
        <>
          Nenhuma unidade vende planos online no momento. <a href="/aula-experimental">Agende uma aula experimental</a>.
        </>
      }
    >
      <Steps at={0} />
      <h1>Matricule-se online</h1>
      <p>Escolha a unidade, o plano, confira o contrato e pague por Pix. Leva poucos minutos.</p>
    </UnitChooserFrame>
  );
}

function feesLine(p: OfferPlan): string {
  const parts = [`Taxa de matrícula: ${p.taxa_matricula_centavos ? formatBRL(p.taxa_matricula_centavos) : 'isenta'}`];
  if (p.taxa_anual_mes && p.taxa_anual_centavos)
    parts.push(`taxa anual: ${formatBRL(p.taxa_anual_centavos)} em ${MONTH_NAMES[p.taxa_anual_mes - 1]}`);
  parts.push(p.fidelidade_meses ? `fidelidade de ${p.fidelidade_meses} meses` : 'sem fidelidade');
  return parts.join(' · ');
}

export function PlanChooserPage({
  unit,
  plans,
  whatsappHref,
}: {
  unit: OfferUnit;
  plans: OfferPlan[];
  whatsappHref: string | null;
}) {
  return (
    <Layout title={`Matricule-se · ${unit.nome}`} description={`Planos da unidade ${unit.nome} para matrícula online.`}>
      <Steps at={1} />
      <p class="breadcrumb">
        <a href={FLOW_PATH}>Unidades</a> › <a href={`/Detalhes.php?id=${unit.id}`}>{unit.nome}</a> › Plano
      </p>
      <h1>Escolha o plano</h1>
      <p>
        Unidade <strong>{unit.nome}</strong> — {unit.razao_social},{' '}
        <span class="nowrap">CNPJ {formatCnpjDigits(unit.cnpj ?? '')}</span>.
      </p>
      <ul class="plan-choices">
        {plans.map((p) => (
          <li key={p.id} class="card">
            <h2>{p.nome}</h2>
            {p.descricao ? <p>{p.descricao}</p> : null}
            <p class="price">
              <strong>{formatBRL(p.mensalidade_centavos)}</strong> por mês
            </p>
            <p class="hint">{feesLine(p)}</p>
            <p>
              <a class="button" href={`${FLOW_PATH}?unidade=${unit.id}&plano=${p.id}`}>
                Quero este plano
              </a>
            </p>
          </li>
        ))}
      </ul>
      {whatsappHref ? (
        <p>
          Prefere falar com a unidade? <a href={whatsappHref}>Chame no WhatsApp</a>.
        </p>
      ) : null}
    </Layout>
  );
}

function HiddenData({ values, keys }: { values: EnrolmentValues; keys: readonly (keyof EnrolmentValues)[] }) {
  return (
    <>
      {keys.map((k) => (
        <input key={k} type="hidden" name={k} value={values[k] ?? ''} />
      ))}
    </>
  );
}

export interface DataFormProps {
  unit: OfferUnit;
  plan: OfferPlan;
  csrfToken: string;
  envioId: string;
  values?: EnrolmentValues;
  errors?: EnrolmentErrors;
}

/** A text field of the data form: its name, labelled from LABELS, and what it asks of the browser. */
type DataInput = [name: Exclude<DataField, 'aceita_ofertas'>, attributes: Omit<TextFieldProps, 'name' | 'label'>];

const PERSON_INPUTS: DataInput[] = [
  ['nome', { autocomplete: 'name', maxLength: LIMITS.nome }],
  ['cpf', { hint: 'Só números ou com pontos e traço.', inputMode: 'numeric', autocomplete: 'off', maxLength: 14 }],
  ['nascimento', { type: 'date', autocomplete: 'bday' }],
  [
    'email',
    {
      type: 'email',
      hint: 'Enviamos o contrato e o acesso a “Minha matrícula” para ele.',
      autocomplete: 'email',
      maxLength: LIMITS.email,
    },
  ],
  [
    'whatsapp',
    {
      type: 'tel',
      hint: 'Com DDD, por exemplo (11) 98765-4321.',
      autocomplete: 'tel-national',
      maxLength: LIMITS.whatsapp,
    },
  ],
];
/** Filled only for a minor: the guardian accepts the contract. */
const GUARDIAN_INPUTS: DataInput[] = [
  ['responsavel_nome', { maxLength: LIMITS.nome }],
  ['responsavel_cpf', { inputMode: 'numeric', maxLength: 14 }],
];

function dataInput([name, attributes]: DataInput, field: BoundFields<EnrolmentValues>, required: boolean) {
  return <TextField key={name} {...attributes} {...field(name)} label={LABELS[name]} required={required} />;
}

export function DataFormPage({ unit, plan, csrfToken, envioId, values = {}, errors = {} }: DataFormProps) {
  const field = bindFields(values, errors);
  return (
    <Layout title={`Seus dados · Matrícula ${unit.nome}`} scripts={['envio-fresh.js']}>
      <Steps at={2} />
      <p class="breadcrumb">
        <a href={FLOW_PATH}>Unidades</a> › <a href={`${FLOW_PATH}?unidade=${unit.id}`}>{unit.nome}</a> › {plan.nome}
      </p>
      <h1>Seus dados</h1>
      <p>
        Plano <strong>{plan.nome}</strong> na unidade <strong>{unit.nome}</strong>:{' '}
        {formatBRL(plan.mensalidade_centavos)} por mês. No próximo passo você confere o resumo e o contrato antes de
        aceitar.
      </p>
      <ErrorSummary errors={errors as Record<string, string>} labels={LABELS} />
      <form
        method="post"
        action={`${FLOW_PATH}/resumo?unidade=${unit.id}&plano=${plan.id}`}
        novalidate
        class="card enrolment-form"
      >
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <input type="hidden" name="envio_id" value={envioId} />
        {PERSON_INPUTS.map((input) => dataInput(input, field, true))}
        <fieldset class="field">
          <legend>Menor de 18 anos?</legend>
          <p class="hint">Preencha só se quem se matricula tem menos de 18 anos: o responsável aceita o contrato.</p>
          {GUARDIAN_INPUTS.map((input) => dataInput(input, field, false))}
        </fieldset>
        <div class="field">
          <ConsentCheckbox
            purpose="matricula_ofertas"
            name="aceita_ofertas"
            value={YES}
            values={values}
            error={errors.aceita_ofertas}
          />
        </div>
        <p class="hint">
          Seus dados são usados para a matrícula, a cobrança e o acesso à unidade. Veja a{' '}
          <a href="/privacidade">política de privacidade</a>.
        </p>
        <p>
          <button type="submit">Continuar para o resumo</button>
        </p>
      </form>
    </Layout>
  );
}

/** The summary box (Decreto 7.962/2013 art. 4) and the whole contract, then the acceptance. */
export function SummaryPage(props: {
  proposal: Proposal;
  csrfToken: string;
  values: EnrolmentValues;
  errors?: EnrolmentErrors;
  demo: boolean;
}) {
  const { proposal: p, values, errors = {} } = props;
  const f = p.first;
  return (
    <Layout title={`Resumo e contrato · Matrícula ${p.unit.nome}`}>
      <Steps at={3} />
      <h1>Resumo e contrato</h1>
      <ErrorSummary errors={errors as Record<string, string>} labels={LABELS} />
      <section class="card summary-box" aria-labelledby="resumo-titulo">
        <h2 id="resumo-titulo">Resumo da contratação</h2>
        <dl>
          <dt>Unidade</dt>
          <dd>{p.unit.nome}</dd>
          <dt>Empresa que contrata com você</dt>
          <dd>
            {p.unit.razao_social}, <span class="nowrap">CNPJ {formatCnpjDigits(p.unit.cnpj)}</span>, {p.legalAddress}
          </dd>
          <dt>Plano</dt>
          <dd>{p.plan.nome}</dd>
          <dt>Primeiro pagamento</dt>
          <dd>
            <strong>{formatBRL(f.totalCents)}</strong>
            <ul class="breakdown">
              <li>Primeira mensalidade: {formatBRL(f.monthCents)}</li>
              <li>Taxa de matrícula: {f.enrolmentFeeCents ? formatBRL(f.enrolmentFeeCents) : 'isenta'}</li>
              {f.annualFeeCents ? <li>Taxa anual (vence neste mês): {formatBRL(f.annualFeeCents)}</li> : null}
            </ul>
          </dd>
          <dt>Mensalidade</dt>
          <dd>
            {formatBRL(p.plan.mensalidade_centavos)}, todo dia {f.billingDay}
            {p.plan.taxa_anual_mes && p.plan.taxa_anual_centavos
              ? `; taxa anual de ${formatBRL(p.plan.taxa_anual_centavos)} em ${MONTH_NAMES[p.plan.taxa_anual_mes - 1]}`
              : ''}
          </dd>
          <dt>Prazo e multa</dt>
          <dd>
            {p.plan.fidelidade_meses
              ? `Fidelidade de ${p.plan.fidelidade_meses} meses. Cancelando antes, multa de ` +
                `${p.plan.multa_percentual}% da mensalidade por mês que faltar.`
              : 'Sem fidelidade e sem multa de cancelamento.'}
          </dd>
          <dt>Como desistir</dt>
          <dd>
            Até {formatDay(p.withdrawUntil)} (7 dias), em “Minha matrícula” neste site: devolvemos tudo o que você
            pagou, taxas incluídas.
          </dd>
          <dt>Como cancelar</dt>
          <dd>
            Depois disso, também em “Minha matrícula”: você recebe um protocolo, vê a multa (se houver) antes de
            confirmar, e o cancelamento vale no fim do período já pago.
          </dd>
        </dl>
      </section>
      <section class="card contract" aria-labelledby="contrato-titulo">
        <h2 id="contrato-titulo">Contrato (versão {p.contract.versao})</h2>
        {errors.contrato ? (
          <p class="alert alert-error" role="alert">
            {errors.contrato}
          </p>
        ) : null}
        <pre class="contract-text" tabIndex={0}>
          {p.contract.texto}
        </pre>
      </section>
      <form method="post" action={`${FLOW_PATH}?unidade=${p.unit.id}&plano=${p.plan.id}`} novalidate class="card">
        <input type="hidden" name="csrf_token" value={props.csrfToken} />
        <HiddenData values={values} keys={['envio_id', ...DATA_FIELDS, CONSENT_VERSION_FIELD]} />
        <input type="hidden" name="contrato_versao" value={String(p.contract.versao)} />
        <input type="hidden" name="contrato_sha256" value={p.contract.sha256} />
        <div class="field">
          <Checkbox name="aceite" value={YES} checked={false} required error={errors.aceite}>
            Li o resumo e o contrato acima e aceito as condições.
          </Checkbox>
        </div>
        {p.person.minor ? (
          <div class="field">
            <Checkbox name="aceite_responsavel" value={YES} checked={false} required error={errors.aceite_responsavel}>
              Eu, {p.person.responsavelNome}, responsável, li e aceito o contrato em nome de {p.person.nome}.
            </Checkbox>
          </div>
        ) : null}
        {props.demo ? (
          <p class="alert" role="note">
            Demonstração: o Pix da próxima página usa uma chave de teste; nada será cobrado.
          </p>
        ) : null}
        <p>
          <button type="submit">Aceitar e pagar {formatBRL(f.totalCents)}</button>
        </p>
        <p class="hint">
          <a href={`${FLOW_PATH}?unidade=${p.unit.id}&plano=${p.plan.id}`}>Corrigir meus dados</a>
        </p>
      </form>
    </Layout>
  );
}

function PixBox({
  payment,
  pix,
  enrolment,
  csrfToken,
}: {
  payment: Payment;
  pix: PaymentInstructions;
  enrolment: Enrolment;
  csrfToken?: string;
}) {
  return (
    <section class="card pix" aria-labelledby={`pix-${payment.id}`}>
      <h2 id={`pix-${payment.id}`}>
        Pague {formatBRL(payment.valor_centavos)}{' '}
        {pix.copyPaste ? `com Pix${pix.cardUrl ? ' ou cartão' : ''}` : 'com cartão'}
        {pix.demo ? ' (demonstração)' : ''}
      </h2>
      {pix.demo ? (
        <p class="alert" role="note">
          Demonstração: esta chave Pix é de teste e não recebe pagamentos.
        </p>
      ) : null}
      {pix.copyPaste ? (
        <>
          <div class="pix-qr" role="img" aria-label="QR code do Pix" dangerouslySetInnerHTML={{ __html: pix.qrSvg }} />
          <label for={`pix-code-${payment.id}`}>Pix copia e cola</label>
          <textarea id={`pix-code-${payment.id}`} readOnly rows={4} class="pix-code" data-pix-code>
            {pix.copyPaste}
          </textarea>
          <p class="hint">
            No app do seu banco, escolha Pix › Pix copia e cola, ou leia o QR code. O valor já vem preenchido.
          </p>
        </>
      ) : null}
      {pix.authorizationId ? (
        <>
          <p class="hint" data-pix-automatico>
            Pix Automático: ao pagar este Pix você autoriza o débito da mensalidade de{' '}
            {formatBRL(enrolment.mensalidade_centavos)} todo dia {enrolment.dia_vencimento}, direto na sua conta. Você
            pode cancelar a autorização no app do seu banco.
          </p>
          {csrfToken ? (
            <form method="post" action={`${statusPath(enrolment.codigo)}/cartao`} class="pay-card">
              <input type="hidden" name="csrf_token" value={csrfToken} />
              Prefere cartão de crédito?{' '}
              <button type="submit" class="secondary">
                Pagar com cartão
              </button>{' '}
              <span class="hint">na página segura do nosso processador de pagamentos; este Pix deixa de valer.</span>
            </form>
          ) : null}
        </>
      ) : null}
      {pix.cardUrl ? (
        <p class="pay-card">
          Prefere cartão de crédito?{' '}
          <a class="button secondary" href={pix.cardUrl} rel="noopener noreferrer" data-pay-card>
            Pagar com cartão
          </a>{' '}
          <span class="hint">
            na página segura do nosso processador de pagamentos; o cartão não passa por este site.
          </span>
        </p>
      ) : null}
    </section>
  );
}

/** What /matricula/:codigo/situacao.json answers, also drawn on the page for its script to compare. */
export const situationKey = (status: string, pending: number) => `${status}:${pending}`;

export function StatusPage(props: {
  enrolment: Enrolment;
  pending: Payment[];
  instructions: Map<number, PaymentInstructions>;
  confirmsAutomatically: boolean;
  unavailable?: boolean;
  /** for the "Pagar com cartão" form of a Pix Automático QR code */
  csrfToken?: string;
}) {
  const e = props.enrolment;
  const watching = props.confirmsAutomatically && props.pending.length > 0;
  const scripts = props.pending.length ? ['pix-copy.js', ...(watching ? ['payment-status.js'] : [])] : [];
  return (
    <Layout title={`Matrícula · ${e.unidade_nome}`} scripts={scripts}>
      {e.status === 'aguardando_pagamento' ? <Steps at={4} /> : null}
      <h1>
        {e.status === 'aguardando_pagamento'
          ? 'Falta só o pagamento'
          : `Matrícula: ${STATUS_LABELS[e.status].toLowerCase()}`}
      </h1>
      <dl class="card booking-summary">
        <dt>Situação</dt>
        <dd data-status={e.status}>{STATUS_LABELS[e.status]}</dd>
        <dt>Plano</dt>
        <dd>
          {e.plano_nome} · {e.unidade_nome}
        </dd>
        <dt>Empresa</dt>
        <dd>
          {e.razao_social}, <span class="nowrap">CNPJ {formatCnpjDigits(e.cnpj)}</span>
        </dd>
        <dt>Mensalidade</dt>
        <dd>
          {formatBRL(e.mensalidade_centavos)}, todo dia {e.dia_vencimento}
        </dd>
        {e.protocolo ? (
          <>
            <dt>Protocolo de cancelamento</dt>
            <dd>{e.protocolo}</dd>
          </>
        ) : null}
      </dl>
      {e.inadimplente_desde ? (
        <p class="alert alert-error" role="alert">
          Há mensalidade vencida. Pague abaixo para manter a matrícula em dia.
        </p>
      ) : null}
      {props.unavailable ? (
        <p class="alert alert-error" role="alert">
          Não foi possível gerar o pagamento agora. Recarregue a página em alguns instantes.
        </p>
      ) : null}
      <div
        data-payment-status={watching ? `${statusPath(e.codigo)}/situacao.json` : undefined}
        data-status={watching ? situationKey(e.status, props.pending.length) : undefined}
      >
        {props.pending.map((p) => {
          const pix = props.instructions.get(p.id);
          return pix ? <PixBox key={p.id} payment={p} pix={pix} enrolment={e} csrfToken={props.csrfToken} /> : null;
        })}
      </div>
      {e.status === 'aguardando_pagamento' ? (
        <p>
          {props.confirmsAutomatically
            ? 'Assim que o pagamento for recebido, esta página mostra a matrícula ativa.'
            : 'A unidade confere o pagamento no extrato e ativa a sua matrícula, em geral no mesmo dia útil. ' +
              'Você recebe um e-mail.'}{' '}
          Sem pagamento até {formatDateTime(e.expira_em ?? e.criado_em)}, a matrícula expira e nada é cobrado.
        </p>
      ) : null}
      <p>
        Para desistir (até {formatDay(withdrawalDeadline(e.aceito_em))}) ou cancelar:{' '}
        <a href={MINE_PATH}>Minha matrícula</a>.
      </p>
    </Layout>
  );
}

/** Production without a way to pay online: no dead end. */
export function ClosedPage({ whatsappHref }: { whatsappHref: string | null }) {
  return (
    <Layout title="Matricule-se">
      <h1>Matrícula</h1>
      <p>A matrícula online não está disponível agora. Você pode:</p>
      <ul>
        <li>
          <a href="/aula-experimental">agendar uma aula experimental grátis</a> e se matricular na unidade;
        </li>
        {whatsappHref ? (
          <li>
            <a href={whatsappHref}>falar com a gente pelo WhatsApp</a>.
          </li>
        ) : null}
      </ul>
    </Layout>
  );
}

export function MineRequestPage(props: { csrfToken: string; sent?: boolean; email?: string; error?: string }) {
  return (
    <Layout title="Minha matrícula">
      <h1>Minha matrícula</h1>
      <p>
        Veja a sua matrícula, desista em até 7 dias com devolução integral ou peça o cancelamento. Informe o e-mail
        usado na matrícula: enviamos um link de acesso que vale uma vez.
      </p>
      {props.sent ? (
        <p class="alert alert-ok" role="status">
          Se houver matrícula com este e-mail, o link chega em alguns minutos. Confira também a caixa de spam.
        </p>
      ) : null}
      <EmailLinkForm
        action={MINE_PATH}
        class="card"
        csrfToken={props.csrfToken}
        email={props.email}
        error={props.error}
        button="Enviar link de acesso"
      />
    </Layout>
  );
}

export function MineEnterPage({ token, csrfToken, usable }: { token: string; csrfToken: string; usable: boolean }) {
  return (
    <Layout title="Minha matrícula">
      <h1>Minha matrícula</h1>
      {usable ? (
        <form method="post" action={`${MINE_PATH}/entrar`} class="card">
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <input type="hidden" name="token" value={token} />
          <p>Este link abre a sua matrícula por 1 hora.</p>
          <p>
            <button type="submit">Abrir minha matrícula</button>
          </p>
        </form>
      ) : (
        <p class="alert alert-error" role="alert">
          Este link já foi usado ou expirou. <a href={MINE_PATH}>Peça um novo link</a>.
        </p>
      )}
    </Layout>
  );
}

export interface MineItem {
  enrolment: Enrolment;
  payments: Payment[];
  canWithdraw: boolean;
  canCancel: boolean;
}

const PAYMENT_LABELS: Record<string, string> = {
  primeiro: 'Primeiro pagamento',
  mensalidade: 'Mensalidade',
  multa: 'Multa de cancelamento',
  anuidade: 'Taxa anual',
  reembolso: 'Devolução',
};
/** "Mensalidade (pago)": a payment's kind in words; its status already reads as stored. */
export const paymentLabel = (p: Pick<Payment, 'tipo' | 'status'>) =>
  `${PAYMENT_LABELS[p.tipo] ?? p.tipo} (${p.status})`;

export function MinePanelPage({ items, csrfToken, notice }: { items: MineItem[]; csrfToken: string; notice?: string }) {
  return (
    <Layout title="Minha matrícula">
      <h1>Minha matrícula</h1>
      {notice ? (
        <p class="alert alert-ok" role="status">
          {notice}
        </p>
      ) : null}
      {items.length ? null : <p>Nenhuma matrícula com este e-mail.</p>}
      {items.map(({ enrolment: e, payments, canWithdraw, canCancel }) => (
        <section key={e.id} class="card enrolment-section" aria-labelledby={`m-${e.id}`}>
          <h2 id={`m-${e.id}`}>
            {e.plano_nome} · {e.unidade_nome}
          </h2>
          <p>
            Situação: <strong data-status={e.status}>{STATUS_LABELS[e.status]}</strong>. Aceita em{' '}
            {formatDateTime(e.aceito_em)}
            {e.protocolo ? `. Protocolo de cancelamento: ${e.protocolo}` : ''}
            {e.cancelamento_efetivo_em ? `, vale a partir de ${formatDay(e.cancelamento_efetivo_em)}` : ''}.
          </p>
          <ul>
            {payments.map((p) => (
              <li key={p.id}>
                {paymentLabel(p)}: {formatBRL(p.valor_centavos)}
                {p.tipo === 'reembolso' && p.prazo && p.status === 'pendente'
                  ? ` — até ${formatDateTime(p.prazo)}`
                  : ''}
              </li>
            ))}
          </ul>
          <p>
            <a href={statusPath(e.codigo)}>Ver pagamento e contrato aceito</a>
          </p>
          {canWithdraw ? (
            <form method="post" action={`${MINE_PATH}/${e.codigo}/desistir`}>
              <input type="hidden" name="csrf_token" value={csrfToken} />
              <p>
                Você pode desistir até {formatDay(withdrawalDeadline(e.aceito_em))} e receber de volta tudo o que pagou.
              </p>
              <button type="submit" class="danger">
                Desistir da matrícula
              </button>
            </form>
          ) : null}
          {canCancel ? (
            <p>
              <a class="button secondary" href={`${MINE_PATH}/${e.codigo}/cancelar`}>
                Solicitar cancelamento
              </a>
            </p>
          ) : null}
        </section>
      ))}
    </Layout>
  );
}

export function CancelConfirmPage(props: {
  enrolment: Enrolment;
  quote: { effectiveDay: string; monthsLeft: number; fineCents: number };
  csrfToken: string;
}) {
  const { enrolment: e, quote } = props;
  return (
    <Layout title="Solicitar cancelamento">
      <h1>Solicitar cancelamento</h1>
      <section class="card enrolment-section">
        <p>
          Plano <strong>{e.plano_nome}</strong> na unidade <strong>{e.unidade_nome}</strong>.
        </p>
        <dl class="details">
          <dt>Vale a partir de</dt>
          <dd>{formatDay(quote.effectiveDay)} (fim do período já pago)</dd>
          <dt>Multa</dt>
          <dd data-fine={quote.fineCents}>
            {quote.fineCents
              ? `${formatBRL(quote.fineCents)}: ${e.multa_percentual}% de ${formatBRL(e.mensalidade_centavos)} × ` +
                `${quote.monthsLeft} ${quote.monthsLeft === 1 ? 'mês restante' : 'meses restantes'} ` +
                `da fidelidade de ${e.fidelidade_meses} meses, conforme o contrato.`
              : 'Sem multa.'}
          </dd>
        </dl>
        <form method="post" action={`${MINE_PATH}/${e.codigo}/cancelar`}>
          <input type="hidden" name="csrf_token" value={props.csrfToken} />
          <button type="submit" class="danger">
            Confirmar cancelamento
          </button>{' '}
          <a href={`${MINE_PATH}/painel`}>Voltar</a>
        </form>
      </section>
    </Layout>
  );
}
