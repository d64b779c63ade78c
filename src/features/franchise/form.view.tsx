import { Layout, siteName } from '../../views/layout';
import { bindFields, ErrorSummary, errorId, FieldMessage, TextField } from '../../views/form';
import { ENVIO_FIELD } from '../../lib/form/index';
import type { LeadErrors, LeadValues } from './lead.service';
import { CONSENT_VALUE, LIMITS, OPTION_FIELDS, type Option, type OptionField, TEXT_FIELD_LABELS } from './options';
import { ConsentCheckbox } from '../privacy/consent.view';

export const HONEYPOT_FIELD = 'site_empresa';

export interface FranchiseFormProps {
  csrfToken: string;
  /** one per rendered form: a second POST of it is not stored again */
  envioId: string;
  values?: LeadValues;
  errors?: LeadErrors;
}

interface TextInput {
  name: 'nome_completo' | 'whatsapp' | 'email' | 'cidade_regiao';
  type: string;
  hint?: string;
  autocomplete: string;
  inputMode?: 'tel';
  maxLength: number;
}

function LeadTextField(props: TextInput & { value?: string; error?: string }) {
  return <TextField {...props} label={TEXT_FIELD_LABELS[props.name]} required />;
}

/** Section 1 of the form, "Sobre você": its text fields in order. */
const ABOUT_YOU: TextInput[] = [
  { name: 'nome_completo', type: 'text', autocomplete: 'name', maxLength: LIMITS.nome_completo },
  {
    name: 'whatsapp',
    type: 'tel',
    hint: 'Com DDD, por exemplo (11) 98765-4321.',
    autocomplete: 'tel-national',
    inputMode: 'tel',
    maxLength: LIMITS.whatsapp,
  },
  { name: 'email', type: 'email', autocomplete: 'email', maxLength: LIMITS.email },
];

