import { expect, it } from 'vitest';
import sharp from 'sharp';
import { createStaffUser } from '../test/helpers/staff';
import { expectNoA11yViolations, phoneContext, useServerAndBrowser, watchPage } from './helpers';

const suite = useServerAndBrowser();

it('answers the survey on a phone', async () => {
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/NPS/nps_app_php/index.php`);
  await expectNoA11yViolations(page);
  const unit = await suite.server.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('nome')
    .executeTakeFirstOrThrow();
  await page.getByRole('link', { name: new RegExp(unit.nome) }).click();
  await page.waitForURL(/unidade_id=/);
  await expect(page.getByRole('heading', { name: 'Como foi sua experiência?' }).isVisible()).resolves.toBe(true);
  // the 0–10 scale sits in one row, with big tap targets
  const boxes = await page
    .locator('.scale span')
    .evaluateAll((spans) => spans.map((s) => s.getBoundingClientRect()).map((r) => ({ top: r.top, h: r.height })));
  expect(boxes).toHaveLength(11);
  expect(new Set(boxes.map((b) => Math.round(b.top))).size).toBe(1);
  expect(Math.min(...boxes.map((b) => b.h))).toBeGreaterThanOrEqual(44);
  await expectNoA11yViolations(page);

  await page.locator('.scale label').nth(9).click();
  await page.getByRole('radio', { name: 'Ótima' }).check();
  await page.getByRole('radio', { name: 'Ótimo' }).check();
  await page.getByRole('checkbox', { name: 'Está tudo certo' }).check();
  await page.getByLabel('Comentário').fill('Equipe muito atenciosa.');
  await page.getByRole('button', { name: 'Enviar avaliação' }).click();
  await page.waitForURL(/obrigado\.php$/);
  await expect(page.getByRole('heading', { name: 'Obrigado!' }).isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);
  const stored = await suite.server.db.selectFrom('respostas_nps').selectAll().execute();
  expect(stored).toHaveLength(1);
  expect(stored[0]).toMatchObject({ unidade_id: unit.id, nota_nps: 9, comentario: 'Equipe muito atenciosa.' });
  expect(watch.errors).toEqual([]);
  await context.close();
});

it('sends a message with 2 photos (previews, counter, unit picker)', async () => {
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/NPS/nps_app_php/fale_aqui.php`);
  await expectNoA11yViolations(page);
  const unit = await suite.server.db
    .selectFrom('unidades')
    .select(['id', 'nome', 'cidade'])
    .where('ativo', '=', 1)
    .orderBy('nome')
    .executeTakeFirstOrThrow();
  await page.getByLabel('Seu nome').fill('Helena Dias');
  await page.getByLabel('Unidade', { exact: true }).selectOption(String(unit.id));
  await page.getByLabel('E-mail').fill('helena@exemplo.com.br');
  await page.getByLabel(/Aceito que a equipe/).check();
  await page.getByLabel('Mensagem', { exact: true }).fill('O espelho da sala 2 está trincado.');
  await expect(page.getByText('34/3000').isVisible()).resolves.toBe(true);
  const red = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#d03030' } })
    .jpeg()
    .toBuffer();
  const blue = await sharp({ create: { width: 48, height: 64, channels: 3, background: '#3050d0' } })
    .png()
    .toBuffer();
  await page.getByLabel('Fotos').setInputFiles([
    { name: 'espelho.jpg', mimeType: 'image/jpeg', buffer: red },
    { name: 'sala.png', mimeType: 'image/png', buffer: blue },
  ]);
  await expect(
    page
      .getByRole('img', { name: /Prévia da foto/ })
      .first()
      .waitFor(),
  ).resolves.toBeUndefined();
  await expect.poll(() => page.getByRole('img', { name: /Prévia da foto/ }).count()).toBe(2);
  await expectNoA11yViolations(page);
  await page.getByRole('button', { name: 'Enviar mensagem' }).click();
  await page.waitForURL(/obrigado\.php$/);
  const messages = await suite.server.db.selectFrom('fale_aqui').selectAll().execute();
  expect(messages).toHaveLength(1);
  expect(messages[0]).toMatchObject({
    unidade_id: unit.id,
    unidade: unit.nome,
    nome_completo: 'Helena Dias',
    anonimo: 0,
    contato_email: 'helena@exemplo.com.br',
    aceite_contato: 1,
  });
  const files = await suite.server.db.selectFrom('fale_aqui_arquivos').selectAll().orderBy('id').execute();
  expect(files.map((f) => f.tipo)).toEqual(['image/jpeg', 'image/png']);
  expect(watch.errors).toEqual([]);
  await context.close();
});

it('a staff member logs in and sees the NPS and the message with its photos', async () => {
  const staff = await createStaffUser(suite.server.db, { papel: 'admin', nome: 'Iara Gestora' });
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/admin/pesquisa`);
  await page.waitForURL(/admin\.php\?voltar=/);
  await page.getByLabel('E-mail').fill(staff.email);
  await page.getByLabel('Senha').fill(staff.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/\/admin\/pesquisa/);
  await expect(page.locator('[data-nps-geral]').textContent()).resolves.toBe('100');
  await expectNoA11yViolations(page);

  await page.getByRole('link', { name: 'Mensagens' }).click();
  await page.waitForURL(/\/admin\/mensagens$/);
  await expectNoA11yViolations(page);
  await page.locator('table a').first().click();
  await page.waitForURL(/\/admin\/mensagens\/\d+$/);
  await expect(page.getByText('O espelho da sala 2 está trincado.').isVisible()).resolves.toBe(true);
  const photos = page.getByRole('img', { name: /Foto \d enviada com a mensagem/ });
  await expect.poll(() => photos.count()).toBe(2);
  for (const img of await photos.all()) {
    await expect
      .poll(() => img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth))
      .toBeGreaterThan(0);
  }
  await expectNoA11yViolations(page);
  await page.getByLabel('Mudar a situação').selectOption('resolvida');
  await page.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Situação atualizada.').isVisible()).resolves.toBe(true);
  expect(watch.errors).toEqual([]);
  await context.close();
});
