import { readFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import { expectNoA11yViolations, phoneContext, useServerAndBrowser, watchPage } from './helpers';
import { createStaffUser } from '../test/helpers/staff';
import { startSmtp, type TestSmtp } from '../test/helpers/smtp';

let smtp: TestSmtp;
const suite = useServerAndBrowser(async () => {
  smtp = await startSmtp({ user: 'envio@example.com', pass: 'Senha-Do-Smtp-123' });
  return { seed: false, env: smtp.env };
});
afterAll(async () => {
  await smtp?.close();
});

it('a prospect submits a lead on a phone; staff log in, filter, open it, change its status and export', async () => {
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);

  // The prospect
  await page.goto(`${suite.server.baseUrl}/pages/Franquia/index.php`);
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Seja um franqueado');
  await expectNoA11yViolations(page);
  await page.getByLabel('Nome completo', { exact: true }).fill('Beatriz Falcão');
  const whatsapp = page.getByLabel('WhatsApp', { exact: true });
  await whatsapp.pressSequentially('11987654321');
  await expect(whatsapp.inputValue()).resolves.toBe('(11) 98765-4321');
  await page.getByLabel('E-mail', { exact: true }).fill('beatriz@example.com');
  await page.getByLabel('Cidade/região de interesse').fill('Ribeirão Preto');
  await page.getByLabel('Com sócio(s)').check();
  await page.getByLabel('De R$ 500 mil a R$ 1 milhão').check();
  await page.getByLabel('Em até 3 meses').check();
  await page.getByLabel('Tenho ou já tive um negócio').check();
  await page.getByLabel('Oportunidade na minha região').check();
  // Submitting without consent brings the form back with the message and the values kept.
  await page.getByRole('button', { name: 'Enviar meu interesse' }).click();
  await page.waitForURL(/index\.php/);
  await expect(page.getByText('marque a autorização').first().isVisible()).resolves.toBe(true);
  await expect(page.getByLabel('Nome completo', { exact: true }).inputValue()).resolves.toBe('Beatriz Falcão');
  await expectNoA11yViolations(page);
  await page.getByLabel(/Aceito ser contatado/).check();
  await page.getByRole('button', { name: 'Enviar meu interesse' }).click();
  await page.waitForURL(/obrigado\.php/);
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Obrigado');
  await expectNoA11yViolations(page);

  // Staff
  const staff = await createStaffUser(suite.server.db, { nome: 'Carla Expansão' });
  await page.goto(`${suite.server.baseUrl}/pages/Franquia/admin.php`);
  await expectNoA11yViolations(page);
  await page.getByLabel('E-mail', { exact: true }).fill(staff.email);
  await page.getByLabel('Senha', { exact: true }).fill(staff.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/admin\.php$/);
  await expect(page.getByRole('heading', { name: 'Leads de franquia' }).isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);

  await page.getByLabel('Busca', { exact: true }).fill('ribeirao');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.waitForURL(/q=ribeirao/);
  await expect(page.getByRole('status').filter({ hasText: '1 lead' }).isVisible()).resolves.toBe(true);
  await page.getByRole('link', { name: 'Beatriz Falcão' }).click();
  await page.waitForURL(/lead=\d+/);
  await expect(page.getByRole('link', { name: 'Conversar no WhatsApp' }).getAttribute('href')).resolves.toBe(
    'https://wa.me/5511987654321',
  );
  await expectNoA11yViolations(page);
  await page.getByLabel('Mudar para').selectOption('em_contato');
  await page.getByRole('button', { name: 'Salvar status' }).click();
  await page.waitForURL(/ok=status/);
  await expect(page.getByText('Status atualizado.').isVisible()).resolves.toBe(true);
  await expect(page.getByText('Novo → Em contato').isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);

  await page.getByRole('link', { name: '← Todos os leads' }).click();
  await page.getByLabel('Status', { exact: true }).selectOption('em_contato');
  await page.getByRole('button', { name: 'Filtrar' }).click();
  await page.waitForURL(/status=em_contato/);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /Exportar CSV/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^leads-franquia-\d{4}-\d\d-\d\d\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  expect(csv).toContain('Beatriz Falcão;(11) 98765-4321;beatriz@example.com;Ribeirão Preto');
  expect(csv).toContain(';Em contato');

  // The mail diagnostic: a real connection test, transcript shown, password never.
  await page.goto(`${suite.server.baseUrl}/pages/Franquia/smtp_test.php`);
  await expectNoA11yViolations(page);
  await page.getByRole('button', { name: 'Testar conexão' }).click();
  await page.waitForURL(/smtp_test\.php/);
  await expect(page.getByText('Conexão e autenticação bem-sucedidas', { exact: false }).isVisible()).resolves.toBe(
    true,
  );
  expect(await page.content()).not.toContain('Senha-Do-Smtp-123');
  await expectNoA11yViolations(page);

  // The one 422 is the deliberate submission without consent; nothing else may fail.
  expect(watch.errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
  await context.close();
});
