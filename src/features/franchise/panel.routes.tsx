// /pages/Franquia/admin.php: the staff login (when nobody is logged in) and the lead
// panel. The URL scheme (docs/decisions/023): GET with filters + pagina lists leads,
// ?export=csv exports them, ?lead=ID opens one (&excluir=1 asks to confirm deletion);
// POST acao=entrar|sair|status|nota|excluir, always with csrf_token.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { sendError, wantsJson, invalidBody } from '../../http/errors';
import { EXPORT_COMPRESSION } from '../../http/compression';
import { rawString, toId } from '../../lib/form/index';
import { saoPauloDay } from '../../lib/time';
import { openStaffPage, staffOf } from '../../staff/scope';
import { ADMIN_PATH, handleLogin, handleLogout, safeReturnPath, showLogin } from '../identity/login.routes';
import { filterParams, parseFilters, type PanelService } from './panel.service';
import { DeleteConfirmPage, LeadDetailPage, LeadListPage } from './panel.view';

const Query = Type.Record(Type.String(), Type.Unknown());
const Body = Type.Record(Type.String(), Type.Unknown());

const str = rawString;
const leadId = (v: unknown): number | null => toId(rawString(v).trim());

export default async function panelRoutes(app: FastifyInstance, panel: PanelService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  /** Admins only; unit managers get a 403. Returns false when the reply was sent. */
  async function admitAdmin(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    await app.requireStaff(request, reply);
    if (reply.sent) return false;
    if (request.staff?.papel !== 'admin') {
      await sendError(
        request,
        reply,
        403,
        'Acesso negado',
        'Os leads de franquia são visíveis apenas para administradores.',
      );
      return false;
    }
    openStaffPage(request, reply);
    return true;
  }

  async function showDetail(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    extra: { flash?: string; noteError?: string; noteValue?: string; status?: number } = {},
  ) {
    const data = await panel.detail(id);
    if (!data) return sendError(request, reply, 404, 'Lead não encontrado', 'Este lead não existe ou foi excluído.');
    return reply.page(
      h(LeadDetailPage, { staff: request.staffPage, csrfToken: request.staffPage.csrfToken, ...data, ...extra }),
      extra.status ?? 200,
    );
  }

  // The lead list and its CSV export (?export=csv) share this path: the export's compression
  // level applies to the list too, a page of a few kilobytes.
  r.get(ADMIN_PATH, { schema: { querystring: Query }, ...EXPORT_COMPRESSION }, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    reply.header('cache-control', 'no-store');
    // No session (or an unknown one): the login form. A session that just ended (idle,
    // too old, disabled) goes through requireStaff below, which says so and clears it.
    if ((await app.identity.state(request)).kind === 'none') {
      if (request.cookies.sid) app.identity.sessions.clearCookie(request, reply);
      return showLogin(request, reply, {
        voltar: safeReturnPath(q.voltar),
        notice: q.saiu
          ? 'Você saiu da área da equipe.'
          : q.senha
            ? 'Senha alterada. Entre com a nova senha.'
            : undefined,
      });
    }
    // Already logged in and sent here to log in (an old tab, a bookmark): go on.
    const voltar = safeReturnPath(q.voltar);
    if (voltar) {
      await app.requireStaff(request, reply);
      if (reply.sent) return reply;
      return reply.redirect(voltar, 303);
    }
    // A stale session (idle/absolute expiry, disabled account) is sent back here to log in.
    if (!(await admitAdmin(request, reply))) return reply;

    if (q.lead !== undefined) {
      const id = leadId(q.lead);
      if (!id) return sendError(request, reply, 400, 'Endereço inválido', 'O número do lead não é válido.');
      if (str(q.excluir) === '1') {
        const data = await panel.detail(id);
        if (!data)
          return sendError(request, reply, 404, 'Lead não encontrado', 'Este lead não existe ou foi excluído.');
        return reply.page(
          h(DeleteConfirmPage, {
            staff: request.staffPage,
            csrfToken: request.staffPage.csrfToken,
            lead: data.lead,
          }),
        );
      }
      return showDetail(request, reply, id, { flash: str(q.ok) || undefined });
    }

    const filters = parseFilters(q);
    if (str(q.export) === 'csv') {
      request.log.info({ userId: staffOf(request).id, filters: filterParams(filters) }, 'lead export');
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="leads-franquia-${saoPauloDay()}.csv"`)
        .send(panel.exportCsv(filters));
    }
    const list = await panel.list(filters, q.pagina);
    return reply.page(
      h(LeadListPage, {
        staff: request.staffPage,
        filters,
        filterPairs: filterParams(filters),
        ...list,
        flash: str(q.ok) || undefined,
      }),
    );
  });

  r.post(ADMIN_PATH, { schema: { body: Body }, preHandler: app.csrfProtection }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const acao = str(body.acao) || 'entrar';
    if (acao === 'sair') return handleLogout(request, reply);
    if (acao === 'entrar') return handleLogin(request, reply, body);
    if (!(await admitAdmin(request, reply))) return reply;

    const id = leadId(body.lead_id);
    if (!id) return sendError(request, reply, 400, 'Requisição inválida', 'O número do lead não é válido.');
    const userId = staffOf(request).id;

    if (acao === 'status') {
      const res = await panel.setStatus(id, body.status, userId);
      if (res === 'not-found')
        return sendError(request, reply, 404, 'Lead não encontrado', 'Este lead não existe ou foi excluído.');
      if (res === 'invalid')
        return sendError(request, reply, 422, 'Status inválido', 'Escolha um dos status da lista.');
      return wantsJson(request) ? reply.send({ ok: true }) : reply.redirect(`${ADMIN_PATH}?lead=${id}&ok=status`, 303);
    }
    if (acao === 'nota') {
      const res = await panel.addNote(id, body.texto, userId);
      if (res === 'not-found')
        return sendError(request, reply, 404, 'Lead não encontrado', 'Este lead não existe ou foi excluído.');
      if (res !== 'ok') {
        if (wantsJson(request)) return reply.code(422).send(invalidBody({ texto: res }));
        return showDetail(request, reply, id, {
          noteError: res,
          noteValue: str(body.texto).slice(0, 5000),
          status: 422,
        });
      }
      return wantsJson(request) ? reply.send({ ok: true }) : reply.redirect(`${ADMIN_PATH}?lead=${id}&ok=nota`, 303);
    }
    if (acao === 'excluir') {
      // The confirmation page sends confirmar=sim; anything else goes back to it.
      if (str(body.confirmar) !== 'sim') return reply.redirect(`${ADMIN_PATH}?lead=${id}&excluir=1`, 303);
      const deleted = await panel.delete(id);
      if (!deleted)
        return sendError(request, reply, 404, 'Lead não encontrado', 'Este lead não existe ou já foi excluído.');
      request.log.info({ userId, leadId: id }, 'lead deleted (LGPD)');
      return wantsJson(request) ? reply.send({ ok: true }) : reply.redirect(`${ADMIN_PATH}?ok=excluido`, 303);
    }
    return sendError(request, reply, 400, 'Ação desconhecida', 'A ação pedida não existe.');
  });
}
