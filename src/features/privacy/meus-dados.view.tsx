// "Meus dados" pages (public, pt-BR, no JavaScript needed): the e-mail form, the same
// answer for every address, the link's page (a button: mail scanners that open links do not
// use it up), the page of a link that no longer works, and the person's page.
import type { ComponentChildren } from 'preact';
import { ENVIO_FIELD } from '../../lib/form/index';
import { formatDateTime } from '../../lib/time';
import { Checkbox, Csrf, EmailLinkForm, ErrorSummary, TextField } from '../../views/form';
import { Layout, siteName } from '../../views/layout';
import { DataTable } from '../../views/table';
import type { KindSummary } from './person-data.service';
import { CORRECTION_MAX, LINK_PATH, MEUS_DADOS_PATH } from './meus-dados.service';
import { MINE_PATH as ENROLMENT_MINE_PATH } from '../enrolment/enrolment.view';
import { ENROLMENT_RETENTION_TEXT } from './retention';

/** The pages before the person's own: a short article under the page's title, and where to go next. */
function ProsePage(p: {
  title: string;
  description?: string;
  next?: { href: string; label: string };
  children: ComponentChildren;
}) {
  return (
    <Layout title={p.title} description={p.description}>
      <article class="prose">
        <h1>{p.title}</h1>
        {p.children}
        {p.next ? (
          <p>
            <a href={p.next.href}>{p.next.label}</a>
          </p>
        ) : null}
      </article>
    </Layout>
  );
}

export function RequestLinkPage(p: { csrfToken: string; email?: string; error?: string; notice?: string }) {
  return (
    <ProsePage
      title="Meus dados"
      description="Veja, baixe, corrija ou peça a eliminação dos seus dados."
      next={{ href: '/privacidade', label: 'Aviso de privacidade' }}
    >
      <p>
        Pela Lei Geral de Proteção de Dados (LGPD), você pode saber quais dados a {siteName()} guarda sobre você,
        receber uma cópia, pedir correção ou pedir a eliminação. Informe o e-mail que você usou nos formulários do site:
        enviaremos um link para ele. Não pedimos senha.
      </p>
      {p.notice ? (
        <p class="alert alert-error" role="alert">
          {p.notice}
        </p>
      ) : null}
      <ErrorSummary errors={p.error ? { email: p.error } : undefined} labels={{ email: 'E-mail' }} />
      <EmailLinkForm
        action={MEUS_DADOS_PATH}
        csrfToken={p.csrfToken}
        email={p.email}
        error={p.error}
        inputMode="email"
        button="Enviar link"
      />
    </ProsePage>
  );
}

export function LinkSentPage() {
  return (
    <ProsePage title="Verifique o seu e-mail" next={{ href: '/privacidade', label: 'Voltar ao aviso de privacidade' }}>
      <p role="status">
        Se houver dados ligados a este endereço, enviamos para ele um link para ver os seus dados. O link vale por 24
        horas e pode ser usado uma única vez. Não recebeu? Verifique a caixa de spam ou peça de novo mais tarde.
      </p>
    </ProsePage>
  );
}

export function OpenLinkPage(p: { csrfToken: string; token: string }) {
  return (
    <ProsePage title="Meus dados">
      <p>Este link abre a página dos seus dados por uma hora. Ele só pode ser usado uma vez.</p>
      <form method="post" action={LINK_PATH}>
        <Csrf token={p.csrfToken} />
        <input type="hidden" name="token" value={p.token} />
        <button type="submit">Ver meus dados</button>
      </form>
    </ProsePage>
  );
}

export function InvalidLinkPage() {
  return (
    <ProsePage title="Link inválido ou expirado" next={{ href: MEUS_DADOS_PATH, label: 'Pedir um novo link' }}>
      <p>
        Este link não vale mais: ele pode ser usado uma única vez, por 24 horas, e a página aberta com ele fica
        disponível por uma hora.
      </p>
    </ProsePage>
  );
}

const NOTICES: Record<string, string> = {
  correcao: 'Pedido de correção recebido. A equipe responde em até 15 dias.',
  eliminacao: 'Pedido de eliminação recebido. A equipe conclui em até 15 dias e avisa por e-mail se precisar.',
  revogacao:
    'Consentimento revogado. A partir de agora não enviaremos respostas por e-mail às suas mensagens nem lembretes ' +
    'de aula experimental. Se você preencher um formulário de novo e autorizar o contato, vale a nova autorização.',
};

