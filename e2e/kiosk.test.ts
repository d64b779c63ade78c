// Kiosk mode on a tablet in real Chromium: thanks for 5 s and a fresh form; answers given
// while offline wait in IndexedDB and are stored exactly once when the network returns;
// a lost CSRF cookie is recovered by the background token refresh.
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createStaffUser } from '../test/helpers/staff';
import { expectNoA11yViolations, useServerAndBrowser, watchPage } from './helpers';

const suite = useServerAndBrowser();

async function answer(page: Page, score: number, comment: string) {
  await page.locator('.scale label').nth(score).click();
  for (const q of await page.locator('fieldset.question').all()) {
    if ((await q.locator('.scale').count()) > 0) continue;
    const radios = q.locator('input[type=radio]');
    if ((await radios.count()) > 0) await radios.first().check();
    const ok = q.locator('input[type=checkbox]');
    if ((await ok.count()) > 0) await ok.first().check();
  }
  await page.getByLabel('Comentário').fill(comment);
  await page.getByRole('button', { name: 'Enviar avaliação' }).click();
  await page.getByRole('heading', { name: 'Obrigado!' }).waitFor({ state: 'visible', timeout: 3000 });
}

const stored = (comentario: string) =>
  suite.server.db
    .selectFrom('respostas_nps')
    .select(['id', 'origem', 'nota_nps', 'envio_id'])
    .where('comentario', '=', comentario)
    .execute();

it('staff open the kiosk for a unit; offline answers are stored exactly once when the network returns', async () => {
  const unit = await suite.server.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const manager = await createStaffUser(suite.server.db, {
    papel: 'gerente',
    nome: 'Rui Recepção',
    unidadeIds: [unit.id],
  });
  const context = await suite.browser.newContext({
    viewport: { width: 800, height: 1280 },
    hasTouch: true,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
  const page = await context.newPage();
  const watch = watchPage(page);

  // from the staff area, on the tablet
  await page.goto(`${suite.server.baseUrl}/admin`);
  await page.getByLabel('E-mail').fill(manager.email);
  await page.getByLabel('Senha').fill(manager.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/\/admin$/);
  await page.getByRole('link', { name: new RegExp(`Modo quiosque .* · ${unit.nome}`) }).click();
  await page.waitForURL(/quiosque\.php\?unidade_id=/);
  await page.waitForFunction(() => document.documentElement.dataset.kioskReady === '1');
  await expect(page.locator('a').count()).resolves.toBe(0); // no way out of the page
  const target = await page.locator('.scale span').first().boundingBox();
  expect(target!.height).toBeGreaterThanOrEqual(64); // big touch targets
  await expectNoA11yViolations(page);

  // online: stored at once; thanks for 5 s, then a fresh form with a new envio_id
  const firstEnvio = await page.locator('input[name=envio_id]').inputValue();
  await answer(page, 9, 'Quiosque online');
  await expect.poll(async () => (await stored('Quiosque online')).length).toBe(1);
  await expect(page.locator('[data-kiosk-thanks]').isVisible()).resolves.toBe(true);
  await page.getByRole('button', { name: 'Enviar avaliação' }).waitFor({ state: 'visible', timeout: 8000 });
  await expect(page.locator('[data-kiosk-thanks]').isVisible()).resolves.toBe(false);
  const secondEnvio = await page.locator('input[name=envio_id]').inputValue();
  expect(secondEnvio).not.toBe(firstEnvio);
  await expect(page.locator('.scale input:checked').count()).resolves.toBe(0);
  expect(await stored('Quiosque online')).toMatchObject([{ origem: 'quiosque', nota_nps: 9, envio_id: firstEnvio }]);

  // offline: two answers wait on the device
  await context.setOffline(true);
  await answer(page, 2, 'Quiosque offline 1');
  await page.getByRole('button', { name: 'Enviar avaliação' }).waitFor({ state: 'visible', timeout: 8000 });
  await answer(page, 10, 'Quiosque offline 2');
  await expect.poll(() => page.locator('[data-kiosk-status]').textContent()).toContain('2 avaliações guardadas');
  expect(await stored('Quiosque offline 1')).toEqual([]);
  expect(await stored('Quiosque offline 2')).toEqual([]);

  // back online: each stored exactly once
  await context.setOffline(false);
  await expect
    .poll(async () => (await stored('Quiosque offline 1')).length + (await stored('Quiosque offline 2')).length, {
      timeout: 25_000,
    })
    .toBe(2);
  await expect.poll(() => page.locator('[data-kiosk-status]').textContent(), { timeout: 10_000 }).toBe('');
  // a further retry round sends nothing twice
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await page.waitForTimeout(1000);
  expect(await stored('Quiosque offline 1')).toMatchObject([{ origem: 'quiosque', nota_nps: 2 }]);
  expect(await stored('Quiosque offline 2')).toMatchObject([{ origem: 'quiosque', nota_nps: 10 }]);

  // days later the CSRF cookie may be gone: the kiosk fetches a new token and still stores once
  await context.clearCookies();
  await page.getByRole('button', { name: 'Enviar avaliação' }).waitFor({ state: 'visible', timeout: 8000 });
  await answer(page, 7, 'Quiosque sem cookie');
  await expect.poll(async () => (await stored('Quiosque sem cookie')).length, { timeout: 25_000 }).toBe(1);
  // the refused first attempt (403) and the offline ones are the only console errors
  expect(watch.errors.filter((e) => !/403|ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(e))).toEqual([]);
  await context.close();
});
