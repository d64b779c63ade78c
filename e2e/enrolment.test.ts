// Online enrolment on a 390 × 844 phone, on the real app with the demo content and a real
// SMTP server: from the unit page's "Matricule-se" to the Pix page (summary with the CNPJ
// and the first payment's breakdown, the contract, copia-e-cola and QR code), nothing wider
// than the screen at any step; staff confirm the payment in the browser; the member opens
// "Minha matrícula" from the e-mail and withdraws, and the refund shows in the staff queue.
// A second member, 8 days after acceptance, cannot withdraw: asks for the cancellation, sees
// the fine before confirming, and gets a protocol.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { deliverDueMail } from '../src/platform/mail/worker';
import { expectNoA11yViolations, useServerAndBrowser, watchPage } from './helpers';
import { createStaffUser } from '../test/helpers/staff';
import { startSmtp, type CapturedMail, type TestSmtp } from '../test/helpers/smtp';

const WIDTH = 390;
const PUBLIC_URL = 'https://www.academia.example';

let smtp: TestSmtp;
const suite = useServerAndBrowser(async () => {
  smtp = await startSmtp();
  return { env: { ...smtp.env, PUBLIC_URL } };
});
afterAll(async () => {
  await smtp?.close();
});

let unitId: number;
let planName: string;
beforeAll(async () => {
  const db = suite.server.db;
  const offer = await db
    .selectFrom('planos_unidades as pu')
    .innerJoin('unidades as u', 'u.id', 'pu.unidade_id')
    .innerJoin('planos as p', 'p.id', 'pu.plano_id')
    .select(['pu.unidade_id', 'pu.plano_id', 'p.nome'])
    .where('pu.venda_online', '=', 1)
    .where('u.ativo', '=', 1)
    .where('u.cnpj', 'is not', null)
    .orderBy('pu.unidade_id')
    .orderBy('pu.plano_id')
    .executeTakeFirstOrThrow();
  unitId = offer.unidade_id;
  planName = offer.nome;
  // Known terms, for the figures the pages must show.
  await db
    .updateTable('planos_unidades')
    .set({
      mensalidade_centavos: 12990,
      taxa_matricula_centavos: 5000,
      taxa_anual_centavos: 0,
      taxa_anual_mes: null,
      fidelidade_meses: 12,
      multa_percentual: 10,
    })
    .where('unidade_id', '=', offer.unidade_id)
    .where('plano_id', '=', offer.plano_id)
    .execute();
});

