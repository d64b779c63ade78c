// Staff tables on a 390 px phone: the NPS report, the message inbox and the lead panel keep
// every word of every cell whole (no "Movim ento Pinhei ros"); a table wider than the screen
// scrolls inside its own region, never the page. On a 360 px phone the staff menu shows each
// link apart, each a finger-sized target. Screenshots are kept in test-results/.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { INBOX_PATH } from '../src/features/feedback/messages/inbox.view';
import { REPORT_PATH } from '../src/features/feedback/survey/report.view';
import { ADMIN_PATH } from '../src/features/identity/login.routes';
import { createStaffUser } from '../test/helpers/staff';
import { useServerAndBrowser, watchPage } from './helpers';

const SCREENS = path.resolve(__dirname, '..', 'test-results', 'screens');
const suite = useServerAndBrowser();

/** Every word of every table cell that is broken over two lines, and what overflows the page. */
async function layoutProblems(page: Page) {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const cell of document.querySelectorAll('main th, main td')) {
      if (cell.closest('.visually-hidden')) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const m of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index ?? 0);
          range.setEnd(node, (m.index ?? 0) + m[0].length);
          // a word drawn on two lines has one box per line
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push(m[0]);
        }
      }
    }
    const root = document.documentElement;
    return {
      broken,
      pageOverflow: root.scrollWidth - root.clientWidth,
      tables: document.querySelectorAll('main table').length,
    };
  });
}

/** The boxes of the staff menu's links and buttons, in page order. */
async function menuBoxes(page: Page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('nav[aria-label="Equipe"] :is(a, button)')].map((el) => {
      const r = el.getBoundingClientRect();
      return { label: el.textContent?.trim() ?? '', left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    }),
  );
}

type Box = Awaited<ReturnType<typeof menuBoxes>>[number];

/** Distance between two boxes: 0 when they touch or overlap, else the gap along the closer axis. */
function gapBetween(a: Box, b: Box): number {
  const dx = Math.max(a.left - b.right, b.left - a.right, 0);
  const dy = Math.max(a.top - b.bottom, b.top - a.bottom, 0);
  return Math.max(dx, dy);
}

it('at 360×740 every staff menu link is apart from the others and at least 44 px tall', async () => {
  mkdirSync(SCREENS, { recursive: true });
  const context = await suite.browser.newContext({
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
  const page = await context.newPage();
  const watch = watchPage(page);
  // An admin sees the longest menu; a unit manager a shorter one with other labels.
  for (const papel of ['admin', 'gerente'] as const) {
    const unit = await suite.server.db.selectFrom('unidades').select('id').orderBy('id').executeTakeFirstOrThrow();
    const unidadeIds = papel === 'gerente' ? [unit.id] : undefined;
    const user = await createStaffUser(suite.server.db, { papel, nome: 'Bia Menu', unidadeIds });
    await context.clearCookies();
    await page.goto(`${suite.server.baseUrl}${ADMIN_PATH}`);
    await page.getByLabel('E-mail').fill(user.email);
    await page.getByLabel('Senha').fill(user.password);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForLoadState('load');
    await page.goto(`${suite.server.baseUrl}/admin`);
    await page.screenshot({ path: path.join(SCREENS, `staff-menu-${papel}-360.png`) });

    const boxes = await menuBoxes(page);
    expect(boxes.length, papel).toBeGreaterThan(5);
    expect(
      boxes.filter((b) => b.bottom - b.top < 44 || b.right - b.left < 44).map((b) => b.label),
      papel,
    ).toEqual([]);
    expect(
      boxes.filter((b) => b.left < 0 || b.right > 360).map((b) => b.label),
      papel,
    ).toEqual([]);
    const close: string[] = [];
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        if (gapBetween(a, b) < 4) close.push(`${a.label} / ${b.label}`);
      }
    }
    expect(close, papel).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), papel).toBeLessThanOrEqual(360);
  }
  expect(watch.errors).toEqual([]);
  await context.close();
});

it('at 390×844 the NPS report, the inbox and the lead panel keep every word of a cell whole', async () => {
  mkdirSync(SCREENS, { recursive: true });
  const db = suite.server.db;
  const units = await db.selectFrom('unidades').select(['id', 'nome']).orderBy('id').execute();
  const now = Date.now();
  const at = (daysAgo: number) => new Date(now - daysAgo * 86_400_000).toISOString();
  for (const [i, unit] of units.entries()) {
    for (const [j, nota] of [10, 9, 7, 3, 10, 0].entries()) {
      await db
        .insertInto('respostas_nps')
        .values({
          unidade_id: unit.id,
          nota_nps: (nota + i) % 11,
          comentario: j === 3 ? 'Vestiário lotado no horário de pico, faltou manutenção nas esteiras' : null,
          nome_cliente: `Cliente ${j}`,
          criado_em: at(j * 9 + i),
        })
        .execute();
    }
    await db
      .insertInto('fale_aqui')
      .values({
        unidade_id: unit.id,
        unidade: unit.nome,
        nome_completo: 'Maria Aparecida dos Santos Figueiredo',
        mensagem: 'O bebedouro do segundo andar está quebrado há uma semana.',
        status: i % 2 ? 'nova' : 'lida',
        criado_em: at(i),
        atualizado_em: at(i),
      })
      .execute();
  }
  const leadAt = at(1);
  await db
    .insertInto('franquia_leads')
    .values({
      nome_completo: 'Roberto Carlos Nascimento Albuquerque',
      whatsapp: '+5511987654321',
      email: 'roberto.albuquerque.investimentos@exemplo.com.br',
      cidade_regiao: 'São José dos Campos e região metropolitana',
      investimento_parceria: 'sozinho',
      faixa_investimento: 'ate_300mil',
      prazo_proximo_passo: 'imediato',
      experiencia_negocio: 'nenhuma',
      motivo_interesse: 'outro',
      aceita_contato: 'sim',
      status: 'novo',
      busca: 'roberto carlos nascimento albuquerque',
      criado_em: leadAt,
      atualizado_em: leadAt,
    })
    .execute();
  const admin = await createStaffUser(db, { papel: 'admin', nome: 'Ana Telefone' });

  const context = await suite.browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${suite.server.baseUrl}${ADMIN_PATH}`);
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Senha').fill(admin.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForLoadState('load');

  for (const [name, url] of [
    ['pesquisa', REPORT_PATH],
    ['mensagens', INBOX_PATH],
    ['leads', ADMIN_PATH],
  ] as const) {
    await page.goto(`${suite.server.baseUrl}${url}`);
    await page.screenshot({ path: path.join(SCREENS, `staff-${name}-390.png`), fullPage: true });
    const problems = await layoutProblems(page);
    expect(problems.tables, url).toBeGreaterThan(0);
    expect(problems.broken, url).toEqual([]);
    expect(problems.pageOverflow, url).toBeLessThanOrEqual(0);
  }
  expect(watch.errors).toEqual([]);
  await context.close();
});
