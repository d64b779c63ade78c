// Retention is configuration: /privacidade shows the periods, the encarregado and the
// processors from the same settings the retention job applies; the job keeps a row just
// inside its period and anonymises one just outside, deletes the photos from storage,
// and is safe on two instances at once. On SQLite and PostgreSQL.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app';
import { REMOVED_TEXT } from '../../src/db/anonymised';
import { retentionCandidates } from '../../src/features/privacy/retention.repository';
import { cutoffMonths, cutoffYears } from '../../src/lib/time';
import { RETENTION_BATCH } from '../../src/features/privacy/retention.service';
import { CompiledQuery, sql } from 'kysely';
import { createTestApp, secondInstance, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { storedFiles } from '../helpers/storage';
import { postMessage } from '../helpers/upload';
import { enqueueMail } from '../../src/platform/mail/outbox.repository';
import { recordConsent } from '../../src/features/privacy/consent.repository';
import { ANONYMOUS_PERSON } from '../../src/db/anonymised';
import type { EnrolmentStatus } from '../../src/db/types';
import { enrolmentRow } from '../helpers/enrolment';

const MONTHS = { leads: 6, messages: 3, survey: 9, bookings: 12 };
let t: TestContext;
let second: App;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      DPO_NAME: 'Joana Encarregada',
      DPO_EMAIL: 'dpo@academia.example',
      SMTP_HOST: 'smtp.correio.example',
      SMTP_PORT: '2',
      SMTP_SECURE: 'none',
      MAIL_PROVIDER_NAME: 'Correio Exemplo',
      NOTIFICATION_EMAIL: 'ouvidoria@academia.example',
      FRANCHISE_NOTIFICATION_EMAIL: 'expansao@academia.example',
      RETENTION_LEADS_MONTHS: String(MONTHS.leads),
      RETENTION_MESSAGES_MONTHS: String(MONTHS.messages),
      RETENTION_SURVEY_CONTACT_MONTHS: String(MONTHS.survey),
      RETENTION_BOOKINGS_MONTHS: String(MONTHS.bookings),
    },
  });
  second = await secondInstance(t);
});
afterAll(async () => {
  await second?.close();
  await t?.close();
});

describe('/privacidade and the footer', () => {
  it('show the encarregado, the processors and the configured periods', async () => {
    const res = await t.app.inject('/privacidade');
    expect(res.statusCode).toBe(200);
    const body = res.body;
    expect(body).toContain('Joana Encarregada');
    expect(body).toContain('mailto:dpo@academia.example');
    // the periods come from the settings the job reads
    expect(body).toContain(`data-retention="leads" data-months="${MONTHS.leads}"`);
    expect(body).toContain(`data-retention="messages" data-months="${MONTHS.messages}"`);
    expect(body).toContain(`data-retention="surveyContacts" data-months="${MONTHS.survey}"`);
    expect(body).toContain(`data-retention="bookings" data-months="${MONTHS.bookings}"`);
    expect(body).toContain('3 meses contados a partir da data da mensagem');
    expect(body).toContain('12 meses (1 ano)');
    expect(body).toContain('5 anos a partir do registro');
    // the online enrolment: what it keeps, for how long and why, and where to see it
    expect(body).toContain('data-retention="matriculas" data-years="5"');
    expect(body).toContain('por 5 anos depois do fim dele');
    expect(body).toContain('Código Civil, art. 206, § 5º, I');
    expect(body).toContain('Código de Defesa do Consumidor, art. 27');
    expect(body).toContain('<a href="/matricula/minha">Minha matrícula</a>');
    // processors: the benefit platforms the demo units link to, and the mail provider
    expect(body).toMatch(/<strong>TotalPass<\/strong> \(totalpass\.com\)/);
    expect(body).toMatch(/<strong>Wellhub<\/strong> \(wellhub\.com\)/);
    expect(body).toContain('<strong>Correio Exemplo</strong>');
    // the default static Pix goes from the payer's bank to the unit's: no payment processor
    expect(body).not.toContain('<strong>Asaas</strong>');
    expect(body).not.toContain('webhook');

    // every public page's footer names the encarregado
    const home = await t.app.inject('/');
    expect(home.body).toContain('Encarregado de dados (LGPD): Joana Encarregada');
    expect(home.body).toContain('mailto:dpo@academia.example');
  });

  it('lists an active webhook receiver, and drops a benefit platform no active unit links to', async () => {
    const now = new Date().toISOString();
    await t.db
      .insertInto('webhook_endpoints')
      .values({
        url: 'https://crm.parceiro.example/ganchos',
        eventos: ',lead.criado,',
        segredo: 'whsec_x',
        ativo: 1,
        criado_em: now,
        atualizado_em: now,
      })
      .execute();
    const body = (await t.app.inject('/privacidade')).body;
    expect(body).toContain('crm.parceiro.example');
    await t.db.deleteFrom('webhook_endpoints').execute();
    expect((await t.app.inject('/privacidade')).body).not.toContain('crm.parceiro.example');
  });

  it('defaults: the encarregado from PUBLIC_URL and the 12-month bookings period', async () => {
    const other = await createTestApp({ seed: false, env: { PUBLIC_URL: 'https://www.academia-exemplo.com.br' } });
    try {
      expect(other.config.privacy).toMatchObject({
        dpoName: 'Encarregado de proteção de dados',
        dpoEmail: 'privacidade@academia-exemplo.com.br',
        dpoEmailDefaulted: true,
        retention: { leadsMonths: 24, messagesMonths: 24, surveyContactMonths: 24, bookingsMonths: 12 },
      });
      expect((await other.app.inject('/privacidade')).body).toContain('privacidade@academia-exemplo.com.br');
    } finally {
      await other.close();
    }
  });
});

