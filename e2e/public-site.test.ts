// The public site as a person looking for a gym sees it, on a 360 px phone and a 1280 px
// desktop: screenshots of home, unit page and benefit page kept under
// test-results/screens/, the sticky bar, "Unidades perto de mim" with a granted
// location, axe on every new page, and the transfer budget of a unit page.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { invalidateCatalogCache } from '../src/features/catalog/index';
import { seedDemoPhotos } from '../src/features/unit-photos/demo';
import { expectNoA11yViolations, useServerAndBrowser, watchPage } from './helpers';

const suite = useServerAndBrowser();
// Photos as staff would upload them (drawn by the demo seed), except for one unit that keeps the placeholder.
beforeAll(async () => {
  const boaViagem = (
    await suite.server.db
      .selectFrom('unidades')
      .select('id')
      .where('nome', '=', 'Movimento Boa Viagem')
      .executeTakeFirstOrThrow()
  ).id;
  const others = (await suite.server.db.selectFrom('unidades').select('id').where('id', '!=', boaViagem).execute()).map(
    (u) => u.id,
  );
  await seedDemoPhotos(suite.server.db, suite.server.app.storage, 3, others);
  invalidateCatalogCache(suite.server.app);
});
const SCREENS = path.resolve('test-results/screens');
mkdirSync(SCREENS, { recursive: true });

const PHONE = { width: 360, height: 780 };
const DESKTOP = { width: 1280, height: 800 };

function context(
  browser: Browser,
  viewport: { width: number; height: number },
  extra: Parameters<Browser['newContext']>[0] = {},
): Promise<BrowserContext> {
  const phone = viewport.width < 600;
  return browser.newContext({
    viewport,
    deviceScaleFactor: phone ? 2 : 1,
    isMobile: phone,
    hasTouch: phone,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    ...extra,
  });
}

async function unitId(nome: string): Promise<number> {
  return (await suite.server.db.selectFrom('unidades').select('id').where('nome', '=', nome).executeTakeFirstOrThrow())
    .id;
}

