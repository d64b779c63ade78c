// /privacidade: the privacy notice (LGPD, Lei 13.709/2018) in plain pt-BR. What each form
// stores, why, for how long and whom to ask. Retention periods match what the staff
// screens and the database actually do (see docs/decisions/100).
import { brand } from '../../brand/index';
import { Layout } from '../../views/layout';

export const PRIVACY_PATH = '/privacidade';

export function PrivacyPage() {
  const b = brand();
  return (
    <Layout
      title="Aviso de privacidade"
      description={`Como a ${b.name} trata os dados que você envia pelo site: o que guardamos, por quê, por quanto tempo e a quem pedir.`}
      canonical={PRIVACY_PATH}
    >
      <article class="prose">
        <h1>Aviso de privacidade</h1>
        <p>
          Este aviso explica, de acordo com a Lei Geral de Proteção de Dados (LGPD, Lei nº 13.709/2018), como a {b.name}{' '}
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
            <strong>Aula experimental e matrícula:</strong> nome, WhatsApp e, se você informar, e-mail, usados apenas
            para confirmar a aula, enviar o lembrete e permitir que a unidade fale com você sobre ela. Os botões
            “Matricule-se” abrem o WhatsApp da unidade; a conversa segue por lá.
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
        <ul>
          <li>
            Aula experimental: doze meses após a data da aula, nome, WhatsApp e e-mail são apagados automaticamente; o
            agendamento fica apenas como número, sem identificar você, nas estatísticas da rede.
          </li>
          <li>
            Respostas da pesquisa e mensagens do Fale aqui: enquanto servirem para acompanhar a evolução de cada
            unidade; você pode pedir a exclusão a qualquer momento.
          </li>
          <li>Contatos de franquia: até a equipe de expansão concluir a conversa, ou até você pedir a exclusão.</li>
          <li>Registros técnicos de acesso: 6 meses, como exige o Marco Civil da Internet.</li>
        </ul>

        <h2 id="quem-ve">Quem vê os seus dados</h2>
        <p>
          Só a equipe da {b.name} que precisa deles: a gerência da unidade vê a pesquisa e as mensagens da sua unidade;
          a equipe de expansão vê os contatos de franquia. Não vendemos nem compartilhamos os seus dados com
          anunciantes.
        </p>

        <h2 id="seus-direitos">Seus direitos e a quem pedir</h2>
        <p>
          Em <a href="/privacidade/meus-dados">Meus dados</a> você informa o seu e-mail e recebe um link para ver tudo o
          que guardamos ligado a ele, baixar uma cópia, pedir correção ou pedir a eliminação.
        </p>
        <p>
          Você pode pedir para ver, corrigir ou excluir os seus dados, ou retirar a autorização de contato, a qualquer
          momento. Fale com a pessoa encarregada de dados pelo <a href="/NPS/nps_app_php/fale_aqui.php">Fale aqui</a>
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