const jpeg = (color: string) =>
  sharp({ create: { width: 30, height: 20, channels: 3, background: color } })
    .jpeg()
    .toBuffer();

describe('the retention job', () => {
  it('keeps rows inside each period, anonymises those outside, deletes their photos, on two instances', async () => {
    const now = new Date('2031-06-15T12:00:00.000Z');
    const at = (months: number, deltaMs: number) =>
      new Date(cutoffMonths(now, months).getTime() + deltaMs).toISOString();

    // Free messages with a photo and a contact: one just outside, one just inside.
    const messages: number[] = [];
    for (const [i, color] of ['#aa0000', '#00aa00'].entries()) {
      const res = await postMessage(
        t.app,
        {
          unidade_id: '1',
          nome_completo: `Pessoa Mensagem ${i}`,
          mensagem: `Mensagem pessoal ${i}`,
          contato_email: `msg${i}@example.com`,
          aceite_contato: 'sim',
        },
        [{ name: 'foto.jpg', type: 'image/jpeg', data: await jpeg(color) }],
      );
      expect(res.statusCode).toBe(303);
      messages.push(
        (await t.db.selectFrom('fale_aqui').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id,
      );
    }
    const [oldMsg, newMsg] = messages as [number, number];
    await t.db
      .updateTable('fale_aqui')
      .set({ criado_em: at(MONTHS.messages, -1) })
      .where('id', '=', oldMsg)
      .execute();
    await t.db
      .updateTable('fale_aqui')
      .set({ criado_em: at(MONTHS.messages, 0) })
      .where('id', '=', newMsg)
      .execute();
    const photoOf = async (id: number) =>
      (await t.db.selectFrom('fale_aqui_arquivos').select('caminho').where('fale_aqui_id', '=', id).execute()).map(
        (r) => r.caminho,
      );
    const oldPhotos = await photoOf(oldMsg);
    const newPhotos = await photoOf(newMsg);
    expect(oldPhotos.length).toBeGreaterThan(0);
    const filesBefore = await storedFiles(t);
    for (const k of oldPhotos) expect(filesBefore.some((f) => f.endsWith(k))).toBe(true);

    // Franchise leads (through the form): untouched for just over / just under the period.
    const leads: number[] = [];
    for (const i of [0, 1]) {
      const page = await fetchForm(t.app, '/pages/Franquia/index.php');
      const res = await t.app.inject({
        method: 'POST',
        url: '/pages/Franquia/index.php',
        remoteAddress: `10.62.0.${i + 1}`,
        headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({
          csrf_token: page.token,
          nome_completo: `Lead Retido ${i}`,
          whatsapp: `(11) 9444${i}-0000`,
          email: `lead${i}@example.com`,
          cidade_regiao: 'Sorocaba - SP',
          investimento_parceria: 'sozinho',
          faixa_investimento: '300mil_500mil',
          prazo_proximo_passo: 'ate_3_meses',
          experiencia_negocio: 'empresario',
          motivo_interesse: 'ter_meu_negocio',
          aceita_contato: 'sim',
        }),
      });
      expect(res.statusCode).toBe(303);
      leads.push(
        (await t.db.selectFrom('franquia_leads').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id,
      );
    }
    const [oldLead, newLead] = leads as [number, number];
    await t.db
      .updateTable('franquia_leads')
      .set({ atualizado_em: at(MONTHS.leads, -1) })
      .where('id', '=', oldLead)
      .execute();
    await t.db
      .updateTable('franquia_leads')
      .set({ atualizado_em: at(MONTHS.leads, 1) })
      .where('id', '=', newLead)
      .execute();
    await t.db
      .insertInto('franquia_leads_notas')
      .values({
        lead_id: oldLead,
        usuario_id: null,
        texto: 'Ligou de novo, mora na rua X',
        criado_em: now.toISOString(),
      })
      .execute();
    // The notification mails went out (sent mails are cleared; pending ones are left to go).
    await t.db.updateTable('fila_emails').set({ status: 'enviado' }).execute();

    // Survey answers with a contact.
    const survey = async (criado: string, tag: string) =>
      (
        await t.db
          .insertInto('respostas_nps')
          .values({
            unidade_id: 1,
            nome_cliente: `Cliente ${tag}`,
            contato_cliente: `${tag}@example.com`,
            comentario: 'Gostei',
            nota_nps: 9,
            envio_id: null,
            criado_em: criado,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const oldAnswer = await survey(at(MONTHS.survey, -1), 'antigo');
    const newAnswer = await survey(at(MONTHS.survey, 0), 'recente');

    // Trial-class bookings, by the class's start.
    const booking = async (inicio: string, tag: string) =>
      (
        await t.db
          .insertInto('aulas_experimentais')
          .values({
            unidade_id: 1,
            aula_id: null,
            vaga: `livre:${inicio.slice(0, 10)}:${tag}`,
            atividade: 'Treino livre',
            inicio_em: inicio,
            fim_em: inicio,
            dia: inicio.slice(0, 10),
            nome: `Aluno ${tag}`,
            whatsapp: '+5511955550000',
            email: `${tag}@example.com`,
            aceita_contato: 1,
            envio_id: `ret-${tag}-envio-00000000`,
            codigo: `ret-${tag}-codigo-0000000`,
            status: 'agendado',
            status_por: null,
            lembrete_em: null,
            anonimizado_em: null,
            semana: inicio.slice(0, 10),
            criado_em: inicio,
            atualizado_em: inicio,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const oldBooking = await booking(at(MONTHS.bookings, -1), 'b-antigo');
    const newBooking = await booking(at(MONTHS.bookings, 0), 'b-recente');

    // Incidents: kept five years from their registration.
    const fiveYears = cutoffYears(now, 5).getTime();
    const incident = async (criado: number) =>
      (
        await t.db
          .insertInto('incidentes')
          .values({
            constatado_em: '2026-01-10',
            descricao: 'x',
            dados_afetados: 'e-mail',
            titulares_afetados: 'clientes',
            quantidade_titulares: 3,
            risco: 'baixo',
            medidas: 'y',
            anpd_comunicada_em: null,
            titulares_comunicados_em: null,
            criado_por: null,
            criado_em: new Date(criado).toISOString(),
            atualizado_em: new Date(criado).toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const oldIncident = await incident(fiveYears - 1);
    const newIncident = await incident(fiveYears);

    const [r1, r2] = await Promise.all([t.app.retentionJob.run(now), second.retentionJob.run(now)]);
    const sum = (k: keyof typeof r1) => r1[k] + r2[k];
    expect({
      surveyContacts: sum('surveyContacts'),
      messages: sum('messages'),
      leads: sum('leads'),
      bookings: sum('bookings'),
      incidents: sum('incidents'),
    }).toMatchObject({ messages: 1, leads: 1, bookings: 1, incidents: 1 });
    expect(sum('surveyContacts')).toBeGreaterThanOrEqual(1);
    expect(sum('photos')).toBe(oldPhotos.length);
    // A second run finds nothing left.
    expect(await t.app.retentionJob.run(now)).toEqual({
      surveyContacts: 0,
      messages: 0,
      photos: 0,
      leads: 0,
      bookings: 0,
      enrolments: 0,
      incidents: 0,
    });

    // Messages: text, name and contact gone; photos deleted from storage; the newer one intact.
    const msg = (id: number) => t.db.selectFrom('fale_aqui').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await msg(oldMsg)).toMatchObject({
      mensagem: REMOVED_TEXT,
      contato_email: null,
      contato_telefone: null,
      anonimo: 1,
    });
    expect(await msg(newMsg)).toMatchObject({ mensagem: 'Mensagem pessoal 1', contato_email: 'msg1@example.com' });
    expect(await photoOf(oldMsg)).toEqual([]);
    expect(await photoOf(newMsg)).toEqual(newPhotos);
    const filesAfter = await storedFiles(t);
    for (const k of oldPhotos) expect(filesAfter.some((f) => f.endsWith(k))).toBe(false);
    for (const k of newPhotos) expect(filesAfter.some((f) => f.endsWith(k))).toBe(true);

    // Leads: name, WhatsApp, e-mail, notes gone; city and answers stay.
    const lead = (id: number) =>
      t.db.selectFrom('franquia_leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await lead(oldLead)).toMatchObject({ email: '', whatsapp: '', cidade_regiao: 'Sorocaba - SP' });
    expect((await lead(newLead)).email).toBe('lead1@example.com');
    expect(await t.db.selectFrom('franquia_leads_notas').selectAll().where('lead_id', '=', oldLead).execute()).toEqual(
      [],
    );

    // Survey: contact gone, the score stays.
    const answer = (id: number) =>
      t.db.selectFrom('respostas_nps').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await answer(oldAnswer)).toMatchObject({ nome_cliente: null, contato_cliente: null, nota_nps: 9 });
    expect(await answer(newAnswer)).toMatchObject({ contato_cliente: 'recente@example.com' });

    // Bookings.
    const b = (id: number) =>
      t.db.selectFrom('aulas_experimentais').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await b(oldBooking)).toMatchObject({ email: null, whatsapp: null, anonimizado_em: now.toISOString() });
    expect((await b(newBooking)).email).toBe('b-recente@example.com');

    // Incidents: five years to the millisecond.
    const incidents = (await t.db.selectFrom('incidentes').select('id').execute()).map((r) => r.id);
    expect(incidents).toContain(newIncident);
    expect(incidents).not.toContain(oldIncident);

    // The copies: consent proofs keep version and date without the contact; sent mails lose the text.
    const proofs = await t.db
      .selectFrom('consentimentos')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb.and([eb('tabela', '=', 'fale_aqui'), eb('registro_id', '=', oldMsg)]),
          eb.and([eb('tabela', '=', 'franquia_leads'), eb('registro_id', '=', oldLead)]),
        ]),
      )
      .execute();
    expect(proofs).toHaveLength(2);
    for (const p of proofs) expect(p).toMatchObject({ email: null, telefone: null, versao: 1 });
    const mails = await t.db
      .selectFrom('fila_emails')
      .selectAll()
      .where('origem', 'in', [`fale_aqui:${oldMsg}`, `franquia_leads:${oldLead}`])
      .execute();
    expect(mails).toHaveLength(2);
    for (const m of mails) expect(m).toMatchObject({ texto: REMOVED_TEXT, anexos: null });
    const all = JSON.stringify(await t.db.selectFrom('fila_emails').selectAll().execute());
    expect(all).not.toContain('Mensagem pessoal 0');
    expect(all).not.toContain('lead0@example.com');
    expect(all).toContain('lead1@example.com');
  });
});

describe('the retention job at chain scale', () => {
  it('reads only the rows left to do: every candidate query runs along its partial index', async () => {
    const candidates = retentionCandidates(t.db);
    const expected = {
      surveyContacts: 'respostas_nps_retencao_idx',
      messages: 'fale_aqui_retencao_idx',
      leads: 'franquia_leads_retencao_idx',
      bookings: 'aulas_experimentais_retencao_idx',
      enrolments: 'matriculas_retencao_idx',
    } as const;
    for (const [kind, index] of Object.entries(expected)) {
      const candidate = candidates[kind as keyof typeof expected] as (cutoffIso: string) => {
        limit(n: number): { compile(): CompiledQuery };
      };
      const q = candidate('2031-01-01T00:00:00.000Z').limit(500).compile();
      const plan =
        t.testDb.config.engine === 'sqlite'
          ? (await t.db.executeQuery(CompiledQuery.raw(`explain query plan ${q.sql}`, [...q.parameters]))).rows
          : // A table this small is cheaper to scan: with scans off, the planner takes the index only if it applies.
            await t.db.transaction().execute(async (trx) => {
              await sql`set local enable_seqscan = off`.execute(trx);
              return (await trx.executeQuery(CompiledQuery.raw(`explain ${q.sql}`, [...q.parameters]))).rows;
            });
      expect(JSON.stringify(plan), kind).toContain(index);
    }
  });

  it('anonymises a backlog larger than one batch, in several transactions', async () => {
    const now = new Date('2031-06-15T12:00:00.000Z');
    const old = new Date(cutoffMonths(now, MONTHS.bookings).getTime() - 86_400_000).toISOString();
    const count = RETENTION_BATCH * 2 + 7;
    const rows = Array.from({ length: count }, (_, i) => ({
      unidade_id: 1,
      aula_id: null,
      vaga: `livre:${old.slice(0, 10)}:lote-${i}`,
      atividade: 'Treino livre',
      inicio_em: old,
      fim_em: old,
      dia: old.slice(0, 10),
      nome: `Aluno Lote ${i}`,
      whatsapp: '+5511955550000',
      email: `lote${i}@example.com`,
      aceita_contato: 1,
      envio_id: `lote-${i}-envio-000000000000`,
      codigo: `lote-${i}-codigo-00000000000`,
      status: 'agendado',
      status_por: null,
      lembrete_em: null,
      anonimizado_em: null,
      semana: old.slice(0, 10),
      criado_em: old,
      atualizado_em: old,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await t.db
        .insertInto('aulas_experimentais')
        .values(rows.slice(i, i + 200))
        .execute();
    }
    const result = await t.app.retentionJob.run(now);
    expect(result.bookings).toBe(count);
    const left = await t.db
      .selectFrom('aulas_experimentais')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('nome', 'like', 'Aluno Lote %')
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
    expect((await t.app.retentionJob.run(now)).bookings).toBe(0);
  });
});

describe('the retention job and online enrolments', () => {
  it('anonymises an enrolment 5 years after its end; not before, in force or with a charge open', async () => {
    const now = new Date('2032-03-10T15:00:00.000Z');
    const cutoff = cutoffYears(now, 5).getTime();
    const day = 86_400_000;
    const iso = (ms: number) => new Date(ms).toISOString();
    const plan = await t.db.selectFrom('planos').select('id').orderBy('id').executeTakeFirstOrThrow();
    let n = 0;
    const enrol = async (status: EnrolmentStatus, end: Partial<Record<'expira' | 'desiste' | 'cancela', number>>) => {
      n++;
      const accepted = iso(Math.min(end.expira ?? now.getTime(), end.desiste ?? now.getTime()) - 30 * day);
      return (
        await t.db
          .insertInto('matriculas')
          .values(
            enrolmentRow(
              {
                codigo: `retencao-matricula-${n}`,
                unidade_id: 1,
                plano_id: plan.id,
                status,
                nome: `Aluna Contrato ${n}`,
                cpf: String(52998224700 + n),
                nascimento: '1990-04-01',
                email: `contrato${n}@exemplo.com.br`,
                whatsapp: '+5511955551234',
                aceita_marketing: 1,
                responsavel_nome: 'Mãe Responsável',
                responsavel_cpf: '11144477735',
                unidade_nome: 'Unidade Centro',
                plano_nome: 'Plano Mensal',
                contrato_texto: `Contrato de Aluna Contrato ${n}, CPF ${52998224700 + n}`,
                contrato_sha256: 'a'.repeat(64),
                aceite_ip: '203.0.113.9',
                aceite_user_agent: 'Mozilla/5.0 (Linux; Android 14)',
                expira_em: iso(end.expira ?? Date.parse(accepted) + day),
                desistencia_em: end.desiste === undefined ? null : iso(end.desiste),
                cancelamento_efetivo_em: end.cancela === undefined ? null : iso(end.cancela).slice(0, 10),
              },
              accepted,
            ),
          )
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    };
    const before = cutoff - 2 * day;
    const after = cutoff + 2 * day;
    const ids = {
      cancelledLongAgo: await enrol('cancelada', { cancela: before }),
      withdrawnLongAgo: await enrol('desistencia', { desiste: before }),
      expiredLongAgo: await enrol('expirada', { expira: before }),
      cancelledRecently: await enrol('cancelada', { cancela: after }),
      withdrawnRecently: await enrol('desistencia', { desiste: after }),
      // in force for years: the period has not started
      inForce: await enrol('ativa', { expira: before - 2000 * day }),
      // withdrawn long ago with the refund still open: kept until it is settled
      refundOpen: await enrol('desistencia', { desiste: before }),
    };
    await t.db
      .insertInto('matriculas_pagamentos')
      .values({
        matricula_id: ids.refundOpen,
        tipo: 'reembolso',
        valor_centavos: 9990,
        status: 'pendente',
        provedor: 'pix',
        referencia: `MAT${ids.refundOpen}R1-retencao`,
        criado_em: iso(before),
        atualizado_em: iso(before),
      })
      .execute();
    for (const id of Object.values(ids)) {
      await recordConsent(t.db, {
        finalidade: 'matricula_ofertas',
        versao: 1,
        canal: 'site',
        email: `consent${id}@exemplo.com.br`,
        telefone: '+5511955551234',
        tabela: 'matriculas',
        registroId: id,
        aceitoEm: iso(before),
      });
      const mail = await enqueueMail(t.db, {
        to: `consent${id}@exemplo.com.br`,
        subject: 'Sua matrícula',
        text: 'Contrato em anexo',
        origin: `matricula:${id}`,
      });
      await t.db.updateTable('fila_emails').set({ status: 'enviado' }).where('id', '=', mail).execute();
    }

    // two instances at once: each enrolment is anonymised by one of them
    const [a, b] = await Promise.all([t.app.retentionJob.run(now), second.retentionJob.run(now)]);
    expect(a.enrolments + b.enrolments).toBe(3);

    const rows = await t.db.selectFrom('matriculas').selectAll().where('id', 'in', Object.values(ids)).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of [ids.cancelledLongAgo, ids.withdrawnLongAgo, ids.expiredLongAgo]) {
      const r = byId.get(id)!;
      expect(r).toMatchObject({
        nome: ANONYMOUS_PERSON,
        cpf: '',
        nascimento: '',
        email: '',
        whatsapp: null,
        aceita_marketing: 0,
        responsavel_nome: null,
        responsavel_cpf: null,
        contrato_texto: REMOVED_TEXT,
        aceite_ip: null,
        aceite_user_agent: null,
        anonimizado_em: now.toISOString(),
      });
      // what was sold stays, for the chain's accounts: plan, price, dates, the contract's version and hash
      expect(r).toMatchObject({ plano_nome: 'Plano Mensal', mensalidade_centavos: 9990, contrato_versao: 1 });
      expect(r.contrato_sha256).toBe('a'.repeat(64));
    }
    for (const id of [ids.cancelledRecently, ids.withdrawnRecently, ids.inForce, ids.refundOpen]) {
      const r = byId.get(id)!;
      expect(r.nome).toMatch(/^Aluna Contrato /);
      expect(r.cpf).toMatch(/^\d{11}$/);
      expect(r.anonimizado_em).toBeNull();
    }

    const gone = [ids.cancelledLongAgo, ids.withdrawnLongAgo, ids.expiredLongAgo];
    const consents = await t.db
      .selectFrom('consentimentos')
      .select(['registro_id', 'email', 'telefone', 'finalidade'])
      .where('tabela', '=', 'matriculas')
      .where('registro_id', 'in', Object.values(ids))
      .execute();
    for (const c of consents) {
      if (gone.includes(c.registro_id!)) expect(c).toMatchObject({ email: null, telefone: null });
      else expect(c.email).toBe(`consent${c.registro_id}@exemplo.com.br`);
      expect(c.finalidade).toBe('matricula_ofertas');
    }
    const mails = await t.db
      .selectFrom('fila_emails')
      .select(['origem', 'destinatario', 'texto'])
      .where(
        'origem',
        'in',
        Object.values(ids).map((id) => `matricula:${id}`),
      )
      .execute();
    expect(mails).toHaveLength(7);
    for (const m of mails) {
      const id = Number(m.origem!.split(':')[1]);
      if (gone.includes(id)) expect(m).toMatchObject({ destinatario: '', texto: REMOVED_TEXT });
      else expect(m.destinatario).toBe(`consent${id}@exemplo.com.br`);
    }

    // the refund settled: the period has long passed, so the next pass takes it
    await t.db
      .updateTable('matriculas_pagamentos')
      .set({ status: 'pago' })
      .where('matricula_id', '=', ids.refundOpen)
      .execute();
    expect((await t.app.retentionJob.run(now)).enrolments).toBe(1);
    expect((await t.app.retentionJob.run(now)).enrolments).toBe(0);

    // /privacidade says what is left afterwards
    const res = await t.app.inject('/privacidade');
    expect(res.body).toContain('ficam só o plano, os valores e as datas');
  });
});