let cpfSeq = 0;
/** A valid CPF (check digits computed), different each call, formatted as people type it. */
function cpf(): string {
  const base = String(987654000 + ++cpfSeq * 13).padStart(9, '0');
  const digit = (s: string) => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum += Number(s[i]) * (s.length + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  const d1 = digit(base);
  const all = `${base}${d1}${digit(base + d1)}`;
  return `${all.slice(0, 3)}.${all.slice(3, 6)}.${all.slice(6, 9)}-${all.slice(9)}`;
}

function phone(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: WIDTH, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
}

async function expectNoSideScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${page.url()} is ${width} px wide`).toBeLessThanOrEqual(WIDTH);
}

/** The element's text with every space (the no-break space of "R$ 10,00" too) as a plain one. */
async function text(target: Locator): Promise<string> {
  return ((await target.textContent()) ?? '').replace(/\s+/g, ' ').trim();
}

/** Taps and waits for the page the tap leads to. */
async function tapTo(page: Page, target: Locator, url: RegExp): Promise<void> {
  await Promise.all([page.waitForURL(url), target.tap()]);
}

/** The text/plain body of a captured message (quoted-printable or base64 decoded). */
function mailText(mail: CapturedMail): string {
  const parts = mail.raw.split(/\r?\n--[^\r\n]+\r?\n/);
  for (const part of parts) {
    const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
    if (!/content-type:\s*text\/plain/i.test(head)) continue;
    const body = rest.join('\n\n');
    if (/content-transfer-encoding:\s*base64/i.test(head)) return Buffer.from(body, 'base64').toString('utf8');
    if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
      const bytes = body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
      return Buffer.from(bytes, 'latin1').toString('utf8');
    }
    return body;
  }
  throw new Error(`no text part in "${mail.subject}"`);
}

/** Sends the queued mail and returns the latest "Minha matrícula" link sent to `email`, on the test server. */
async function mineLinkFor(email: string): Promise<string> {
  await deliverDueMail({ db: suite.server.db, config: suite.server.config });
  const links = smtp.messages
    .filter((m) => m.to.includes(email))
    .map((m) => /(https:\/\/\S+\/matricula\/minha\/entrar\?token=[A-Za-z0-9_-]+)/.exec(mailText(m))?.[1])
    .filter((l): l is string => Boolean(l));
  const sent = links.at(-1);
  expect(sent, `no "Minha matrícula" link mailed to ${email}`).toBeDefined();
  // The mail points at PUBLIC_URL; the test server answers the same path locally.
  expect(sent!.startsWith(`${PUBLIC_URL}/matricula/minha/entrar?token=`)).toBe(true);
  const url = new URL(sent!);
  return `${suite.server.baseUrl}${url.pathname}${url.search}`;
}

interface Member {
  nome: string;
  email: string;
}

/**
 * From the unit page to the Pix page, checking each step at 390 px; returns the enrolment's
 * code (the last part of the Pix page's address).
 */
async function enrol(page: Page, member: Member, checks: { a11y: boolean }): Promise<string> {
  const base = suite.server.baseUrl;
  await page.goto(`${base}/Detalhes.php?id=${unitId}`);
  await expectNoSideScroll(page);
  // The call to action in the page (the bottom bar's twin says just "Matricule-se").
  await tapTo(
    page,
    page.getByRole('link', { name: /^Matricule-se na / }),
    new RegExp(`/matricula\\?unidade=${unitId}$`),
  );

  // Plan
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Escolha o plano');
  await expect(page.locator('.steps [aria-current="step"]').textContent()).resolves.toBe('Plano');
  await expectNoSideScroll(page);
  if (checks.a11y) await expectNoA11yViolations(page);
  const card = page.locator('.plan-choices > li', {
    has: page.getByRole('heading', { level: 2, name: planName, exact: true }),
  });
  expect(await text(card.locator('.price'))).toBe('R$ 129,90 por mês');
  await tapTo(
    page,
    card.getByRole('link', { name: 'Quero este plano' }),
    new RegExp(`/matricula\\?unidade=${unitId}&plano=\\d+$`),
  );

  // Data
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Seus dados');
  await expect(page.locator('.steps [aria-current="step"]').textContent()).resolves.toBe('Seus dados');
  await expectNoSideScroll(page);
  if (checks.a11y) await expectNoA11yViolations(page);
  await page.getByLabel('Nome completo', { exact: true }).fill(member.nome);
  await page.getByLabel('CPF', { exact: true }).fill(cpf());
  await page.getByLabel('Data de nascimento', { exact: true }).fill('1991-03-22');
  await page.getByLabel('E-mail', { exact: true }).fill(member.email);
  await page.getByLabel('WhatsApp', { exact: true }).fill('(11) 98765-4321');
  await tapTo(page, page.getByRole('button', { name: 'Continuar para o resumo' }), /\/matricula\/resumo\?/);

  // Summary and contract
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Resumo e contrato');
  await expect(page.locator('.steps [aria-current="step"]').textContent()).resolves.toBe('Resumo e contrato');
  const box = page.locator('.summary-box');
  await expect(box.isVisible()).resolves.toBe(true);
  const company = box
    .locator('dt', { hasText: 'Empresa que contrata com você' })
    .locator('xpath=following-sibling::dd[1]');
  expect(await text(company)).toMatch(/CNPJ \d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}/);
  await expect(company.isVisible()).resolves.toBe(true);
  const first = box.locator('dt', { hasText: 'Primeiro pagamento' }).locator('xpath=following-sibling::dd[1]');
  expect(await text(first.locator('strong'))).toBe('R$ 179,90');
  const breakdown = first.locator('.breakdown li');
  expect((await breakdown.allTextContents()).map((l) => l.replace(/\s+/g, ' '))).toEqual([
    'Primeira mensalidade: R$ 129,90',
    'Taxa de matrícula: R$ 50,00',
  ]);
  await expect(breakdown.first().isVisible()).resolves.toBe(true);
  await expect(breakdown.last().isVisible()).resolves.toBe(true);
  await expect(box.getByText('Fidelidade de 12 meses').isVisible()).resolves.toBe(true);
  // The contract wraps inside the screen and scrolls within its own box.
  const contract = page.locator('pre.contract-text');
  await expect(contract.textContent()).resolves.toContain('CONTRATO DE PRESTAÇÃO');
  const shape = await contract.evaluate((el) => ({
    wide: el.scrollWidth > el.clientWidth,
    height: el.getBoundingClientRect().height,
    scrolls: el.scrollHeight > el.clientHeight,
  }));
  expect(shape.wide).toBe(false);
  expect(shape.height).toBeLessThanOrEqual(844 * 0.6);
  expect(shape.scrolls).toBe(true);
  await expectNoSideScroll(page);
  if (checks.a11y) await expectNoA11yViolations(page);

  // Accept
  await page.getByLabel('Li o resumo e o contrato acima e aceito as condições.').check();
  await tapTo(
    page,
    page.getByRole('button', { name: /^Aceitar e pagar R\$\s179,90$/ }),
    /\/matricula\/[A-Za-z0-9_-]{10,40}$/,
  );

  // Pix
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Falta só o pagamento');
  await expect(page.locator('.steps [aria-current="step"]').textContent()).resolves.toBe('Pagamento');
  const code = page.getByLabel('Pix copia e cola', { exact: true });
  const copyPaste = await code.inputValue();
  expect(copyPaste.startsWith('000201')).toBe(true);
  expect(copyPaste).toContain('5406179.90');
  const qr = page.locator('.pix-qr svg');
  await expect(qr.isVisible()).resolves.toBe(true);
  const qrBox = (await qr.boundingBox())!;
  expect(qrBox.width).toBeGreaterThanOrEqual(150);
  expect(qrBox.width).toBeLessThanOrEqual(260);
  const codeBox = (await code.boundingBox())!;
  expect(codeBox.x + codeBox.width).toBeLessThanOrEqual(WIDTH);
  await expectNoSideScroll(page);
  if (checks.a11y) {
    await expectNoA11yViolations(page);
    // "Copiar código Pix" (src/client/pix-copy.ts) puts the code on the clipboard.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await page.getByRole('button', { name: 'Copiar código Pix' }).tap();
    await page.getByRole('status').filter({ hasText: 'Código copiado' }).waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(copyPaste);
    await expectNoSideScroll(page);
  }
  return new URL(page.url()).pathname.split('/').at(-1)!;
}

/** Staff: the enrolment's detail from the list, then "Confirmar pagamento". */
async function confirmPayment(page: Page, member: Member): Promise<void> {
  await page.goto(`${suite.server.baseUrl}/admin/matriculas`);
  await expectNoSideScroll(page);
  await tapTo(page, page.getByRole('link', { name: member.nome, exact: true }).first(), /\/admin\/matriculas\/\d+$/);
  await expect(page.locator('h1').allTextContents()).resolves.toEqual([`Matrícula de ${member.nome}`]);
  await expectNoSideScroll(page);
  await tapTo(
    page,
    page.getByRole('button', { name: 'Confirmar pagamento (visto no extrato)' }),
    /\/admin\/matriculas\/\d+\?ok=pagamento$/,
  );
  await expect(page.getByText('Pagamento confirmado.').isVisible()).resolves.toBe(true);
  await expectNoSideScroll(page);
}

/** "Minha matrícula" opened from a link: the button that uses it, then the panel. */
async function openMine(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await expectNoSideScroll(page);
  await tapTo(page, page.getByRole('button', { name: 'Abrir minha matrícula' }), /\/matricula\/minha\/painel$/);
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Minha matrícula');
  await expectNoSideScroll(page);
}

let staffPage: Page;
let staffContext: BrowserContext;
beforeAll(async () => {
  const staff = await createStaffUser(suite.server.db, { nome: 'Gerente Geral' });
  staffContext = await phone(suite.browser);
  staffPage = await staffContext.newPage();
  await staffPage.goto(`${suite.server.baseUrl}/admin/matriculas`);
  await staffPage.getByLabel('E-mail', { exact: true }).fill(staff.email);
  await staffPage.getByLabel('Senha', { exact: true }).fill(staff.password);
  await tapTo(staffPage, staffPage.getByRole('button', { name: 'Entrar' }), /\/admin\/matriculas$/);
});
afterAll(async () => {
  await staffContext?.close();
});

it('enrols from the unit page, staff confirm the Pix, the member withdraws, the refund is queued', async () => {
  const staffWatch = watchPage(staffPage);
  const context = await phone(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);
  const member = { nome: 'Juliana Prado', email: 'juliana.prado@exemplo.com.br' };

  await enrol(page, member, { a11y: true });

  await confirmPayment(staffPage, member);
  await expectNoA11yViolations(staffPage);

  // The member: the acceptance e-mail's link, the panel, "Desistir".
  await openMine(page, await mineLinkFor(member.email));
  await expectNoA11yViolations(page);
  await expect(page.locator('[data-status]').first().textContent()).resolves.toBe('Ativa');
  await tapTo(page, page.getByRole('button', { name: 'Desistir da matrícula' }), /painel\?ok=desistencia$/);
  await expect(page.getByRole('status').filter({ hasText: 'Desistência registrada.' }).isVisible()).resolves.toBe(true);
  await expect(page.getByRole('button', { name: 'Desistir da matrícula' }).count()).resolves.toBe(0);
  await expect(page.getByText(/Devolução \(pendente\): R\$\s179,90/).isVisible()).resolves.toBe(true);
  await expectNoSideScroll(page);

  // Staff: the refund waits in the queue, and leads to the enrolment.
  await staffPage.goto(`${suite.server.baseUrl}/admin/matriculas`);
  const queue = staffPage.getByRole('region', { name: /^Devoluções a fazer/ });
  await expect(queue.isVisible()).resolves.toBe(true);
  const row = queue.getByRole('listitem').filter({ hasText: member.nome });
  expect(await text(row)).toContain('R$ 179,90');
  await expectNoSideScroll(staffPage);
  await expectNoA11yViolations(staffPage);
  await tapTo(staffPage, row.getByRole('link'), /\/admin\/matriculas\/\d+$/);
  await expect(staffPage.getByRole('button', { name: 'Registrar devolução feita' }).isVisible()).resolves.toBe(true);
  await expectNoSideScroll(staffPage);

  expect(watch.errors).toEqual([]);
  expect(staffWatch.errors).toEqual([]);
  await context.close();
});

it('after 7 days, no "Desistir": the cancellation shows the fine first, then the protocol', async () => {
  const context = await phone(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);
  const member = { nome: 'Roberto Nogueira', email: 'roberto.nogueira@exemplo.com.br' };

  const codigo = await enrol(page, member, { a11y: false });
  await confirmPayment(staffPage, member);

  // Accepted and activated 8 days ago.
  const past = new Date(Date.now() - 8 * 86_400_000).toISOString();
  await suite.server.db
    .updateTable('matriculas')
    .set({ aceito_em: past, ativada_em: past })
    .where('codigo', '=', codigo)
    .execute();

  // A fresh link asked for on "Minha matrícula".
  await page.goto(`${suite.server.baseUrl}/matricula/minha`);
  await expectNoSideScroll(page);
  await page.getByLabel('E-mail', { exact: true }).fill(member.email);
  await page.getByRole('button', { name: 'Enviar link de acesso' }).tap();
  await page.getByRole('status').filter({ hasText: 'Se houver matrícula com este e-mail' }).waitFor();
  await openMine(page, await mineLinkFor(member.email));

  await expect(page.getByRole('button', { name: 'Desistir da matrícula' }).count()).resolves.toBe(0);
  await tapTo(
    page,
    page.getByRole('link', { name: 'Solicitar cancelamento' }),
    new RegExp(`/matricula/minha/${codigo}/cancelar$`),
  );
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Solicitar cancelamento');
  // 12 months of term, one served: 11 left × R$ 129,90 × 10 % = R$ 142,89, shown before confirming.
  const fine = page.locator('[data-fine]');
  await expect(fine.getAttribute('data-fine')).resolves.toBe('14289');
  expect(await text(fine)).toContain('R$ 142,89');
  await expect(fine.isVisible()).resolves.toBe(true);
  await expectNoSideScroll(page);
  await expectNoA11yViolations(page);
  await tapTo(page, page.getByRole('button', { name: 'Confirmar cancelamento' }), /painel\?ok=cancelamento$/);
  await expect(page.getByRole('status').filter({ hasText: 'Cancelamento solicitado.' }).isVisible()).resolves.toBe(
    true,
  );
  const stored = await suite.server.db
    .selectFrom('matriculas')
    .select(['status', 'protocolo', 'multa_centavos'])
    .where('codigo', '=', codigo)
    .executeTakeFirstOrThrow();
  expect(stored.status).toBe('cancelamento_solicitado');
  expect(stored.protocolo).toMatch(/^\d{14}$/);
  expect(stored.multa_centavos).toBe(14289);
  await expect(page.getByText(`Protocolo de cancelamento: ${stored.protocolo}`).isVisible()).resolves.toBe(true);
  await expectNoSideScroll(page);

  expect(watch.errors).toEqual([]);
  await context.close();
});
