// /privacidade, generated: the encarregado (DPO_*), the periods the retention job applies
// (RETENTION_*_MONTHS), the consent texts in code, and who receives data: the benefit
// platforms the catalog's Pass pages link to, the mail provider and the active webhooks.
// The rendered page is kept while the catalog snapshot and the webhook list are the same.
import type { Config } from '../../config';
import { safeExternalUrl } from '../../lib/url';
import type { Processor } from './policy.view';
import type { ProcessorsRepository } from './processors.repository';
import { retentionRules } from './retention';

/** What the notice needs of a unit in the catalog snapshot. */
export interface BenefitUnit {
  beneficio_nome: string | null;
  beneficio_url: string | null;
}

const hostOf = (url: string) => new URL(url).hostname.replace(/^www\./, '');

/**
 * The benefit platforms (by name, with their links' hosts), the mail provider, the payment
 * provider that receives the payer's data (Asaas; a static Pix goes from the payer's bank to the
 * unit's, through no one of ours) and the webhook receivers.
 */
export function processorsOf(
  units: BenefitUnit[],
  mailProvider: string | null,
  webhookUrls: string[],
  paymentProvider: 'pix' | 'asaas' | null = null,
): Processor[] {
  const platforms = new Map<string, Set<string>>();
  for (const u of units) {
    const url = safeExternalUrl(u.beneficio_url);
    if (!url) continue;
    const name = (u.beneficio_nome ?? '').trim() || 'Plataforma de benefício';
    platforms.set(name, (platforms.get(name) ?? new Set<string>()).add(hostOf(url)));
  }
  const out: Processor[] = [...platforms]
    .sort(([a], [b]) => a.localeCompare(b, 'pt-BR'))
    .map(([nome, hosts]) => ({
      nome,
      site: [...hosts].sort().join(', '),
      finalidade:
        'plataforma de benefício para a qual as páginas de Pass levam você; o cadastro e o uso do benefício ' +
        'acontecem lá, sob a política de privacidade dela.',
    }));
  if (mailProvider) {
    out.push({
      nome: mailProvider,
      finalidade:
        'serviço que entrega os nossos e-mails (confirmações e lembretes de aula, respostas às mensagens); ' +
        'recebe o seu e-mail e o texto da mensagem.',
    });
  }
  if (paymentProvider === 'asaas') {
    out.push({
      nome: 'Asaas',
      site: 'asaas.com',
      finalidade:
        'instituição de pagamento que cobra a matrícula online (Pix, cartão e mensalidades); recebe nome, CPF, ' +
        'e-mail e WhatsApp de quem paga. O número do cartão é digitado na página do Asaas e não passa pelo nosso site.',
    });
  }
  const hosts = [...new Set(webhookUrls.flatMap((u) => (safeExternalUrl(u) ? [hostOf(u)] : [])))].sort();
  if (hosts.length) {
    out.push({
      nome: 'Sistemas integrados por webhook',
      site: hosts.join(', '),
      finalidade:
        'sistemas da rede ou contratados por ela (atendimento, CRM) que recebem os formulários assim que chegam, ' +
        'com os dados informados.',
    });
  }
  return out;
}

export function createPolicyService(
  repo: ProcessorsRepository,
  config: Pick<Config, 'privacy' | 'smtp' | 'payments'>,
  units: () => Promise<BenefitUnit[]>,
) {
  const settings = config.privacy;
  const retention = retentionRules(settings.retention);
  const mailProvider = config.smtp ? (settings.mailProviderName ?? config.smtp.host) : null;
  return {
    async props() {
      const [list, webhookUrls] = await Promise.all([units(), repo.activeWebhookUrls()]);
      return {
        /** what the page depends on besides the settings: the same key, the same page */
        key: { units: list, webhooks: webhookUrls.join('\n') },
        page: {
          dpo: { name: settings.dpoName, email: settings.dpoEmail },
          retention,
          processors: processorsOf(list, mailProvider, webhookUrls, config.payments.provider),
        },
      };
    },
  };
}
export type PolicyService = ReturnType<typeof createPolicyService>;
