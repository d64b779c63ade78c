// /privacidade: the privacy notice (LGPD, Lei 13.709/2018) in plain pt-BR. What each form
// stores, why, for how long and whom to ask. Generated from the settings the retention job
// reads (RETENTION_*_MONTHS), the encarregado's (DPO_*), the consent texts in code and the
// catalog's benefit platforms, so it cannot say what the site does not do.
import { brand } from '../../brand/index';
import { Layout } from '../../views/layout';
import { CONSENT_PURPOSES, CONSENT_TEXTS, consentLabel, currentConsent } from './consent';
import { MINE_PATH as ENROLMENT_MINE_PATH } from '../enrolment/enrolment.view';
import {
  ENROLMENT_RETENTION_TEXT,
  ENROLMENT_RETENTION_YEARS,
  INCIDENT_RETENTION_YEARS,
  monthsLabel,
  type RetentionRule,
} from './retention';

export const PRIVACY_PATH = '/privacidade';

/** Someone the site shares personal data with, or sends the visitor to. */
export interface Processor {
  nome: string;
  /** what for, in a phrase */
  finalidade: string;
  /** the address's host, when there is one */
  site?: string;
}

export interface PrivacyPageProps {
  dpo: { name: string; email: string };
  retention: RetentionRule[];
  processors: Processor[];
}

