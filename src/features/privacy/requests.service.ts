// The staff queue of data subjects' requests (/admin/privacidade, admins): the list with
// the overdue first, a search of one person across the site (by e-mail or WhatsApp), a
// request opened for someone who called or came to the front desk, and each request
// concluded (an erasure carried out) or refused with a reason, with who and when.
import type { Transactional } from '../../db/transactional';
import { nowIso } from '../../db/index';
import { multiLine, oneLine, parseEmail, parsePhone, take } from '../../lib/form/index';
import { pageWindow } from '../../lib/pagination';
import { LIST_PAGE_SIZE } from '../../staff/list';
import type { PersonDataService, PrivacyRepos } from './person-data.service';
import type { Subject } from './registry';
import { isStaffRequestKind, REQUEST_STATUSES, requestRow } from './requests';

export const NOTE_MAX = 1000;

export type SearchResult =
  | { kind: 'empty' }
  | { kind: 'invalid'; error: string }
  | { kind: 'found'; subject: Subject; overview: Awaited<ReturnType<PersonDataService['overview']>> };

/** An e-mail (has an @) or a Brazilian phone typed in the search box. */
export function parseSubject(q: string): { ok: true; subject: Subject } | { ok: false; error: string } {
  const text = q.trim();
  if (text.length > 254)
    return { ok: false, error: 'Informe um e-mail ou um WhatsApp com DDD, por exemplo (11) 98765-4321.' };
  if (text.includes('@')) {
    const email = parseEmail(text, { lowerCase: true });
    return email.ok && email.value
      ? { ok: true, subject: { email: email.value, phones: [] } }
      : { ok: false, error: 'Informe um e-mail válido, por exemplo nome@exemplo.com.br.' };
  }
  const phone = parsePhone(text);
  return phone.ok && phone.value
    ? { ok: true, subject: { email: null, phones: [phone.value] } }
    : { ok: false, error: 'Informe um e-mail ou um WhatsApp com DDD, por exemplo (11) 98765-4321.' };
}

/** The person a request is about, while the request still names them (erasure empties it). */
export function subjectOf(r: { email: string | null; telefone: string | null }): Subject | null {
  if (!r.email && !r.telefone) return null;
  return { email: r.email, phones: r.telefone ? [r.telefone] : [] };
}

export function createRequestsService(deps: { repos: Transactional<PrivacyRepos>; person: PersonDataService }) {
  const { repos, person } = deps;

  return {
    /** A page of the queue; `status` '' = every status. */
    async queue(status: string, pagina: unknown) {
      const filter = Object.hasOwn(REQUEST_STATUSES, status) ? status : null;
      const info = pageWindow(await repos.requests.countRequests(filter), LIST_PAGE_SIZE, pagina);
      return { info, rows: await repos.requests.listRequests(filter, info.size, info.offset), status: filter };
    },

    /** One person's data across the site (the phones given with the e-mail included). */
    async search(q: string): Promise<SearchResult> {
      if (q.trim() === '') return { kind: 'empty' };
      const parsed = parseSubject(q);
      if (!parsed.ok) return { kind: 'invalid', error: parsed.error };
      const subject = await person.expand(parsed.subject);
      return { kind: 'found', subject, overview: await person.overview(subject) };
    },

    /** Opens a request for someone who called or came in. */
    async open(
      fields: Record<string, unknown>,
      staffId: number,
    ): Promise<{ ok: true; id: number } | { ok: false; errors: Record<string, string> }> {
      const errors: Record<string, string> = {};
      const tipo = typeof fields.tipo === 'string' ? fields.tipo : '';
      if (!isStaffRequestKind(tipo)) errors.tipo = 'Escolha o tipo do pedido.';
      const email = take(errors, 'email', parseEmail(fields.email, { lowerCase: true }), '');
      const telefone = take(errors, 'telefone', parsePhone(fields.telefone), '');
      if (!errors.email && !errors.telefone && !email && !telefone)
        errors.email = 'Informe o e-mail ou o WhatsApp da pessoa.';
      const texto = take(errors, 'texto', multiLine(fields.texto, { max: NOTE_MAX }), '');
      if (Object.keys(errors).length || !isStaffRequestKind(tipo)) return { ok: false, errors };
      const envio = typeof fields.envio_id === 'string' ? fields.envio_id.slice(0, 64) : null;
      const row = requestRow({
        tipo,
        canal: 'equipe',
        subject: { email: email || null, phones: telefone ? [telefone] : [] },
        texto: texto || null,
        envioId: envio || null,
        openedBy: staffId,
      });
      const id =
        (await repos.requests.insertRequest(row)) ?? (envio ? (await repos.requests.findByEnvio(envio))?.id : null);
      if (!id) return { ok: false, errors: { tipo: 'O pedido não foi gravado. Tente de novo.' } };
      return { ok: true, id };
    },

    /** A request and, while it still names the person, what the site holds for them. */
    async detail(id: number) {
      const request = await repos.requests.findRequest(id);
      if (!request) return null;
      const named = subjectOf(request);
      const subject = named ? await person.expand(named) : null;
      return { request, subject, overview: subject ? await person.overview(subject) : [] };
    },

    /** Concludes (with an optional note) or refuses (a reason is required) an open request. */
    async close(
      id: number,
      staffId: number,
      status: 'concluida' | 'recusada',
      fields: Record<string, unknown>,
    ): Promise<
      | { ok: true }
      | { ok: false; errors: Record<string, string> }
      | { ok: false; closed: true }
      | { ok: false; notFound: true }
    > {
      if (!(await repos.requests.findRequest(id))) return { ok: false, notFound: true };
      const errors: Record<string, string> = {};
      const motivo = take(
        errors,
        'motivo',
        oneLine(fields.motivo, {
          max: NOTE_MAX,
          required: status === 'recusada' ? 'Explique por que o pedido foi recusado.' : undefined,
        }),
        '',
      );
      if (Object.keys(errors).length) return { ok: false, errors };
      const done = await repos.requests.closeRequest(id, {
        status,
        by: staffId,
        now: nowIso(),
        motivo: motivo || null,
      });
      return done ? { ok: true } : { ok: false, closed: true };
    },

    /** Carries out an erasure request: every registered row of the person, then the request concluded. */
    async erase(id: number, staffId: number, fields: Record<string, unknown>) {
      const request = await repos.requests.findRequest(id);
      if (!request) return { kind: 'not-found' as const };
      if (request.tipo !== 'eliminacao' || request.status !== 'aberta') return { kind: 'closed' as const };
      if (fields.confirmar !== 'sim')
        return { kind: 'invalid' as const, errors: { confirmar: 'Marque a caixa para confirmar a eliminação.' } };
      const errors: Record<string, string> = {};
      const note = take(errors, 'motivo', oneLine(fields.motivo, { max: NOTE_MAX }), '') || null;
      if (Object.keys(errors).length) return { kind: 'invalid' as const, errors };
      const named = subjectOf(request);
      if (!named) return { kind: 'closed' as const };
      const subject = await person.expand(named);
      const result = await person.erase(subject, { staffId, requestId: id, note });
      if (!result.ok) return { kind: 'closed' as const };
      return { kind: 'erased' as const, counts: result.counts, files: result.files };
    },

    /** The ZIP of a request's person (access asked at the front desk). */
    async exportZip(id: number) {
      const request = await repos.requests.findRequest(id);
      const named = request ? subjectOf(request) : null;
      return named ? person.exportZip(named) : null;
    },
  };
}
export type RequestsService = ReturnType<typeof createRequestsService>;
