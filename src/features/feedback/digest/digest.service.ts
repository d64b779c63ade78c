// The weekly digest: every Monday from 08:00 (São Paulo) each admin and unit manager who
// wants it gets one mail with the NPS of the past week and of the last 12 weeks per
// unit, the new messages and the unanswered ones, with links. Exactly once per account
// and week, even with several instances: see createDigestRepository().claimAndQueue.
import { nowIso } from '../../../db/index';
import { formatDayMonthTime, saoPauloDayStartIso, saoPauloWeekStart } from '../../../lib/time';
import { accessibleUnits, scopeUnits } from '../../../staff/access';
import type { OutgoingMail } from '../../../platform/mail/outbox.repository';
import { addDays, computeNps, formatNps, saoPauloDay } from '../survey/nps';
import type { DigestRepository } from './digest.repository';
import { PREFERENCES_PATH } from './preferences.view';
import { countJob } from '../../../platform/metrics/metrics';

export const DIGEST_HOUR = 8;
const UNANSWERED_LIMIT = 500;

export interface DigestWeek {
  /** Monday of the current São Paulo week, aaaa-mm-dd: the digest's key */
  semana: string;
  /** Monday 08:00 São Paulo of that week */
  dueAt: Date;
  /** the week the digest reports: the 7 days before `semana` */
  fromIso: string;
  toIso: string;
  /** start of the 12-week window (84 days before `semana`) */
  twelveWeeksFromIso: string;
  lastWeekDay: string;
  firstDay: string;
}

/** The São Paulo week `now` falls in (src/lib/time.ts: the site's one week key). */
export function digestWeek(now: Date): DigestWeek {
  const semana = saoPauloWeekStart(saoPauloDay(now));
  const mondayStart = Date.parse(saoPauloDayStartIso(semana));
  return {
    semana,
    dueAt: new Date(mondayStart + DIGEST_HOUR * 3_600_000),
    fromIso: saoPauloDayStartIso(addDays(semana, -7)),
    toIso: saoPauloDayStartIso(semana),
    twelveWeeksFromIso: saoPauloDayStartIso(addDays(semana, -84)),
    firstDay: addDays(semana, -7),
    lastWeekDay: addDays(semana, -1),
  };
}

export interface DigestSettings {
  brandName: string;
  publicUrl: string;
  /** mail can be queued (SMTP_HOST set) */
  mailConfigured: boolean;
}

const br = (day: string) => day.split('-').reverse().join('/');
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export interface DigestRunResult {
  semana: string;
  /** false before Monday 08:00 (nothing looked at) */
  due: boolean;
  /** mails queued by this call */
  queued: number;
  /** accounts another call (or instance) had already claimed */
  alreadySent: number;
}