export function PrivacyPage({ dpo, retention, processors }: PrivacyPageProps) {
  const b = brand();
  return (
    <Layout
      title="Aviso de privacidade"
      description={
        `Como a ${b.name} trata os dados que você envia pelo site: o que guardamos, por quê, por quanto ` +
        `tempo e a quem pedir.`
      }
      canonical={PRIVACY_PATH}
    >
      <article class="prose">
        <h1>Aviso de privacidade</h1>
        {/* biome-ignore format: its fill leaves a line over 120 columns */}
        <p>
          Este aviso explica, de acordo com a Lei Geral de Proteção de Dados (LGPD, Lei nº 13.709/2018),
          como a {b.name}{' '}
          trata os dados que você envia por este site. Não usamos cookies de rastreamento nem ferramentas de publicidade
          de terceiros.
        </p>

        <h2 id="o-que">O que guardamos e por quê</h2>
        <ul>
          <li>
            <strong>Pesquisa de satisfação:</strong> a unidade, as suas notas e respostas e, só se você preencher, nome
            e contato. Usamos para melhorar o atendimento de cada unidade.
          </li>
          <li>
            <strong>Fale aqui:</strong> a mensagem, a unidade, as fotos que você anexar (regravadas sem dados de
            localização ou da câmera) e, se você informar, o seu nome. Usamos para responder e resolver o que você
            contou.
          </li>
          <li>
            <strong>Seja um franqueado:</strong> nome, WhatsApp, e-mail, cidade e as respostas sobre investimento e
            prazo, com a sua autorização de contato. Usamos apenas para a equipe de expansão avaliar e falar com você.
          </li>
          <li>
            <strong>Aula experimental:</strong> nome, WhatsApp e, se você informar, e-mail, usados apenas para confirmar
            a aula, enviar o lembrete e permitir que a unidade fale com você sobre ela.
          </li>
          <li id="matricula">
            <strong>Matrícula online:</strong> nome, CPF, data de nascimento, e-mail, WhatsApp e, para menores de 18
            anos, nome e CPF do responsável; o contrato aceito, com esses dados preenchidos; a prova do aceite (data,
            hora, endereço IP e navegador); e os pagamentos e reembolsos. Usamos para fazer e cumprir o contrato (LGPD,
            art. 7º, V): cobrar, confirmar o pagamento, avisar você e permitir desistir ou cancelar. Em{' '}
            <a href={ENROLMENT_MINE_PATH}>Minha matrícula</a> você informa o seu e-mail e recebe um link para ver a
            matrícula, desistir em até 7 dias ou pedir o cancelamento. Ofertas por e-mail e WhatsApp só com a sua
            autorização, que é opcional. Nas unidades sem matrícula online, o botão “Matricule-se” abre o WhatsApp da
            unidade e a conversa segue por lá.
          </li>
          <li>
            <strong>Cliques nos botões:</strong> contamos quantas vezes cada botão de cada unidade foi tocado por
            semana, sem cookie e sem nada que identifique você.
          </li>
          <li>
            <strong>Localização:</strong> em “Unidades perto de mim”, o navegador pede a sua permissão; a posição só é
            usada para ordenar as unidades naquela busca e não é guardada.
          </li>
        </ul>

        <h2 id="por-quanto-tempo">Por quanto tempo</h2>
        <p>
          Uma rotina automática aplica estes prazos todos os dias; passado o prazo, os dados que identificam você são
          apagados ou anonimizados.
        </p>
        <ul class="retention">
          {retention.map((r) => (
            <li key={r.kind} data-retention={r.kind} data-months={r.months}>
              <strong>{r.what}:</strong> {monthsLabel(r.months)} contados a partir {r.from}; depois, {r.after}.
            </li>
          ))}
          <li>
            Registro de incidentes de segurança: {INCIDENT_RETENTION_YEARS} anos a partir do registro, como exige a
            ANPD.
          </li>
          <li>Registros técnicos de acesso: 6 meses, como exige o Marco Civil da Internet.</li>
          <li data-retention="matriculas" data-years={ENROLMENT_RETENTION_YEARS}>
            <strong>Matrícula online:</strong> {ENROLMENT_RETENTION_TEXT}. Um pedido de eliminação não apaga esses dados
            antes disso: a LGPD permite guardá-los para cumprir obrigações legais e defender direitos; apaga o WhatsApp
            e a autorização para receber ofertas.
          </li>
        </ul>

        <h2 id="consentimento">Sua autorização de contato</h2>
        <p>
          Nos formulários com autorização de contato, guardamos qual texto você aceitou (a versão), quando e por qual
          canal. Você pode revogar a autorização a qualquer momento: depois disso, não enviamos mais respostas por
          e-mail nem lembretes. Os textos em vigor são:
        </p>
        <ul>
          {CONSENT_PURPOSES.map((purpose) => {
            const v = currentConsent(purpose);
            return (
              <li key={purpose}>
                <strong>{CONSENT_TEXTS[purpose].nome}</strong> ({consentLabel(v)}): “{v.texto}”
              </li>
            );
          })}
        </ul>

        <h2 id="quem-ve">Quem vê os seus dados</h2>
        <p>
          Só a equipe da {b.name} que precisa deles: a gerência da unidade vê a pesquisa e as mensagens da sua unidade;
          a equipe de expansão vê os contatos de franquia; a unidade e a administração da rede veem as matrículas da
          unidade. Não vendemos nem compartilhamos os seus dados com anunciantes.
        </p>

        <h2 id="operadores">Com quem compartilhamos</h2>
        {processors.length ? (
          <ul class="processors">
            {processors.map((p) => (
              <li key={p.nome}>
                <strong>{p.nome}</strong>
                {p.site ? ` (${p.site})` : ''}: {p.finalidade}
              </li>
            ))}
          </ul>
        ) : (
          <p>Nenhum serviço de terceiros recebe os seus dados pelo site.</p>
        )}

        <h2 id="encarregado">Encarregado de dados</h2>
        <p>
          A pessoa encarregada pelo tratamento de dados pessoais (LGPD, art. 41) é <strong>{dpo.name}</strong>, pelo
          e-mail <a href={`mailto:${dpo.email}`}>{dpo.email}</a>.
        </p>

        <h2 id="seus-direitos">Seus direitos e a quem pedir</h2>
        <p>
          Em <a href="/privacidade/meus-dados">Meus dados</a> você informa o seu e-mail e recebe um link para ver tudo o
          que guardamos ligado a ele, baixar uma cópia, pedir correção ou pedir a eliminação.
        </p>
        <p>
          Você pode pedir para ver, corrigir ou excluir os seus dados, ou retirar a autorização de contato, a qualquer
          momento. Escreva para <a href={`mailto:${dpo.email}`}>{dpo.email}</a> ou fale conosco pelo{' '}
          <a href="/NPS/nps_app_php/fale_aqui.php">Fale aqui</a>
          {b.whatsappDigits ? (
            <>
              {' '}
              ou pelo{' '}
              <a href={`https://wa.me/${b.whatsappDigits}`} rel="noopener noreferrer">
                WhatsApp da rede
              </a>
            </>
          ) : null}
          , dizendo “privacidade” na mensagem. Respondemos em até 15 dias. Você também pode procurar a Autoridade
          Nacional de Proteção de Dados (ANPD).
        </p>
      </article>
    </Layout>
  );
}
