// "Esqueci minha senha" in a phone browser: the link on the login page, the request, the
// mail through a real SMTP server, the link's page, the new password, the login.
import { afterAll, expect, it } from 'vitest';
import { deliverDueMail } from '../src/platform/mail/worker';
import { expectNoA11yViolations, phoneContext, useServerAndBrowser, watchPage } from './helpers';
import { createStaffUser } from '../test/helpers/staff';
import { startSmtp, type TestSmtp } from '../test/helpers/smtp';

let smtp: TestSmtp;
const suite = useServerAndBrowser(async () => {
  smtp = await startSmtp();
  return { seed: false, env: { ...smtp.env, PUBLIC_URL: 'https://www.academia.example' } };
});
afterAll(async () => {
  await smtp?.close();
});

it('a staff member who forgot the password gets a link by e-mail and sets a new one', async () => {
  const staff = await createStaffUser(suite.server.db, { nome: 'Rita Recepção' });
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);

  await page.goto(`${suite.server.baseUrl}/pages/Franquia/admin.php`);
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click();
  await page.waitForURL(/senha\.php$/);
  await expectNoA11yViolations(page);
  await page.getByLabel('E-mail', { exact: true }).fill(staff.email);
  await page.getByRole('button', { name: 'Enviar link' }).click();
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Verifique o seu e-mail');
  await expectNoA11yViolations(page);

  await deliverDueMail({ db: suite.server.db, config: suite.server.config });
  const mail = smtp.messages.find((m) => m.to.includes(staff.email));
  expect(mail?.subject).toContain('Redefinição de senha');
  const body = mail!.raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  const sent = /(https:\/\/\S+\/pages\/Franquia\/senha\.php\?token=[A-Za-z0-9_-]+)/.exec(body)![1]!;
  // The mail points at PUBLIC_URL; the test server answers the same path locally.
  expect(sent.startsWith('https://www.academia.example/pages/Franquia/senha.php?token=')).toBe(true);
  const url = new URL(sent);
  const link = `${suite.server.baseUrl}${url.pathname}${url.search}`;

  await page.goto(link);
  await expectNoA11yViolations(page);
  await page.getByLabel('Nova senha', { exact: true }).fill('minha-nova-senha-longa');
  await page.getByLabel('Repita a nova senha').fill('minha-nova-senha-longa');
  await page.getByRole('button', { name: 'Salvar nova senha' }).click();
  await page.waitForURL(/admin\.php\?senha=1/);
  await expect(page.getByText('Senha alterada. Entre com a nova senha.').isVisible()).resolves.toBe(true);
  await page.getByLabel('E-mail', { exact: true }).fill(staff.email);
  await page.getByLabel('Senha', { exact: true }).fill('minha-nova-senha-longa');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/admin\.php$/);
  await expect(page.getByRole('heading', { name: 'Leads de franquia' }).isVisible()).resolves.toBe(true);

  // The link was single-use.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toContain('Link inválido ou expirado');
  await expectNoA11yViolations(page);
  expect(watch.errors.filter((e) => !e.includes('status of 410'))).toEqual([]);
  await context.close();
});
