// Staff screens at chain scale in Chromium: long lists page and filter, the checkbox list
// of a plan's units is grouped by city (works without JavaScript) and gets a filter box;
// axe-core on each.
import { expect, it } from 'vitest';
import { seedLargeCatalog } from '../src/db/seeds/large';
import { createStaffUser } from '../test/helpers/staff';
import { expectNoA11yViolations, useServerAndBrowser, watchPage } from './helpers';

const suite = useServerAndBrowser({ seed: false });

it('lists page and filter, and a plan’s 90 units are grouped by city with a filter box', async () => {
  await seedLargeCatalog(suite.server.db, { units: 90, plans: 120 });
  const admin = await createStaffUser(suite.server.db, { papel: 'admin', nome: 'Ana Escala' });
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR' });
  const page = await context.newPage();
  const watched = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/admin/conteudo/unidades`);
  await page.waitForURL(/\/pages\/Franquia\/admin\.php/);
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Senha').fill(admin.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/\/admin\/conteudo\/unidades$/);

  await expect(page.getByText('Página 1 de 2').isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);
  await page.getByLabel('Filtrar unidades por nome, bairro ou cidade').fill('florianopolis');
  await page.getByRole('button', { name: 'Filtrar', exact: true }).click();
  await page.waitForURL(/q=florianopolis/);
  await expect(page.locator('tbody tr').count()).resolves.toBe(3);
  await expectNoA11yViolations(page);

  const plan = await suite.server.db
    .selectFrom('planos')
    .select('id')
    .where('nome', 'like', 'Plano Anual Recife%')
    .executeTakeFirstOrThrow();
  await page.goto(`${suite.server.baseUrl}/admin/conteudo/planos/${plan.id}`);
  const groups = page.locator('fieldset[data-checklist] details');
  await expect(groups.count()).resolves.toBe(30);
  await expect(page.locator('details[open] summary', { hasText: 'Recife/PE' }).count()).resolves.toBe(1);
  await expectNoA11yViolations(page);
  await page.getByLabel('Filtrar a lista').fill('campinas');
  await expect(page.locator('fieldset[data-checklist] details:visible').count()).resolves.toBe(1);
  await expect(page.locator('details[open] summary', { hasText: 'Campinas/SP' }).count()).resolves.toBe(1);
  await expectNoA11yViolations(page);
  // ticking a unit in the filtered list and saving keeps the units ticked before
  const before = await suite.server.db
    .selectFrom('planos_unidades')
    .select('unidade_id')
    .where('plano_id', '=', plan.id)
    .execute();
  await page.locator('details[open] label.choice').first().click();
  await page.getByLabel('Filtrar a lista').press('Enter'); // does not submit
  await expect(page.url()).toContain(`/admin/conteudo/planos/${plan.id}`);
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await page.waitForURL(/ok=salvo/);
  const after = await suite.server.db
    .selectFrom('planos_unidades')
    .select('unidade_id')
    .where('plano_id', '=', plan.id)
    .execute();
  expect(after.length).toBe(before.length + 1);
  expect(watched.errors).toEqual([]);
  await context.close();
});

it(`the unit form lists its own plans and finds others with "Buscar planos": Enter in the search searches, Enter \
elsewhere saves`, async () => {
  const db = suite.server.db;
  const admin = await createStaffUser(db, { papel: 'admin', nome: 'Bia Busca' });
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR' });
  const page = await context.newPage();
  const watched = watchPage(page);
  const unit = await db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('cidade', '=', 'Recife')
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await page.goto(`${suite.server.baseUrl}/admin/conteudo/unidades/${unit.id}`);
  await page.waitForURL(/\/pages\/Franquia\/admin\.php/);
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Senha').fill(admin.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(new RegExp(`/admin/conteudo/unidades/${unit.id}$`));
  const linked = async () =>
    (await db.selectFrom('planos_unidades').select('plano_id').where('unidade_id', '=', unit.id).execute())
      .map((r) => r.plano_id)
      .sort((a, b) => a - b);
  const before = await linked();
  await expect(page.locator('input[name="planos"]').count()).resolves.toBe(before.length); // of 120 plans
  await expectNoA11yViolations(page);

  // typed but unsaved: the search keeps it and saves nothing
  await page.getByLabel('Bairro').fill('Bairro Ainda Não Salvo');
  await page.getByLabel('Buscar planos pelo nome ou periodicidade').fill('mensal');
  await page.getByLabel('Buscar planos pelo nome ou periodicidade').press('Enter');
  await page.getByText('Nada foi gravado ainda.').waitFor();
  await expect(page.getByLabel('Bairro').inputValue()).resolves.toBe('Bairro Ainda Não Salvo');
  await expect(
    db.selectFrom('unidades').select('bairro').where('id', '=', unit.id).executeTakeFirstOrThrow(),
  ).resolves.not.toMatchObject({ bairro: 'Bairro Ainda Não Salvo' });
  await expectNoA11yViolations(page);
  const results = page.getByRole('group', { name: 'Acrescentar planos' }).getByRole('checkbox');
  await expect(results.count()).resolves.toBeGreaterThan(0);
  const added = Number(await results.first().getAttribute('value'));
  await results.first().check();
  await page.getByRole('button', { name: 'Salvar alterações' }).click();
  await page.waitForURL(/ok=salvo/);
  expect(await linked()).toEqual([...before, added].sort((a, b) => a - b));

  // Enter in another field, with the search box empty, saves
  await page.getByLabel('Bairro').fill('Boa Vista');
  await page.getByLabel('Bairro').press('Enter');
  await page.waitForURL(/ok=salvo/);
  await page.getByText('Alterações salvas.').waitFor();
  await expect(
    db.selectFrom('unidades').select('bairro').where('id', '=', unit.id).executeTakeFirstOrThrow(),
  ).resolves.toEqual({ bairro: 'Boa Vista' });
  expect(await linked()).toEqual([...before, added].sort((a, b) => a - b));
  expect(watched.errors).toEqual([]);
  await context.close();
});