for (const viewport of [PHONE, DESKTOP]) {
  it(`home, unit page and benefit page at ${viewport.width}px: screenshots, no a11y violations, no console \
errors`, async () => {
    const ctx = await context(suite.browser, viewport);
    const page = await ctx.newPage();
    const watch = watchPage(page);
    const id = await unitId('Movimento Pinheiros');
    for (const [name, url] of [
      ['home', '/'],
      ['unidade', `/Detalhes.php?id=${id}`],
      ['beneficio', `/pages/Pass/index.php?id=${id}`],
      ['unidades', '/unidades'],
    ] as const) {
      await page.goto(`${suite.server.baseUrl}${url}`);
      await page.waitForLoadState('load');
      await expectNoA11yViolations(page);
      // nothing scrolls sideways
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} width`).toBeLessThanOrEqual(
        viewport.width,
      );
      await page.screenshot({ path: path.join(SCREENS, `${name}-${viewport.width}.png`), fullPage: true });
    }
    // home: featured plans near the top, "a partir de"
    await page.goto(`${suite.server.baseUrl}/`);
    await expect(page.getByText(/planos a partir de R\$\s?89,90\/mês/).isVisible()).resolves.toBe(true);
    expect(watch.errors).toEqual([]);
    await ctx.close();
  });
}

it('unit page on a phone: the bottom bar keeps both calls to action in reach; on a desktop it is hidden', async () => {
  const id = await unitId('Movimento Pinheiros');
  const phone = await context(suite.browser, PHONE);
  const page = await phone.newPage();
  await page.goto(`${suite.server.baseUrl}/Detalhes.php?id=${id}`);
  const bar = page.getByRole('navigation', { name: 'Matrícula e aula experimental' });
  for (const y of [0, 2000, 100_000]) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await expect(bar.isVisible()).resolves.toBe(true);
    const box = await bar.boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(PHONE.height + 1);
    expect(box!.y).toBeGreaterThan(PHONE.height - 120);
  }
  const enrol = bar.getByRole('link', { name: 'Matricule-se' });
  await expect(enrol.getAttribute('href')).resolves.toBe(`/ir/matricula?unidade=${id}`);
  await expect(bar.getByRole('link', { name: 'Aula experimental' }).getAttribute('href')).resolves.toBe(
    `/ir/aula_experimental?unidade=${id}`,
  );
  // the footer's last link is not hidden under the bar when scrolled to the end
  const last = page.locator('.footer-copy');
  const lastBox = await last.boundingBox();
  const barBox = await bar.boundingBox();
  expect(lastBox!.y + lastBox!.height).toBeLessThanOrEqual(barBox!.y + 1);
  await phone.close();

  const desk = await context(suite.browser, DESKTOP);
  const wide = await desk.newPage();
  await wide.goto(`${suite.server.baseUrl}/Detalhes.php?id=${id}`);
  await expect(wide.getByRole('navigation', { name: 'Matrícula e aula experimental' }).isVisible()).resolves.toBe(
    false,
  );
  // the primary action is in the first screen
  const primary = wide.locator('.cta-group').getByRole('link', { name: /^Matricule-se/ });
  const pbox = await primary.boundingBox();
  expect(pbox!.y + pbox!.height).toBeLessThanOrEqual(DESKTOP.height);
  await desk.close();
});

it('"Unidades perto de mim" with a granted location lists the nearest unit first, with its distance', async () => {
  const ctx = await context(suite.browser, PHONE, {
    permissions: ['geolocation'],
    geolocation: { latitude: -23.6, longitude: -46.665 }, // Moema, São Paulo
  });
  const page = await ctx.newPage();
  const watch = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/`);
  await Promise.all([
    page.waitForURL(/\/unidades\?lat=-23\.6\d*&lng=-46\.66\d*/),
    page.getByRole('button', { name: 'Unidades perto de mim' }).tap(),
  ]);
  await expect(page.getByRole('heading', { level: 1, name: 'Unidades perto de você' }).isVisible()).resolves.toBe(true);
  const first = page.locator('.near-list > li').first();
  await expect(first.getByRole('link').first().textContent()).resolves.toBe('Movimento Moema');
  await expect(first.textContent()).resolves.toMatch(/a (menos de 1 km|\d+,\d km)/);
  await expect(page.locator('.near-list > li').nth(1).getByRole('link').first().textContent()).resolves.toBe(
    'Movimento Pinheiros',
  );
  await expectNoA11yViolations(page);
  expect(watch.errors).toEqual([]);
  await ctx.close();
});

it('without JavaScript, a CEP finds the nearest units on the server', async () => {
  const ctx = await context(suite.browser, PHONE, { javaScriptEnabled: false });
  const page = await ctx.newPage();
  await page.goto(`${suite.server.baseUrl}/`);
  await Promise.all([
    page.waitForURL(/\/unidades/),
    page.getByRole('button', { name: 'Unidades perto de mim' }).click(),
  ]);
  await page.getByLabel('CEP').fill('80420-090');
  await Promise.all([page.waitForURL(/cep=80420-090/), page.getByRole('button', { name: 'Buscar unidades' }).click()]);
  await expect(page.locator('.near-list > li').first().getByRole('link').first().textContent()).resolves.toBe(
    'Movimento Batel',
  );
  await ctx.close();
});

it('the first view of a unit page transfers at most 150 KB on a phone', async () => {
  const id = await unitId('Movimento Pinheiros');
  const ctx = await context(suite.browser, { width: 412, height: 915 });
  const page = await ctx.newPage();
  let bytes = 0;
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Network.enable');
  cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => {
    bytes += e.encodedDataLength;
  });
  await page.goto(`${suite.server.baseUrl}/Detalhes.php?id=${id}`, { waitUntil: 'networkidle' });
  // the cover photo is there, loaded at a phone width in AVIF (the first <source>); the others wait below the fold
  const cover = await page.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>('.unit-hero img')!;
    return { src: img.currentSrc, done: img.complete && img.naturalWidth > 0, lazy: img.loading };
  });
  expect(cover.done).toBe(true);
  expect(cover.src).toMatch(/-(480|960)\.avif$/);
  expect(cover.lazy).not.toBe('lazy');
  expect(await page.locator('.photo-strip img[loading="lazy"]').count()).toBe(2);
  expect(bytes).toBeGreaterThan(1000);
  expect(bytes).toBeLessThanOrEqual(150 * 1024);
  await ctx.close();
});