function OptionGroup({
  field,
  value,
  error,
}: {
  field: Exclude<OptionField, 'aceita_contato'>;
  value?: string;
  error?: string;
}) {
  const def = OPTION_FIELDS[field];
  return (
    <fieldset id={`${field}-grupo`} aria-describedby={error ? errorId(field) : undefined}>
      <legend>{def.label}</legend>
      <FieldMessage id={field} message={error} />
      {(def.options as readonly Option[]).map((o, i) => (
        <label class="choice" key={o.value}>
          <input
            type="radio"
            name={field}
            value={o.value}
            checked={value === o.value}
            required={i === 0}
            id={i === 0 ? field : undefined}
            aria-invalid={error ? 'true' : undefined}
          />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

const FIELD_ORDER: { name: string; label: string }[] = [
  { name: 'nome_completo', label: TEXT_FIELD_LABELS.nome_completo },
  { name: 'whatsapp', label: TEXT_FIELD_LABELS.whatsapp },
  { name: 'email', label: TEXT_FIELD_LABELS.email },
  { name: 'cidade_regiao', label: TEXT_FIELD_LABELS.cidade_regiao },
  ...(Object.keys(OPTION_FIELDS) as OptionField[]).map((f) => ({ name: f, label: OPTION_FIELDS[f].label })),
];

export function FranchiseFormPage({ csrfToken, envioId, values = {}, errors = {} }: FranchiseFormProps) {
  const consent = OPTION_FIELDS.aceita_contato.options.find((o) => o.value === CONSENT_VALUE)!;
  const field = bindFields(values, errors);
  return (
    <Layout
      title="Seja um franqueado"
      description={
        `Leve a ${siteName()} para a sua cidade: ` + 'conheça o modelo de franquia e fale com a equipe de expansão.'
      }
      scripts={['franchise-form.js', 'envio-fresh.js']}
      canonical="/pages/Franquia/index.php"
    >
      <section class="franchise-intro">
        <h1>Seja um franqueado {siteName()}</h1>
        <p>
          Somos uma rede de academias com unidades em várias cidades do Brasil. Procuramos parceiros que queiram levar
          musculação, aulas coletivas e atendimento de qualidade para a sua região.
        </p>
        <p>
          <a class="button" href="#form-titulo">
            Quero ser franqueado
          </a>
        </p>
        <div class="grid grid-3">
          <div class="card">
            <h2>Modelo comprovado</h2>
            <p>Padrões de operação, compras e tecnologia que já funcionam nas nossas unidades.</p>
          </div>
          <div class="card">
            <h2>Apoio do início ao fim</h2>
            <p>Escolha do ponto, projeto, inauguração, treinamento da equipe e marketing local.</p>
          </div>
          <div class="card">
            <h2>Como funciona</h2>
            <p>Você preenche o formulário, a equipe de expansão entra em contato e apresenta a proposta em detalhes.</p>
          </div>
        </div>
      </section>

      <section class="card" aria-labelledby="form-titulo">
        <h2 id="form-titulo">Quero saber mais</h2>
        <p class="hint">
          São 4 passos curtos, todos obrigatórios. Seus dados são usados apenas pela equipe de expansão:{' '}
          <a href="/privacidade">veja como cuidamos deles</a>.
        </p>
        <ErrorSummary
          errors={errors as Record<string, string>}
          labels={Object.fromEntries(FIELD_ORDER.map((f) => [f.name, f.label]))}
        />
        <form method="post" action="/pages/Franquia/index.php" novalidate class="franchise-form">
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <input type="hidden" name={ENVIO_FIELD} value={envioId} />
          <fieldset class="form-section">
            <legend>1. Sobre você</legend>
            <p class="section-why">Para a equipe de expansão saber com quem falar e como responder.</p>
            {ABOUT_YOU.map((input) => (
              <LeadTextField key={input.name} {...input} {...field(input.name)} />
            ))}
          </fieldset>
          <fieldset class="form-section">
            <legend>2. Onde</legend>
            <p class="section-why">Para avaliarmos o mercado e os pontos disponíveis na região.</p>
            <LeadTextField
              {...field('cidade_regiao')}
              type="text"
              hint="Onde você gostaria de abrir a unidade."
              autocomplete="address-level2"
              maxLength={LIMITS.cidade_regiao}
            />
          </fieldset>
          <fieldset class="form-section">
            <legend>3. Investimento</legend>
            <p class="section-why">Para indicarmos o formato de unidade que cabe no seu plano.</p>
            <InvestmentRanges />
            {(['investimento_parceria', 'faixa_investimento'] as const).map((f) => (
              <OptionGroup key={f} field={f} value={values[f]} error={errors[f]} />
            ))}
          </fieldset>
          <fieldset class="form-section">
            <legend>4. Seu momento</legend>
            <p class="section-why">Para prepararmos a conversa certa, no tempo certo para você.</p>
            {(['prazo_proximo_passo', 'experiencia_negocio', 'motivo_interesse'] as const).map((f) => (
              <OptionGroup key={f} field={f} value={values[f]} error={errors[f]} />
            ))}
          </fieldset>
          <fieldset aria-describedby={errors.aceita_contato ? errorId('aceita_contato') : undefined}>
            <legend>{OPTION_FIELDS.aceita_contato.label}</legend>
            <ConsentCheckbox
              purpose="franquia"
              name="aceita_contato"
              value={consent.value}
              values={values}
              required
              error={errors.aceita_contato}
              describedByGroup
            >
              {' '}
              <a href="/privacidade">Aviso de privacidade</a>: o que guardamos, por quê, por quanto tempo e a quem
              pedir.
            </ConsentCheckbox>
          </fieldset>

          {/* Honeypot: hidden from people and assistive technology; bots fill it. */}
          <div class="hp" aria-hidden="true">
            <label for={HONEYPOT_FIELD}>Não preencha este campo</label>
            <input type="text" id={HONEYPOT_FIELD} name={HONEYPOT_FIELD} tabIndex={-1} autocomplete="off" value="" />
          </div>

          <p>
            <button type="submit">Enviar meu interesse</button>
          </p>
        </form>
      </section>
    </Layout>
  );
}

/** What each investment range usually means: a reference, confirmed in the presentation. */
function InvestmentRanges() {
  return (
    <details class="ranges">
      <summary>O que cada faixa de investimento permite</summary>
      <ul>
        <li>
          <strong>Até R$ 300 mil:</strong> estúdio compacto (funcional, pilates ou lutas), de 150 a 300 m².
        </li>
        <li>
          <strong>De R$ 300 mil a R$ 500 mil:</strong> unidade de bairro com musculação e cardio, de 400 a 600 m².
        </li>
        <li>
          <strong>De R$ 500 mil a R$ 1 milhão:</strong> unidade completa com salas de aulas coletivas, de 800 a 1.200
          m².
        </li>
        <li>
          <strong>Acima de R$ 1 milhão:</strong> unidade com piscina, ou mais de uma unidade na região.
        </li>
      </ul>
      <p class="hint">
        Valores de referência, incluindo obras, equipamentos e capital de giro; a proposta detalha o seu caso.
      </p>
    </details>
  );
}

export function ThankYouPage() {
  return (
    <Layout
      title="Interesse recebido"
      description={`A equipe de expansão da ${siteName()} recebeu o seu interesse em abrir uma franquia.`}
      canonical="/pages/Franquia/obrigado.php"
    >
      <section class="card">
        <h1>Obrigado! Recebemos o seu interesse.</h1>
        <p>
          A equipe de expansão da {siteName()} vai analisar as suas respostas e entrar em contato em breve pelo WhatsApp
          ou e-mail informados.
        </p>
        <p>
          <a class="button" href="/">
            Voltar para a página inicial
          </a>
        </p>
      </section>
    </Layout>
  );
}