/** How the person's page names the columns (the ZIP keeps the column names). */
const COLUMN_LABELS: Record<string, string> = {
  id: 'Número',
  nome_completo: 'Nome',
  nome: 'Nome',
  nome_cliente: 'Nome',
  email: 'E-mail',
  contato_email: 'E-mail',
  whatsapp: 'WhatsApp',
  telefone: 'Telefone',
  contato_telefone: 'Telefone',
  contato_cliente: 'Contato',
  cidade_regiao: 'Cidade',
  mensagem: 'Mensagem',
  comentario: 'Comentário',
  texto: 'Texto',
  destinatario: 'Enviada para',
  canal: 'Canal',
  unidade: 'Unidade',
  unidade_id: 'Unidade (número)',
  status: 'Situação',
  criado_em: 'Quando',
  atualizado_em: 'Atualizado em',
  inicio_em: 'Início da aula',
  atividade: 'Atividade',
  nota_nps: 'Nota (0 a 10)',
  origem: 'Por onde',
  aceita_contato: 'Aceitou contato',
  aceite_contato: 'Aceitou contato',
  anonimo: 'Anônima',
  primeira_resposta_em: 'Primeira resposta',
  nome_original: 'Arquivo',
  tipo: 'Tipo',
  tamanho: 'Tamanho (bytes)',
  largura: 'Largura',
  altura: 'Altura',
  fale_aqui_id: 'Mensagem (número)',
  lead_id: 'Contato (número)',
  resposta_id: 'Pesquisa (número)',
  pergunta_id: 'Pergunta (número)',
  opcao_id: 'Opção (número)',
  prazo_em: 'Prazo',
  concluida_em: 'Concluído em',
  titular: 'Pessoa',
  motivo: 'Observação',
  papel: 'Papel',
  ativo: 'Ativa',
  cpf: 'CPF',
  nascimento: 'Nascimento',
  aceita_marketing: 'Aceitou ofertas',
  responsavel_nome: 'Responsável',
  responsavel_cpf: 'CPF do responsável',
  contrato_texto: 'Contrato aceito',
  aceite_ip: 'Aceite: endereço IP',
  aceite_user_agent: 'Aceite: navegador',
  unidade_nome: 'Unidade',
  razao_social: 'Empresa (razão social)',
  cnpj: 'CNPJ',
  plano_nome: 'Plano',
  mensalidade_centavos: 'Mensalidade (centavos)',
  taxa_matricula_centavos: 'Taxa de matrícula (centavos)',
  taxa_anual_centavos: 'Taxa anual (centavos)',
  primeiro_pagamento_centavos: 'Primeiro pagamento (centavos)',
  dia_vencimento: 'Dia de vencimento',
  fidelidade_meses: 'Fidelidade (meses)',
  multa_percentual: 'Multa (%)',
  contrato_versao: 'Versão do contrato',
  contrato_sha256: 'SHA-256 do contrato',
  aceito_em: 'Aceito em',
  ativada_em: 'Ativada em',
  pago_ate: 'Pago até',
  desistencia_em: 'Desistência em',
  protocolo: 'Protocolo de cancelamento',
  cancelamento_solicitado_em: 'Cancelamento pedido em',
  cancelamento_efetivo_em: 'Cancelamento vale a partir de',
  multa_centavos: 'Multa (centavos)',
  matricula_id: 'Matrícula (número)',
  valor_centavos: 'Valor (centavos)',
  prazo: 'Prazo',
  pago_em: 'Pago em',
};

/** On the erasure forms when the person has an online enrolment: what stays, for how long and why. */
export function EnrolmentKept({ overview }: { overview: KindSummary[] }) {
  if (!overview.some((k) => k.kind === 'matriculas')) return null;
  return (
    <p>
      <strong>Matrícula online:</strong> a eliminação apaga o WhatsApp e a autorização para receber ofertas, mas{' '}
      {ENROLMENT_RETENTION_TEXT}. Para desistir ou cancelar a matrícula, use{' '}
      <a href={ENROLMENT_MINE_PATH}>Minha matrícula</a>.
    </p>
  );
}

function cell(v: unknown) {
  if (v === null || v === undefined || v === '') return <span class="muted">—</span>;
  const s = String(v);
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s)) return formatDateTime(s);
  return s.length > 300 ? `${s.slice(0, 300)}…` : s;
}

export function KindTables({ overview }: { overview: KindSummary[] }) {
  if (!overview.length) return <p>Não encontramos dados ligados a este endereço.</p>;
  return (
    <>
      {overview.map((k) => {
        const columns = Object.keys(k.rows[0] ?? {});
        return (
          <section key={k.kind} aria-labelledby={`tipo-${k.kind}`}>
            <h3 id={`tipo-${k.kind}`}>
              {k.label} ({k.rows.length})
            </h3>
            <DataTable
              label={k.label}
              columns={columns.map((c) => COLUMN_LABELS[c] ?? c)}
              rows={k.rows}
              row={(r, i) => (
                <tr key={i}>
                  {columns.map((c) => (
                    <td key={c}>{cell(r[c])}</td>
                  ))}
                </tr>
              )}
            />
          </section>
        );
      })}
    </>
  );
}