export function createDigestService(repo: DigestRepository, settings: DigestSettings) {
  function composeFor(
    user: { nome: string; papel: 'admin' | 'gerente'; unidadeIds: number[] },
    week: DigestWeek,
    data: Awaited<ReturnType<typeof loadFigures>>,
  ): OutgoingMail | null {
    // An admin's digest leaves out closed units with nothing that week; a manager's lists all of theirs.
    const everyUnit = scopeUnits(user) === null;
    const units = accessibleUnits(user, data.units).filter(
      (u) => !everyUnit || u.ativo === 1 || data.hasActivity.has(u.id),
    );
    if (!units.length) return null;
    const ids = new Set(units.map((u) => u.id));
    const base = settings.publicUrl;
    const lines: string[] = [
      `Olá, ${user.nome.split(/\s+/)[0]}!`,
      '',
      `Resumo da semana de ${br(week.firstDay)} a ${br(week.lastWeekDay)}.`,
      '',
      'NPS por unidade (semana · últimas 12 semanas)',
    ];
    const sum = (list: { total: number; promotores: number; detratores: number }[]) =>
      list.reduce(
        (a, c) => ({
          total: a.total + c.total,
          promotores: a.promotores + c.promotores,
          detratores: a.detratores + c.detratores,
        }),
        { total: 0, promotores: 0, detratores: 0 },
      );
    const fig = (c: { total: number; promotores: number; detratores: number } | undefined) =>
      c?.total ? `NPS ${formatNps(computeNps(c))} (${plural(c.total, 'nota', 'notas')})` : 'sem notas';
    for (const u of units) {
      lines.push(`- ${u.nome}: ${fig(data.week.get(u.id))} · 12 semanas: ${fig(data.twelve.get(u.id))}`);
    }
    if (units.length > 1) {
      const w = sum(units.map((u) => data.week.get(u.id)).filter((c) => c !== undefined));
      const t = sum(units.map((u) => data.twelve.get(u.id)).filter((c) => c !== undefined));
      lines.push(`- Total: ${fig(w)} · 12 semanas: ${fig(t)}`);
    }
    lines.push('', 'Mensagens “Fale aqui”');
    const open = data.unanswered.filter((m) => m.unidade_id !== null && ids.has(m.unidade_id));
    for (const u of units) {
      const novas = data.newMessages.get(u.id) ?? 0;
      const abertas = open.filter((m) => m.unidade_id === u.id).length;
      lines.push(
        `- ${u.nome}: ${plural(novas, 'nova', 'novas')} na semana, ${plural(abertas, 'sem resposta', 'sem resposta')}`,
      );
    }
    if (open.length) {
      lines.push('', 'Sem resposta (as mais antigas primeiro)');
      for (const m of open.slice(0, 30)) {
        const text = m.mensagem.replace(/\s+/g, ' ');
        lines.push(
          `- ${formatDayMonthTime(new Date(m.criado_em))} · ${m.unidade} · ` +
            `${m.anonimo ? 'Anônimo' : m.nome_completo}: “${text.length > 80 ? `${text.slice(0, 80)}…` : text}”`,
        );
        lines.push(`  ${base}/admin/mensagens/${m.id}`);
      }
      if (open.length > 30) lines.push(`- e mais ${open.length - 30}: ${base}/admin/mensagens?status=nova`);
    }
    lines.push(
      '',
      `O que precisa de atenção: ${base}/admin`,
      `Pesquisa de satisfação: ${base}/admin/pesquisa`,
      '',
      `Para não receber mais este resumo: ${base}${PREFERENCES_PATH}`,
    );
    return {
      to: '',
      subject: `Resumo semanal · ${settings.brandName} · semana de ${br(week.firstDay)}`,
      text: lines.join('\n'),
      origin: `resumo_semanal:${week.semana}`,
    };
  }

  async function loadFigures(week: DigestWeek) {
    const [units, weekCounts, twelveCounts, newMessages, unanswered] = await Promise.all([
      repo.units(),
      repo.npsCounts(week.fromIso, week.toIso),
      repo.npsCounts(week.twelveWeeksFromIso, week.toIso),
      repo.newMessages(week.fromIso, week.toIso),
      repo.unanswered(UNANSWERED_LIMIT),
    ]);
    const hasActivity = new Set<number>([
      ...twelveCounts.map((c) => c.unidadeId),
      ...unanswered.map((m) => m.unidade_id).filter((id): id is number => id !== null),
    ]);
    return {
      units,
      hasActivity,
      week: new Map(weekCounts.map((c) => [c.unidadeId, c])),
      twelve: new Map(twelveCounts.map((c) => [c.unidadeId, c])),
      newMessages: new Map(newMessages.filter((m) => m.unidadeId !== null).map((m) => [m.unidadeId!, m.n])),
      unanswered,
    };
  }

  return {
    digestWeek,
    /** Whether this account receives the weekly digest (its preferences page). */
    preference(usuarioId: number) {
      return repo.preference(usuarioId);
    },
    setPreference(usuarioId: number, receive: boolean) {
      return repo.setPreference(usuarioId, receive, nowIso());
    },
    /**
     * Queues this week's digest for every account that has none yet. Before Monday 08:00
     * (São Paulo) it does nothing unless `force` (the jobs:digest command).
     */
    async run(now: Date, options: { force?: boolean } = {}): Promise<DigestRunResult> {
      const week = digestWeek(now);
      const result: DigestRunResult = {
        semana: week.semana,
        due: options.force === true || now >= week.dueAt,
        queued: 0,
        alreadySent: 0,
      };
      if (!result.due || !settings.mailConfigured) return result;
      const recipients = await repo.pendingRecipients(week.semana);
      if (!recipients.length) return result;
      const data = await loadFigures(week);
      for (const user of recipients) {
        const mail = composeFor(user, week, data);
        if (!mail) continue;
        const queued = await repo.claimAndQueue(user.id, week.semana, { ...mail, to: user.email }, nowIso(now));
        if (queued) result.queued++;
        else result.alreadySent++;
      }
      return result;
    },
  };
}

export type DigestService = ReturnType<typeof createDigestService>;

/**
 * Checks every `intervalMs` whether this week's digest is due and not yet sent. Safe on
 * every instance: the claim is a UNIQUE row. After a run with nothing left the instance
 * skips the database until the next week.
 */
export function startDigestScheduler(
  service: DigestService,
  options: {
    intervalMs?: number;
    clock?: () => Date;
    log?: { error(o: object, m: string): void; info(o: object, m: string): void };
  } = {},
): { stop(): Promise<void> } {
  const clock = options.clock ?? (() => new Date());
  let doneWeek: string | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    const now = clock();
    const week = digestWeek(now);
    if (doneWeek === week.semana || now < week.dueAt) return;
    running = countJob('digest', () => service.run(now))
      .then((r) => {
        if (r.queued) options.log?.info({ semana: r.semana, queued: r.queued }, 'weekly digest queued');
        doneWeek = r.semana;
      })
      .catch((err) => options.log?.error({ err }, 'weekly digest failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.intervalMs ?? 60_000);
  timer.unref();
  setTimeout(tick, 5_000).unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
