// "Meus dados" in a phone browser without any script of ours: the link from the privacy
// notice, the request, the mail through a real SMTP server, the link's button, the person's
// page, the ZIP download and the erasure request; then an admin finds it in the queue and
// carries it out. Every page passes axe.
import { afterAll, expect, it } from 'vitest';
import { nowIso } from '../src/db/index';
import { deliverDueMail } from '../src/platform/mail/worker';
import { createStaffUser } from '../test/helpers/staff';
import { startSmtp, type TestSmtp } from '../test/helpers/smtp';
import { expectNoA11yViolations, phoneContext, useServerAndBrowser, watchPage } from './helpers';

const EMAIL = 'lia.pessoa@exemplo.com.br';
let smtp: TestSmtp;
const suite = useServerAndBrowser(async () => {
  smtp = await startSmtp();
  return { seed: false, env: { ...smtp.env, PUBLIC_URL: 'https://www.academia.example' } };
});
afterAll(async () => {
  await smtp?.close();
});

it('a person sees, downloads and asks to erase their data; an admin erases it', async () => {
  const now = nowIso();
  await suite.server.db
    .insertInto('franquia_leads')
    .values({
      nome_completo: 'Lia Pessoa',
      whatsapp: '+5511955554444',
      email: EMAIL,
      cidade_regiao: 'Santos - SP',
      investimento_parceria: 'sozinho',
      faixa_investimento: '300mil_500mil',
      prazo_proximo_passo: 'ate_3_meses',
      experiencia_negocio: 'empresario',
      motivo_interesse: 'ter_meu_negocio',
      aceita_contato: 'sim',
      busca: 'lia pessoa',
      criado_em: now,
      atualizado_em: now,
    })
    .execute();
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);

  await page.goto(`${suite.server.baseUrl}/privacidade`);
  await page.getByRole('link', { name: 'Meus dados' }).click();
  await page.waitForURL(/\/privacidade\/meus-dados$/);
  await expectNoA11yViolations(page);
  await page.getByRole('button', { name: 'Enviar link' }).click();
  await expect(page.getByText('Informe o seu e-mail.').first().isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);
  await page.getByLabel('E-mail').fill(EMAIL);
  await page.getByRole('button', { name: 'Enviar link' }).click();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Verifique o seu e-mail');

  await deliverDueMail({ db: suite.server.db, config: suite.server.config });
  const mail = smtp.messages.find((m) => m.to.includes(EMAIL));
  const body = mail!.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  const sent = new URL(/(https:\/\/\S+\/privacidade\/meus-dados\/acesso\?token=[A-Za-z0-9_-]+)/.exec(body)![1]!);
  await page.goto(`${suite.server.baseUrl}${sent.pathname}${sent.search}`);
  await expectNoA11yViolations(page);
  await page.getByRole('button', { name: 'Ver meus dados' }).click();
  await page.waitForURL(/\/painel$/);
  await expect(page.getByRole('heading', { name: /Contatos para franquia \(1\)/ }).isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Baixar meus dados (ZIP)' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('meus-dados.zip');

  await page.getByRole('button', { name: 'Enviar pedido de eliminação' }).click();
  await expect(
    page.getByText('Marque a caixa para confirmar o pedido de eliminação.').first().isVisible(),
  ).resolves.toBe(true);
  await expectNoA11yViolations(page);
  await page.getByLabel('Quero que os meus dados sejam eliminados.').check();
  await page.getByRole('button', { name: 'Enviar pedido de eliminação' }).click();
  await page.waitForURL(/ok=eliminacao/);
  await expect(page.getByText('Pedido de eliminação recebido.').isVisible()).resolves.toBe(true);

  const staff = await createStaffUser(suite.server.db, { papel: 'admin', nome: 'Iara Gestora' });
  const staffPage = await (await phoneContext(suite.browser)).newPage();
  await staffPage.goto(`${suite.server.baseUrl}/admin/privacidade`);
  await staffPage.waitForURL(/admin\.php\?voltar=/);
  await staffPage.getByLabel('E-mail').fill(staff.email);
  await staffPage.getByLabel('Senha').fill(staff.password);
  await staffPage.getByRole('button', { name: 'Entrar' }).click();
  await staffPage.waitForURL(/\/admin\/privacidade$/);
  await expectNoA11yViolations(staffPage);
  await staffPage
    .getByRole('row', { name: /Eliminação/ })
    .getByRole('link')
    .click();
  await staffPage.waitForURL(/\/admin\/privacidade\/\d+$/);
  await expectNoA11yViolations(staffPage);
  await staffPage.getByLabel('Confirmo a eliminação dos dados desta pessoa').check();
  await staffPage.getByRole('button', { name: 'Eliminar e concluir' }).click();
  await staffPage.waitForURL(/ok=eliminado/);
  await expect(staffPage.getByText('Dados eliminados em todo o site').isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(staffPage);
  const lead = await suite.server.db
    .selectFrom('franquia_leads')
    .select(['email', 'whatsapp'])
    .executeTakeFirstOrThrow();
  expect(lead).toEqual({ email: '[apagado]', whatsapp: '[apagado]' });
  // the two refused forms answer 422 on purpose; nothing else may fail
  expect(watch.errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
});
