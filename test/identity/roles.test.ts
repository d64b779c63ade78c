// The role matrix: EVERY staff route of the app (leads, mail diagnostic, survey results,
// messages, content screens, accounts, audit), tried as an admin, as the manager of unit A
// (on unit A and on unit B) and as an anonymous visitor, with the expected answer for each.
// Requests carry a valid CSRF token, so what is tested is the role check, not CSRF.
// Anonymous and manager requests run first, and must change nothing they may not change.
import sharp from 'sharp';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/index';
import { createContentServices } from '../../src/features/content/services';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { createStaffUser, LOGIN_URL, loginAs, staffToken } from '../helpers/staff';

type Who = 'admin' | 'gerente' | 'anonimo';
const exportCatalog = (db: Db) => createContentServices({ db }).transfer.exportCatalog();
interface Expect {
  status: number;
  /** 303 to the login page */
  login?: boolean;
  contains?: string[];
  notContains?: string[];
}
interface Case {
  name: string;
  method: 'GET' | 'POST';
  url: string;
  body?: Record<string, string>;
  multipart?: boolean;
  expect: Record<Who, number | Expect>;
}

let t: TestContext;
const who: Record<Who, { cookie: string; token: string }> = {} as never;
const ids = {} as {
  A: number;
  B: number;
  nameA: string;
  nameB: string;
  lead: number;
  msgA: number;
  msgB: number;
  photoA: number;
  photoB: number;
  respA: number;
  respB: number;
  classA: number;
  classA2: number;
  classB: number;
  plan: number;
  area: number;
  modality: number;
  question: number;
  option: number;
  account: number;
  bookA: number;
  bookB: number;
};
const SECRET = {
  lead: 'Lead Secreto da Silva',
  msgA: 'Mensagem A: esteira 3 parada',
  msgB: 'Mensagem B: segredo da outra unidade',
  respA: 'Comentário A: ótimo atendimento',
  respB: 'Comentário B: segredo da outra unidade',
  bookA: 'Visitante A Experimental',
  bookB: 'Visitante B Experimental Secreta',
};
const LOGIN: Expect = { status: 303, login: true };
const OK: Expect = { status: 200 };