/** The person's requests: the heading (and its id) and the button of each, by the path it posts to. */
const REQUESTS = {
  correcao: { id: 'corrigir', title: 'Pedir correção', button: 'Enviar pedido de correção' },
  revogacao: { id: 'revogar', title: 'Revogar o consentimento de contato', button: 'Revogar o consentimento' },
  eliminacao: { id: 'eliminar', title: 'Pedir eliminação', button: 'Enviar pedido de eliminação' },
} as const;
type RequestKind = keyof typeof REQUESTS;

/**
 * One of the person's requests: its heading, what it does (`children`), and its form, sent
 * at most once (ENVIO_FIELD); a form with `fields` is checked by the server only (novalidate).
 */
function RequestSection(p: {
  kind: RequestKind;
  csrfToken: string;
  envioIds: Record<RequestKind, string>;
  fields?: ComponentChildren;
  children?: ComponentChildren;
}) {
  const request = REQUESTS[p.kind];
  return (
    <section class="card" aria-labelledby={request.id}>
      <h2 id={request.id}>{request.title}</h2>
      {p.children}
      <form method="post" action={`${MEUS_DADOS_PATH}/${p.kind}`} novalidate={p.fields ? true : undefined}>
        <Csrf token={p.csrfToken} />
        <input type="hidden" name={ENVIO_FIELD} value={p.envioIds[p.kind]} />
        {p.fields}
        <p>
          <button type="submit">{request.button}</button>
        </p>
      </form>
    </section>
  );
}

export function PanelPage(p: {
  csrfToken: string;
  email: string;
  overview: KindSummary[];
  envioIds: Record<RequestKind, string>;
  notice?: string;
  errors?: Record<string, string>;
  correcao?: string;
}) {
  const errors = p.errors ?? {};
  const notice = p.notice ? NOTICES[p.notice] : undefined;
  const session = { csrfToken: p.csrfToken, envioIds: p.envioIds };
  return (
    <Layout title="Meus dados">
      <h1>Meus dados</h1>
      <p>
        Dados que a {siteName()} guarda ligados a <strong>{p.email}</strong>.
      </p>
      {notice ? (
        <p class="alert alert-ok" role="status">
          {notice}
        </p>
      ) : null}
      <ErrorSummary errors={p.errors} labels={{ correcao: 'O que corrigir', confirmar: 'Confirmação da eliminação' }} />
      <section aria-labelledby="o-que-guardamos">
        <h2 id="o-que-guardamos">O que guardamos</h2>
        <KindTables overview={p.overview} />
      </section>

      <section class="card" aria-labelledby="baixar">
        <h2 id="baixar">Baixar tudo</h2>
        <p>Um arquivo ZIP com os dados em JSON e em CSV (abre em planilhas) e as fotos que você enviou.</p>
        <form method="post" action={`${MEUS_DADOS_PATH}/arquivo`}>
          <Csrf token={p.csrfToken} />
          <button type="submit">Baixar meus dados (ZIP)</button>
        </form>
      </section>

      <RequestSection
        kind="correcao"
        {...session}
        fields={
          <TextField
            name="correcao"
            type="textarea"
            label="O que corrigir"
            hint="Diga qual dado está errado e como deve ficar."
            value={p.correcao}
            error={errors.correcao}
            maxLength={CORRECTION_MAX}
            required
          />
        }
      />

      <RequestSection kind="revogacao" {...session}>
        <p>
          Você autorizou a {siteName()} a falar com você quando preencheu os formulários. Ao revogar, deixamos de
          responder às suas mensagens por e-mail e de enviar lembretes de aula experimental. Os seus dados continuam
          guardados até você pedir a eliminação ou até o prazo de guarda acabar.
        </p>
      </RequestSection>

      <RequestSection
        kind="eliminacao"
        {...session}
        fields={
          <>
            <EnrolmentKept overview={p.overview} />
            <Checkbox name="confirmar" value="sim" checked={false} error={errors.confirmar} required>
              Quero que os meus dados sejam eliminados.
            </Checkbox>
          </>
        }
      >
        <p>
          A equipe apaga o seu nome, e-mail, telefone, mensagens e fotos de todo o site. Notas de pesquisa e números de
          agendamento ficam só como estatística, sem identificar você.
        </p>
      </RequestSection>

      <form method="post" action={`${MEUS_DADOS_PATH}/sair`}>
        <Csrf token={p.csrfToken} />
        <button type="submit" class="link">
          Sair
        </button>
      </form>
    </Layout>
  );
}