async function fixtures() {
  const db = t.db;
  const units = await db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .limit(2)
    .execute();
  ids.A = units[0]!.id;
  ids.B = units[1]!.id;
  ids.nameA = units[0]!.nome;
  ids.nameB = units[1]!.nome;
  const now = new Date().toISOString();

  ids.lead = (
    await db
      .insertInto('franquia_leads')
      .values({
        nome_completo: SECRET.lead,
        whatsapp: '+5511987654321',
        email: 'lead@example.com',
        cidade_regiao: 'Campinas',
        investimento_parceria: 'sozinho',
        faixa_investimento: 'ate_300mil',
        prazo_proximo_passo: 'imediato',
        experiencia_negocio: 'nenhuma',
        motivo_interesse: 'outro',
        aceita_contato: 'sim',
        status: 'novo',
        busca: 'lead secreto da silva',
        criado_em: now,
        atualizado_em: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0b6e4f' } })
    .png()
    .toBuffer();
  mkdirSync(path.join(t.uploadsDir, 'fale_aqui/2026/11'), { recursive: true });
  async function message(unit: { id: number; nome: string }, text: string, file: string) {
    const id = (
      await db
        .insertInto('fale_aqui')
        .values({
          unidade_id: unit.id,
          unidade: unit.nome,
          nome_completo: 'Cliente',
          anonimo: 0,
          mensagem: text,
          status: 'nova',
          criado_em: now,
          atualizado_em: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    writeFileSync(path.join(t.uploadsDir, `fale_aqui/2026/11/${file}`), png);
    const photo = (
      await db
        .insertInto('fale_aqui_arquivos')
        .values({
          fale_aqui_id: id,
          caminho: `fale_aqui/2026/11/${file}`,
          nome_original: 'foto.png',
          tipo: 'image/png',
          tamanho: png.length,
          largura: 8,
          altura: 8,
          sha256: 'x'.repeat(64),
          criado_em: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    return { id, photo };
  }
  const a = await message(units[0]!, SECRET.msgA, 'a.png');
  const b = await message(units[1]!, SECRET.msgB, 'b.png');
  ids.msgA = a.id;
  ids.photoA = a.photo;
  ids.msgB = b.id;
  ids.photoB = b.photo;

  const scale = await db.selectFrom('perguntas').select('id').where('tipo', '=', 'escala').executeTakeFirstOrThrow();
  const nine = await db
    .selectFrom('perguntas_opcoes')
    .select('id')
    .where('pergunta_id', '=', scale.id)
    .where('valor', '=', 9)
    .executeTakeFirstOrThrow();
  async function response(unitId: number, comentario: string) {
    const id = (
      await db
        .insertInto('respostas_nps')
        .values({
          unidade_id: unitId,
          nome_cliente: null,
          contato_cliente: null,
          comentario,
          nota_nps: 9,
          envio_id: null,
          criado_em: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('respostas_itens')
      .values({ resposta_id: id, pergunta_id: scale.id, opcao_id: nine.id, texto: null })
      .execute();
    return id;
  }
  ids.respA = await response(ids.A, SECRET.respA);
  ids.respB = await response(ids.B, SECRET.respB);
  ids.question = scale.id;
  ids.option = nine.id;

  const classesA = await db
    .selectFrom('aulas')
    .select('id')
    .where('unidade_id', '=', ids.A)
    .orderBy('id')
    .limit(2)
    .execute();
  ids.classA = classesA[0]!.id;
  ids.classA2 = classesA[1]!.id;
  ids.classB = (
    await db.selectFrom('aulas').select('id').where('unidade_id', '=', ids.B).orderBy('id').executeTakeFirstOrThrow()
  ).id;
  ids.plan = (await db.selectFrom('planos').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  ids.area = (await db.selectFrom('areas').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  ids.modality = (await db.selectFrom('modalidades').select('id').orderBy('id').executeTakeFirstOrThrow()).id;

  // Trial-class bookings of both units, today (São Paulo), so the staff list shows them.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
  async function booking(unitId: number, nome: string, tag: string) {
    return (
      await db
        .insertInto('aulas_experimentais')
        .values({
          unidade_id: unitId,
          aula_id: null,
          vaga: `livre:${today}:23:00`,
          atividade: 'Treino livre',
          inicio_em: now,
          fim_em: now,
          dia: today,
          nome,
          whatsapp: '+5511912345678',
          email: null,
          aceita_contato: 1,
          envio_id: `papel-${tag}-envio-0000`,
          codigo: `papel-${tag}-codigo-0000`,
          status: 'agendado',
          status_por: null,
          lembrete_em: null,
          anonimizado_em: null,
          semana: today,
          criado_em: now,
          atualizado_em: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }
  ids.bookA = await booking(ids.A, SECRET.bookA, 'a');
  ids.bookB = await booking(ids.B, SECRET.bookB, 'b');
}

/** Everything a manager or a visitor must not be able to change. */
async function fingerprint() {
  const db = t.db;
  const catalog = await exportCatalog(db);
  const slugA = (await db.selectFrom('unidades').select('slug').where('id', '=', ids.A).executeTakeFirstOrThrow()).slug;
  // a manager may edit unit A's timetable (and only that)
  for (const u of catalog.unidades) if (u.slug === slugA) u.aulas = [];
  return JSON.stringify({
    catalog,
    leads: await db.selectFrom('franquia_leads').select(['id', 'status', 'nome_completo']).orderBy('id').execute(),
    notes: await db.selectFrom('franquia_leads_notas').select('id').execute(),
    history: await db.selectFrom('franquia_leads_historico').select('id').execute(),
    users: await db
      .selectFrom('usuarios')
      .select(['id', 'email', 'papel', 'ativo', 'senha_hash'])
      .orderBy('id')
      .execute(),
    userUnits: await db
      .selectFrom('usuarios_unidades')
      .selectAll()
      .orderBy('usuario_id')
      .orderBy('unidade_id')
      .execute(),
    // a manager may change the status of unit A's messages (and only those)
    messages: await db
      .selectFrom('fale_aqui')
      .select(['id', 'status'])
      .where('unidade_id', '!=', ids.A)
      .orderBy('id')
      .execute(),
    outbox: await db.selectFrom('fila_emails').select('id').execute(),
    // a manager may mark unit A's trial bookings and set unit A's capacity (and only those)
    bookings: await db
      .selectFrom('aulas_experimentais')
      .select(['id', 'status'])
      .where('unidade_id', '!=', ids.A)
      .orderBy('id')
      .execute(),
    otherUnits: await db.selectFrom('unidades').selectAll().where('id', '!=', ids.A).orderBy('id').execute(),
    // a manager may set the prices of unit A's plans (and only those)
    otherPrices: await db
      .selectFrom('planos_unidades')
      .selectAll()
      .where('unidade_id', '!=', ids.A)
      .orderBy('unidade_id')
      .orderBy('plano_id')
      .execute(),
  });
}

function cases(): Case[] {
  const { A, B } = ids;
  const adminOnlyGet = (name: string, url: string, admin: number | Expect = OK): Case => ({
    name,
    method: 'GET',
    url,
    expect: { admin, gerente: 403, anonimo: LOGIN },
  });
  const adminOnlyPost = (name: string, url: string, body: Record<string, string>, admin: number | Expect): Case => ({
    name,
    method: 'POST',
    url,
    body,
    expect: { admin, gerente: 403, anonimo: LOGIN },
  });
  const noB = { notContains: [ids.nameB, SECRET.msgB, SECRET.respB] };
  const list: Case[] = [
    // ---- franchise leads (admins only) and the mail diagnostic
    {
      name: 'lead panel',
      method: 'GET',
      url: LOGIN_URL,
      expect: {
        admin: { status: 200, contains: [SECRET.lead] },
        gerente: 403,
        anonimo: { status: 200, contains: ['Entrar'], notContains: [SECRET.lead] },
      },
    },
    {
      name: 'lead panel, filtered page 2',
      method: 'GET',
      url: `${LOGIN_URL}?q=secreto&pagina=2`,
      expect: { admin: 200, gerente: 403, anonimo: { status: 200, notContains: [SECRET.lead] } },
    },
    // already logged in and sent to the login page: goes on to the page asked for, which checks its own role
    {
      name: 'login page with voltar',
      method: 'GET',
      url: `${LOGIN_URL}?voltar=%2Fadmin%2Fmensagens&lead=${ids.lead}`,
      expect: {
        admin: { status: 303, notContains: [SECRET.lead] },
        gerente: { status: 303, notContains: [SECRET.lead] },
        anonimo: { status: 200, contains: ['Entrar'], notContains: [SECRET.lead] },
      },
    },
    {
      name: 'lead detail',
      method: 'GET',
      url: `${LOGIN_URL}?lead=${ids.lead}`,
      expect: {
        admin: { status: 200, contains: [SECRET.lead] },
        gerente: 403,
        anonimo: { status: 200, notContains: [SECRET.lead] },
      },
    },
    {
      name: 'lead delete confirmation',
      method: 'GET',
      url: `${LOGIN_URL}?lead=${ids.lead}&excluir=1`,
      expect: { admin: 200, gerente: 403, anonimo: { status: 200, notContains: [SECRET.lead] } },
    },
    {
      name: 'lead CSV export',
      method: 'GET',
      url: `${LOGIN_URL}?export=csv`,
      expect: {
        admin: { status: 200, contains: [SECRET.lead] },
        gerente: 403,
        anonimo: { status: 200, notContains: [SECRET.lead] },
      },
    },
    adminOnlyPost('lead status', LOGIN_URL, { acao: 'status', lead_id: String(ids.lead), status: 'em_contato' }, 303),
    adminOnlyPost('lead note', LOGIN_URL, { acao: 'nota', lead_id: String(ids.lead), texto: 'Ligar amanhã.' }, 303),
    adminOnlyPost('lead delete (unconfirmed)', LOGIN_URL, { acao: 'excluir', lead_id: String(ids.lead) }, 303),
    adminOnlyGet('mail diagnostic', '/pages/Franquia/smtp_test.php'),
    // 409: no SMTP configured in tests — the action was reached, which is what matters here
    {
      name: 'mail diagnostic test action',
      method: 'POST',
      url: '/pages/Franquia/smtp_test.php',
      body: { acao: 'testar' },
      expect: { admin: 409, gerente: 403, anonimo: LOGIN },
    },

    // ---- survey results: managers see their units only
    {
      name: 'survey results',
      method: 'GET',
      url: '/admin/pesquisa',
      expect: {
        admin: { status: 200, contains: [ids.nameB] },
        gerente: { status: 200, contains: [ids.nameA], notContains: [ids.nameB] },
        anonimo: LOGIN,
      },
    },
    {
      name: 'survey results, unit A',
      method: 'GET',
      url: `/admin/pesquisa?unidade_id=${A}`,
      expect: { admin: 200, gerente: { status: 200, ...noB }, anonimo: LOGIN },
    },
    {
      name: 'survey results, unit B',
      method: 'GET',
      url: `/admin/pesquisa?unidade_id=${B}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'survey export',
      method: 'GET',
      url: '/admin/pesquisa/exportar.csv',
      expect: {
        admin: { status: 200, contains: [SECRET.respA, SECRET.respB] },
        gerente: { status: 200, contains: [SECRET.respA], notContains: [SECRET.respB] },
        anonimo: LOGIN,
      },
    },
    {
      name: 'survey export, unit A',
      method: 'GET',
      url: `/admin/pesquisa/exportar.csv?unidade_id=${A}`,
      expect: {
        admin: 200,
        gerente: { status: 200, contains: [SECRET.respA], notContains: [SECRET.respB] },
        anonimo: LOGIN,
      },
    },
    {
      name: 'survey export, unit B',
      method: 'GET',
      url: `/admin/pesquisa/exportar.csv?unidade_id=${B}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'survey response of unit A',
      method: 'GET',
      url: `/admin/pesquisa/resposta/${ids.respA}`,
      expect: { admin: 200, gerente: { status: 200, contains: [SECRET.respA] }, anonimo: LOGIN },
    },
    {
      name: 'survey response of unit B',
      method: 'GET',
      url: `/admin/pesquisa/resposta/${ids.respB}`,
      expect: {
        admin: { status: 200, contains: [SECRET.respB] },
        gerente: { status: 403, notContains: [SECRET.respB] },
        anonimo: LOGIN,
      },
    },

    // ---- free messages: managers see their units only
    {
      name: 'message inbox',
      method: 'GET',
      url: '/admin/mensagens',
      expect: {
        admin: { status: 200, contains: [SECRET.msgA, SECRET.msgB] },
        gerente: { status: 200, contains: [SECRET.msgA], ...noB },
        anonimo: LOGIN,
      },
    },
    {
      name: 'message inbox, unit A',
      method: 'GET',
      url: `/admin/mensagens?unidade_id=${A}`,
      expect: { admin: 200, gerente: { status: 200, contains: [SECRET.msgA], ...noB }, anonimo: LOGIN },
    },
    {
      name: 'message inbox, unit B',
      method: 'GET',
      url: `/admin/mensagens?unidade_id=${B}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'message export',
      method: 'GET',
      url: '/admin/mensagens/exportar.csv',
      expect: {
        admin: { status: 200, contains: [SECRET.msgB] },
        gerente: { status: 200, contains: [SECRET.msgA], notContains: [SECRET.msgB] },
        anonimo: LOGIN,
      },
    },
    {
      name: 'message export, unit B',
      method: 'GET',
      url: `/admin/mensagens/exportar.csv?unidade_id=${B}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'message of unit A',
      method: 'GET',
      url: `/admin/mensagens/${ids.msgA}`,
      expect: { admin: 200, gerente: { status: 200, contains: [SECRET.msgA] }, anonimo: LOGIN },
    },
    {
      name: 'message of unit B',
      method: 'GET',
      url: `/admin/mensagens/${ids.msgB}`,
      expect: {
        admin: { status: 200, contains: [SECRET.msgB] },
        gerente: { status: 403, notContains: [SECRET.msgB] },
        anonimo: LOGIN,
      },
    },
    {
      name: 'photo of unit A',
      method: 'GET',
      url: `/admin/mensagens/foto/${ids.photoA}`,
      expect: { admin: 200, gerente: 200, anonimo: LOGIN },
    },
    {
      name: 'photo of unit B',
      method: 'GET',
      url: `/admin/mensagens/foto/${ids.photoB}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'message status, unit A',
      method: 'POST',
      url: `/admin/mensagens/${ids.msgA}/status`,
      body: { status: 'lido' },
      expect: { admin: 303, gerente: 303, anonimo: LOGIN },
    },
    {
      name: 'message status, unit B',
      method: 'POST',
      url: `/admin/mensagens/${ids.msgB}/status`,
      body: { status: 'lido' },
      expect: { admin: 303, gerente: 403, anonimo: LOGIN },
    },

    // ---- feedback loop: staff home, preferences, replies, handled detractors, posters
    {
      name: 'staff home',
      method: 'GET',
      url: '/admin',
      expect: { admin: 200, gerente: { status: 200, ...noB }, anonimo: LOGIN },
    },
    {
      name: 'preferences',
      method: 'GET',
      url: '/admin/preferencias',
      expect: { admin: 200, gerente: 200, anonimo: LOGIN },
    },
    {
      name: 'save preferences',
      method: 'POST',
      url: '/admin/preferencias',
      body: { resumo_semanal: 'sim' },
      expect: { admin: 303, gerente: 303, anonimo: LOGIN },
    },
    // 422: the (contact-less) message reached the reply rules — the role check let it through
    {
      name: 'reply, unit A',
      method: 'POST',
      url: `/admin/mensagens/${ids.msgA}/responder`,
      body: { canal: 'email', texto: 'Oi' },
      expect: { admin: 422, gerente: 422, anonimo: LOGIN },
    },
    {
      name: 'reply, unit B',
      method: 'POST',
      url: `/admin/mensagens/${ids.msgB}/responder`,
      body: { canal: 'email', texto: 'Oi' },
      expect: { admin: 422, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'handled answer, unit A',
      method: 'POST',
      url: `/admin/pesquisa/resposta/${ids.respA}/tratada`,
      expect: { admin: 303, gerente: 303, anonimo: LOGIN },
    },
    {
      name: 'handled answer, unit B',
      method: 'POST',
      url: `/admin/pesquisa/resposta/${ids.respB}/tratada`,
      expect: { admin: 303, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'poster, unit A',
      method: 'GET',
      url: `/admin/pesquisa/cartaz/${A}`,
      expect: { admin: 200, gerente: 200, anonimo: LOGIN },
    },
    {
      name: 'poster, unit B',
      method: 'GET',
      url: `/admin/pesquisa/cartaz/${B}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'poster QR, unit A',
      method: 'GET',
      url: `/admin/pesquisa/cartaz/${A}/qr.svg`,
      expect: { admin: 200, gerente: 200, anonimo: LOGIN },
    },
    {
      name: 'poster QR, unit B',
      method: 'GET',
      url: `/admin/pesquisa/cartaz/${B}/qr.svg`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    // ---- trial classes: managers see and change their units only
    {
      name: 'trial bookings',
      method: 'GET',
      url: '/admin/aulas-experimentais',
      expect: {
        admin: { status: 200, contains: [SECRET.bookA, SECRET.bookB] },
        gerente: { status: 200, contains: [SECRET.bookA], notContains: [SECRET.bookB, ids.nameB] },
        anonimo: LOGIN,
      },
    },
    {
      name: 'trial bookings, unit B',
      method: 'GET',
      url: `/admin/aulas-experimentais?unidade_id=${B}`,
      expect: { admin: { status: 200, contains: [SECRET.bookB] }, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'trial booking status, unit A',
      method: 'POST',
      url: `/admin/aulas-experimentais/${ids.bookA}/status`,
      body: { status: 'compareceu' },
      expect: { admin: 303, gerente: 303, anonimo: LOGIN },
    },
    {
      name: 'trial booking status, unit B',
      method: 'POST',
      url: `/admin/aulas-experimentais/${ids.bookB}/status`,
      body: { status: 'compareceu' },
      expect: { admin: 303, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'trial funnel',
      method: 'GET',
      url: '/admin/aulas-experimentais/funil',
      expect: {
        admin: { status: 200, contains: [ids.nameB] },
        gerente: { status: 200, contains: [ids.nameA], notContains: [ids.nameB] },
        anonimo: LOGIN,
      },
    },
    {
      name: 'trial funnel, unit B',
      method: 'GET',
      url: `/admin/aulas-experimentais/funil?unidade_id=${B}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'trial funnel CSV',
      method: 'GET',
      url: '/admin/aulas-experimentais/funil.csv',
      expect: {
        admin: { status: 200, contains: [ids.nameB] },
        gerente: { status: 200, contains: [ids.nameA], notContains: [ids.nameB] },
        anonimo: LOGIN,
      },
    },
    {
      name: 'trial funnel CSV, unit B',
      method: 'GET',
      url: `/admin/aulas-experimentais/funil.csv?unidade_id=${B}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'trial capacity',
      method: 'GET',
      url: '/admin/aulas-experimentais/vagas',
      expect: {
        admin: { status: 200, contains: [ids.nameB] },
        gerente: { status: 200, contains: [ids.nameA], notContains: [ids.nameB] },
        anonimo: LOGIN,
      },
    },
    {
      name: 'trial capacity, unit A',
      method: 'POST',
      url: '/admin/aulas-experimentais/vagas',
      body: { [`vagas[${A}]`]: '4' },
      expect: { admin: 303, gerente: 303, anonimo: LOGIN },
    },
    {
      name: 'trial capacity, unit B',
      method: 'POST',
      url: '/admin/aulas-experimentais/vagas',
      body: { [`vagas[${B}]`]: '4' },
      expect: { admin: 303, gerente: 403, anonimo: LOGIN },
    },

    // ---- content: the hub and a unit's timetable are open to managers of that unit
    {
      name: 'content hub',
      method: 'GET',
      url: '/admin/conteudo',
      expect: {
        admin: { status: 200, contains: ['/admin/conteudo/unidades'] },
        gerente: {
          status: 200,
          contains: [`/admin/conteudo/unidades/${A}/aulas`],
          notContains: [`/admin/conteudo/unidades/${B}/aulas`, ids.nameB],
        },
        anonimo: LOGIN,
      },
    },
    {
      name: 'timetable of unit A',
      method: 'GET',
      url: `/admin/conteudo/unidades/${A}/aulas`,
      expect: { admin: 200, gerente: { status: 200, contains: [ids.nameA] }, anonimo: LOGIN },
    },
    {
      name: 'timetable of unit B',
      method: 'GET',
      url: `/admin/conteudo/unidades/${B}/aulas`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'timetable of an unknown unit',
      method: 'GET',
      url: '/admin/conteudo/unidades/999999/aulas',
      expect: { admin: 404, gerente: 403, anonimo: LOGIN },
    },
    // 422: the (empty) class reached validation — the role check let it through
    {
      name: 'add class, unit A',
      method: 'POST',
      url: `/admin/conteudo/unidades/${A}/aulas`,
      body: {},
      expect: { admin: 422, gerente: 422, anonimo: LOGIN },
    },
    {
      name: 'add class, unit B',
      method: 'POST',
      url: `/admin/conteudo/unidades/${B}/aulas`,
      body: {},
      expect: { admin: 422, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'copy week into unit A',
      method: 'POST',
      url: `/admin/conteudo/unidades/${A}/aulas/copiar`,
      body: { origem_id: '' },
      expect: { admin: 422, gerente: 422, anonimo: LOGIN },
    },
    {
      name: 'copy week into unit B',
      method: 'POST',
      url: `/admin/conteudo/unidades/${B}/aulas/copiar`,
      body: { origem_id: '' },
      expect: { admin: 422, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'CSV upload, unit A',
      method: 'POST',
      url: `/admin/conteudo/unidades/${A}/aulas/csv`,
      multipart: true,
      expect: { admin: 422, gerente: 422, anonimo: LOGIN },
    },
    {
      name: 'CSV upload, unit B',
      method: 'POST',
      url: `/admin/conteudo/unidades/${B}/aulas/csv`,
      multipart: true,
      expect: { admin: 422, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'CSV apply, unit A',
      method: 'POST',
      url: `/admin/conteudo/unidades/${A}/aulas/csv/aplicar`,
      body: { linhas: '[]' },
      expect: { admin: 422, gerente: 422, anonimo: LOGIN },
    },
    {
      name: 'CSV apply, unit B',
      method: 'POST',
      url: `/admin/conteudo/unidades/${B}/aulas/csv/aplicar`,
      body: { linhas: '[]' },
      expect: { admin: 422, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'class of unit A',
      method: 'GET',
      url: `/admin/conteudo/unidades/${A}/aulas/${ids.classA}`,
      expect: { admin: 200, gerente: 200, anonimo: LOGIN },
    },
    {
      name: 'class of unit B',
      method: 'GET',
      url: `/admin/conteudo/unidades/${B}/aulas/${ids.classB}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: "unit B's class through unit A",
      method: 'GET',
      url: `/admin/conteudo/unidades/${A}/aulas/${ids.classB}`,
      expect: { admin: 404, gerente: 404, anonimo: LOGIN },
    },
    {
      name: 'edit class, unit A',
      method: 'POST',
      url: `/admin/conteudo/unidades/${A}/aulas/${ids.classA}`,
      body: {},
      expect: { admin: 422, gerente: 422, anonimo: LOGIN },
    },
    {
      name: 'edit class, unit B',
      method: 'POST',
      url: `/admin/conteudo/unidades/${B}/aulas/${ids.classB}`,
      body: {},
      expect: { admin: 422, gerente: 403, anonimo: LOGIN },
    },
    // the manager removes it first; the admin then finds it gone
    {
      name: 'remove class, unit A',
      method: 'POST',
      url: `/admin/conteudo/unidades/${A}/aulas/${ids.classA2}/remover`,
      body: {},
      expect: { admin: 404, gerente: 303, anonimo: LOGIN },
    },
    {
      name: 'remove class, unit B',
      method: 'POST',
      url: `/admin/conteudo/unidades/${B}/aulas/${ids.classB}/remover`,
      body: {},
      expect: { admin: 303, gerente: 403, anonimo: LOGIN },
    },

    // ---- the prices of a unit's plans: like the timetable, managers of that unit too
    {
      name: 'plan prices of unit A',
      method: 'GET',
      url: `/admin/conteudo/unidades/${A}/planos`,
      expect: { admin: 200, gerente: { status: 200, contains: [ids.nameA] }, anonimo: LOGIN },
    },
    {
      name: 'plan prices of unit B',
      method: 'GET',
      url: `/admin/conteudo/unidades/${B}/planos`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'plan price form, unit A',
      method: 'GET',
      url: `/admin/conteudo/unidades/${A}/planos/${ids.plan}`,
      expect: { admin: 200, gerente: 200, anonimo: LOGIN },
    },
    {
      name: 'plan price form, unit B',
      method: 'GET',
      url: `/admin/conteudo/unidades/${B}/planos/${ids.plan}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'save plan prices, unit A',
      method: 'POST',
      url: `/admin/conteudo/unidades/${A}/planos/${ids.plan}`,
      body: { mensalidade: '129,90', venda_online: '1' },
      expect: { admin: 303, gerente: 303, anonimo: LOGIN },
    },
    {
      name: 'save plan prices, unit B',
      method: 'POST',
      url: `/admin/conteudo/unidades/${B}/planos/${ids.plan}`,
      body: { mensalidade: '1,00', venda_online: '1' },
      expect: { admin: 303, gerente: 403, anonimo: LOGIN },
    },

    // ---- content screens other than the timetable: admins only, even for the manager's own unit
    adminOnlyGet('units', '/admin/conteudo/unidades'),
    adminOnlyGet('new unit form', '/admin/conteudo/unidades/nova'),
    adminOnlyPost('create unit', '/admin/conteudo/unidades/nova', {}, 422),
    adminOnlyGet('unit A form', `/admin/conteudo/unidades/${A}`),
    adminOnlyGet('unit B form', `/admin/conteudo/unidades/${B}`),
    adminOnlyPost('edit unit A', `/admin/conteudo/unidades/${A}`, {}, 422),
    adminOnlyPost('edit unit B', `/admin/conteudo/unidades/${B}`, {}, 422),
    adminOnlyPost('activate unit A', `/admin/conteudo/unidades/${A}/ativo`, { ativo: '1' }, 303),
    adminOnlyPost('activate unit B', `/admin/conteudo/unidades/${B}/ativo`, { ativo: '1' }, 303),
    adminOnlyGet('plans', '/admin/conteudo/planos'),
    adminOnlyGet('new plan form', '/admin/conteudo/planos/novo'),
    adminOnlyPost('create plan', '/admin/conteudo/planos/novo', {}, 422),
    adminOnlyGet('plan form', `/admin/conteudo/planos/${ids.plan}`),
    adminOnlyPost('edit plan', `/admin/conteudo/planos/${ids.plan}`, {}, 422),
    adminOnlyPost('activate plan', `/admin/conteudo/planos/${ids.plan}/ativo`, { ativo: '1' }, 303),
    adminOnlyGet('areas', '/admin/conteudo/areas'),
    adminOnlyGet('new area form', '/admin/conteudo/areas/nova'),
    adminOnlyPost('create area', '/admin/conteudo/areas/nova', {}, 422),
    adminOnlyGet('area form', `/admin/conteudo/areas/${ids.area}`),
    adminOnlyPost('edit area', `/admin/conteudo/areas/${ids.area}`, {}, 422),
    adminOnlyPost('activate area', `/admin/conteudo/areas/${ids.area}/ativo`, { ativo: '1' }, 303),
    adminOnlyGet('modalities', '/admin/conteudo/modalidades'),
    adminOnlyGet('new modality form', '/admin/conteudo/modalidades/nova'),
    adminOnlyPost('create modality', '/admin/conteudo/modalidades/nova', {}, 422),
    adminOnlyGet('modality form', `/admin/conteudo/modalidades/${ids.modality}`),
    adminOnlyPost('edit modality', `/admin/conteudo/modalidades/${ids.modality}`, {}, 422),
    adminOnlyPost('activate modality', `/admin/conteudo/modalidades/${ids.modality}/ativo`, { ativo: '1' }, 303),
    adminOnlyGet('survey questions', '/admin/conteudo/perguntas'),
    adminOnlyGet('new question form', '/admin/conteudo/perguntas/nova'),
    adminOnlyPost('create question', '/admin/conteudo/perguntas/nova', {}, 422),
    adminOnlyGet('question form', `/admin/conteudo/perguntas/${ids.question}`),
    adminOnlyPost('edit question', `/admin/conteudo/perguntas/${ids.question}`, {}, 422),
    adminOnlyPost('activate question', `/admin/conteudo/perguntas/${ids.question}/ativo`, { ativo: '1' }, 303),
    adminOnlyPost('add option', `/admin/conteudo/perguntas/${ids.question}/opcoes`, {}, 422),
    adminOnlyPost('edit option', `/admin/conteudo/perguntas/${ids.question}/opcoes/${ids.option}`, {}, 422),
    adminOnlyPost(
      'activate option',
      `/admin/conteudo/perguntas/${ids.question}/opcoes/${ids.option}/ativo`,
      { ativo: '1' },
      303,
    ),
    // the answered option is deactivated, not deleted (run last for the admin: see below)
    adminOnlyPost('delete option', `/admin/conteudo/perguntas/${ids.question}/opcoes/${ids.option}/excluir`, {}, 303),
    adminOnlyPost('delete question', `/admin/conteudo/perguntas/${ids.question}/excluir`, {}, 303),

    // ---- accounts and audit: admins only
    adminOnlyGet('accounts', '/admin/contas'),
    adminOnlyGet('new account form', '/admin/contas/nova'),
    adminOnlyPost('create account', '/admin/contas/nova', {}, 422),
    adminOnlyGet('account form', `/admin/contas/${ids.account}`),
    adminOnlyPost('edit account', `/admin/contas/${ids.account}`, {}, 422),
    adminOnlyPost('reset password', `/admin/contas/${ids.account}/senha`, { nova_senha: 'curta' }, 422),
    adminOnlyPost('activate account', `/admin/contas/${ids.account}/ativo`, { ativo: '1' }, 303),
    adminOnlyGet('audit log', '/admin/auditoria'),

    // ---- calls-to-action clicks (managers: their units) and unit photos (admins)
    {
      name: 'clicks report',
      method: 'GET',
      url: '/admin/cliques',
      expect: {
        admin: { status: 200, contains: [ids.nameB] },
        gerente: { status: 200, contains: [ids.nameA], notContains: [ids.nameB] },
        anonimo: LOGIN,
      },
    },
    {
      name: 'clicks report, unit B',
      method: 'GET',
      url: `/admin/cliques?unidade_id=${B}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    adminOnlyGet('unit photos', `/admin/conteudo/unidades/${A}/fotos`),
    adminOnlyPost('unit photo upload without a file', `/admin/conteudo/unidades/${A}/fotos`, { alt: 'Sala' }, 422),
    adminOnlyPost(
      'unit photo action on a missing photo',
      `/admin/conteudo/unidades/${A}/fotos/999999`,
      { acao: 'remover' },
      404,
    ),
    adminOnlyGet('audit log, filtered', '/admin/auditoria?entidade=unidade&pagina=2'),

    // ---- privacy compliance: consents and the incident register, admins only
    adminOnlyGet('consents', '/admin/privacidade/consentimentos'),
    adminOnlyGet('consents of a contact', '/admin/privacidade/consentimentos?contato=ninguem%40example.com'),
    adminOnlyPost('revoke consent without a contact', '/admin/privacidade/consentimentos/revogar', {}, 422),
    adminOnlyGet('incidents', '/admin/privacidade/incidentes'),
    adminOnlyGet('incidents CSV', '/admin/privacidade/incidentes.csv'),
    adminOnlyGet('new incident form', '/admin/privacidade/incidentes/novo'),
    adminOnlyPost('create incident', '/admin/privacidade/incidentes/novo', {}, 422),
    adminOnlyGet('missing incident', '/admin/privacidade/incidentes/999999', 404),
    adminOnlyPost('edit missing incident', '/admin/privacidade/incidentes/999999', {}, 404),

    // ---- webhooks: admins only
    adminOnlyGet('webhook endpoints', '/admin/webhooks'),
    adminOnlyPost('new webhook endpoint without a URL', '/admin/webhooks', {}, 422),
    adminOnlyGet('missing webhook endpoint', '/admin/webhooks/999999', 404),
    adminOnlyPost('edit missing webhook endpoint', '/admin/webhooks/999999', {}, 404),
    adminOnlyPost('test a missing webhook endpoint', '/admin/webhooks/999999/teste', {}, 404),
    adminOnlyPost('delete a missing webhook endpoint', '/admin/webhooks/999999/excluir', {}, 404),
    adminOnlyPost('resend a missing delivery', '/admin/webhooks/999999/entregas/999999/reenviar', {}, 404),
    // ---- online enrolments: managers see their units' ones; the contract's text is admins' only
    {
      name: 'enrolments',
      method: 'GET',
      url: '/admin/matriculas',
      expect: { admin: 200, gerente: 200, anonimo: LOGIN },
    },
    {
      name: 'enrolments of unit B',
      method: 'GET',
      url: `/admin/matriculas?unidade_id=${B}`,
      expect: { admin: 200, gerente: 403, anonimo: LOGIN },
    },
    {
      name: 'enrolments CSV',
      method: 'GET',
      url: '/admin/matriculas.csv',
      expect: { admin: 200, gerente: 200, anonimo: LOGIN },
    },
    {
      name: 'missing enrolment',
      method: 'GET',
      url: '/admin/matriculas/999999',
      expect: { admin: 404, gerente: 404, anonimo: LOGIN },
    },
    {
      name: 'confirm a payment of a missing enrolment',
      method: 'POST',
      url: '/admin/matriculas/999999/pagamentos/999999/confirmar',
      body: {},
      expect: { admin: 404, gerente: 404, anonimo: LOGIN },
    },
    {
      name: 'refund of a missing enrolment',
      method: 'POST',
      url: '/admin/matriculas/999999/pagamentos/999999/reembolso',
      body: {},
      expect: { admin: 404, gerente: 404, anonimo: LOGIN },
    },
    {
      name: 'front desk of a missing enrolment',
      method: 'POST',
      url: '/admin/matriculas/999999/recepcao',
      body: {},
      expect: { admin: 404, gerente: 404, anonimo: LOGIN },
    },
    adminOnlyGet('enrolment contract', '/admin/matriculas/contrato'),
    adminOnlyPost('enrolment contract without text', '/admin/matriculas/contrato', { texto: '' }, 422),
    adminOnlyGet('missing contract version', '/admin/matriculas/contrato/999999', 404),
    // ---- privacy requests (admins only)
    adminOnlyGet('privacy queue', '/admin/privacidade?status=aberta'),
    adminOnlyGet('privacy search', '/admin/privacidade/busca?q=ninguem%40exemplo.com.br'),
    adminOnlyPost('privacy request opened without data', '/admin/privacidade', {}, 422),
    adminOnlyGet('privacy request, missing', '/admin/privacidade/999999', 404),
    adminOnlyGet('privacy export, missing', '/admin/privacidade/999999/dados.zip', 404),
    adminOnlyPost('privacy conclude, missing', '/admin/privacidade/999999/concluir', {}, 404),
    adminOnlyPost('privacy refuse, missing', '/admin/privacidade/999999/recusar', { motivo: 'x' }, 404),
    adminOnlyPost('privacy erasure, missing', '/admin/privacidade/999999/eliminar', { confirmar: 'sim' }, 404),
  ];
  return list;
}

function multipartBody(token: string) {
  const boundary = '----papel';
  const payload =
    `--${boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n` + `${token}\r\n--${boundary}--\r\n`;
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function request(c: Case, as: Who) {
  const { cookie, token } = who[as];
  if (c.method === 'GET') return t.app.inject({ method: 'GET', url: c.url, headers: { cookie } });
  if (c.multipart) {
    const mp = multipartBody(token);
    return t.app.inject({
      method: 'POST',
      url: c.url,
      headers: { cookie, 'content-type': mp.contentType },
      payload: mp.payload,
    });
  }
  return t.app.inject({
    method: 'POST',
    url: c.url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: token, ...c.body }),
  });
}

async function check(c: Case, as: Who) {
  const raw = c.expect[as];
  const e: Expect = typeof raw === 'number' ? { status: raw } : raw;
  const res = await request(c, as);
  const label = `${as} ${c.method} ${c.url} (${c.name})`;
  expect(res.statusCode, `${label}: ${res.body.slice(0, 300)}`).toBe(e.status);
  if (e.login) expect(String(res.headers.location), label).toMatch(/^\/pages\/Franquia\/admin\.php/);
  for (const s of e.contains ?? []) expect(res.body, `${label} should contain ${s}`).toContain(s);
  for (const s of e.notContains ?? []) expect(res.body, `${label} must not contain ${s}`).not.toContain(s);
  // Whatever is refused, is refused without the data.
  if (res.statusCode === 403 || e.login)
    for (const s of Object.values(SECRET)) expect(res.body, `${label} leaks ${s}`).not.toContain(s);
}

beforeAll(async () => {
  t = await createTestApp();
  await fixtures();
  const admin = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Admin' });
  const manager = await createStaffUser(t.db, { papel: 'gerente', nome: 'Gabi Gerente', unidadeIds: [ids.A] });
  ids.account = (await createStaffUser(t.db, { papel: 'gerente', nome: 'Outro Gerente', unidadeIds: [ids.B] })).id;
  const adminCookie = await loginAs(t.app, admin.email, admin.password);
  who.admin = { cookie: adminCookie, token: await staffToken(t.app, adminCookie, '/admin/conteudo') };
  const managerCookie = await loginAs(t.app, manager.email, manager.password);
  who.gerente = { cookie: managerCookie, token: await staffToken(t.app, managerCookie, '/admin/conteudo') };
  const anon = await fetchForm(t.app, '/pages/Franquia/index.php');
  who.anonimo = { cookie: anon.cookie, token: anon.token };
});
afterAll(async () => t?.close());

describe('role matrix', () => {
  it('covers every staff route the app registers', () => {
    const routes = t.app.printRoutes({ commonPrefix: false });
    const tested = new Set(cases().map((c) => c.url.split('?')[0]!.replace(/\/\d+/g, '/:id')));
    const staffPaths = [
      '/pages/Franquia/admin.php',
      '/pages/Franquia/smtp_test.php',
      '/admin/pesquisa',
      '/admin/pesquisa/exportar.csv',
      '/admin/pesquisa/resposta/:id',
      '/admin/mensagens',
      '/admin/mensagens/exportar.csv',
      '/admin/mensagens/:id',
      '/admin/mensagens/foto/:id',
      '/admin/mensagens/:id/status',
      '/admin/conteudo',
      '/admin/conteudo/unidades',
      '/admin/conteudo/unidades/nova',
      '/admin/conteudo/unidades/:id',
      '/admin/conteudo/unidades/:id/ativo',
      '/admin/conteudo/unidades/:id/aulas',
      '/admin/conteudo/unidades/:id/aulas/copiar',
      '/admin/conteudo/unidades/:id/aulas/csv',
      '/admin/conteudo/unidades/:id/aulas/csv/aplicar',
      '/admin/conteudo/unidades/:id/aulas/:id',
      '/admin/conteudo/unidades/:id/aulas/:id/remover',
      '/admin/conteudo/unidades/:id/planos',
      '/admin/conteudo/unidades/:id/planos/:id',
      '/admin/conteudo/planos',
      '/admin/conteudo/planos/novo',
      '/admin/conteudo/planos/:id',
      '/admin/conteudo/planos/:id/ativo',
      '/admin/conteudo/areas',
      '/admin/conteudo/areas/nova',
      '/admin/conteudo/areas/:id',
      '/admin/conteudo/areas/:id/ativo',
      '/admin/conteudo/modalidades',
      '/admin/conteudo/modalidades/nova',
      '/admin/conteudo/modalidades/:id',
      '/admin/conteudo/modalidades/:id/ativo',
      '/admin/conteudo/perguntas',
      '/admin/conteudo/perguntas/nova',
      '/admin/conteudo/perguntas/:id',
      '/admin/conteudo/perguntas/:id/ativo',
      '/admin/conteudo/perguntas/:id/excluir',
      '/admin/conteudo/perguntas/:id/opcoes',
      '/admin/conteudo/perguntas/:id/opcoes/:id',
      '/admin/conteudo/perguntas/:id/opcoes/:id/ativo',
      '/admin/conteudo/perguntas/:id/opcoes/:id/excluir',
      '/admin/contas',
      '/admin/contas/nova',
      '/admin/contas/:id',
      '/admin/contas/:id/senha',
      '/admin/contas/:id/ativo',
      '/admin/auditoria',
      '/admin/cliques',
      '/admin/conteudo/unidades/:id/fotos',
      '/admin/conteudo/unidades/:id/fotos/:id',
      '/admin',
      '/admin/preferencias',
      '/admin/mensagens/:id/responder',
      '/admin/pesquisa/resposta/:id/tratada',
      '/admin/pesquisa/cartaz/:id',
      '/admin/pesquisa/cartaz/:id/qr.svg',
      '/admin/aulas-experimentais',
      '/admin/aulas-experimentais/:id/status',
      '/admin/aulas-experimentais/funil',
      '/admin/aulas-experimentais/funil.csv',
      '/admin/aulas-experimentais/vagas',
      '/admin/privacidade/consentimentos',
      '/admin/privacidade/consentimentos/revogar',
      '/admin/privacidade/incidentes',
      '/admin/privacidade/incidentes.csv',
      '/admin/privacidade/incidentes/novo',
      '/admin/privacidade/incidentes/:id',
      '/admin/privacidade',
      '/admin/privacidade/busca',
      '/admin/privacidade/:id',
      '/admin/privacidade/:id/dados.zip',
      '/admin/privacidade/:id/concluir',
      '/admin/privacidade/:id/recusar',
      '/admin/privacidade/:id/eliminar',
      '/admin/matriculas',
      '/admin/matriculas.csv',
      '/admin/matriculas/:id',
      '/admin/matriculas/:id/pagamentos/:id/confirmar',
      '/admin/matriculas/:id/pagamentos/:id/reembolso',
      '/admin/matriculas/:id/recepcao',
      '/admin/matriculas/contrato',
      '/admin/matriculas/contrato/:id',
    ];
    for (const p of staffPaths) expect(tested.has(p), `no case for ${p}`).toBe(true);
    // Any /admin route registered later and not listed above makes this test fail, so the
    // matrix cannot silently fall behind the app.
    const full = flattenRoutes(routes).filter((p) => p.startsWith('/admin'));
    expect(full.length).toBeGreaterThan(0);
    const normalise = (p: string) => p.replace(/\/:[A-Za-z_]+/g, '/:id');
    for (const p of full) expect(tested.has(normalise(p)), `no case for registered route ${p}`).toBe(true);
  });

  it('anonymous visitors get the login page, never data', async () => {
    const before = await fingerprint();
    for (const c of cases()) await check(c, 'anonimo');
    expect(await fingerprint()).toBe(before);
  });

  it('the manager of unit A gets unit A, 403 on unit B and on everything else, and changes nothing else', async () => {
    const before = await fingerprint();
    for (const c of cases()) await check(c, 'gerente');
    expect(await fingerprint()).toBe(before);
    // what the manager was allowed to do did happen
    expect(
      await t.db.selectFrom('fale_aqui').select('status').where('id', '=', ids.msgA).executeTakeFirstOrThrow(),
    ).toEqual({ status: 'lida' });
    expect(await t.db.selectFrom('aulas').select('id').where('id', '=', ids.classA2).execute()).toEqual([]);
  });

  it('an admin gets every route', async () => {
    for (const c of cases()) await check(c, 'admin');
    // the answered option and question were deactivated, not deleted
    expect(
      await t.db.selectFrom('perguntas_opcoes').select('ativo').where('id', '=', ids.option).executeTakeFirst(),
    ).toEqual({ ativo: 0 });
    expect(
      await t.db.selectFrom('perguntas').select('ativo').where('id', '=', ids.question).executeTakeFirst(),
    ).toEqual({ ativo: 0 });
    expect(
      await t.db.selectFrom('franquia_leads').select('status').where('id', '=', ids.lead).executeTakeFirst(),
    ).toEqual({ status: 'em_contato' });
  });
});

/** Full paths from Fastify's printRoutes() tree (each line: indentation, branch, segment). */
function flattenRoutes(tree: string): string[] {
  const out: string[] = [];
  const stack: { depth: number; path: string }[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([\s│]*)[├└]── (\S+)/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length;
    while (stack.length && stack[stack.length - 1]!.depth >= depth) stack.pop();
    const seg = m[2]!;
    const parent = stack.length ? stack[stack.length - 1]!.path : '';
    const path = parent === '' && !seg.startsWith('/') ? `/${seg}` : `${parent}${seg}`;
    stack.push({ depth, path });
    out.push(path);
  }
  return out;
}
