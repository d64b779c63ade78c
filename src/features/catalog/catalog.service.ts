// Catalog rules: the snapshot's freshness, search, unit page and Pass page data. Never sees HTTP.
import { saoPauloClock } from '../../lib/time';
import type { CatalogRepository, PlanRow, UnitDetailRows, UnitSummaryRow } from './catalog.repository';
import type { UnitPhoto } from '../unit-photos/photos';
import { parseQuery, searchIndex, type SearchItem, type SearchOutcome } from './catalog.search';
import { buildSnapshot, CATALOG_TTL_MS, sameSnapshotRows, type CatalogSnapshot } from './catalog.snapshot';
import { NEARBY_BENEFIT_KM, nearbyWithBenefit, type NearbyUnit } from './catalog.geo';

/** after a failed reload, requests get the last snapshot without waiting for this long */
const RETRY_AFTER_FAILURE_MS = 1_000;
/** how long a request waits for a slow reload before it gets the stale snapshot */
const STALE_WAIT_MS = 300;

/** the answer to a too-short query: one shared array, so its JSON is made once too */
const NO_ITEMS: SearchItem[] = [];

/** Bound on cached answers per snapshot: a scan of random queries cannot grow memory. */
const MAX_CACHED_SEARCHES = 2_000;

export interface OpeningHours {
  dia_semana: number;
  abre: string;
  fecha: string;
}

/**
 * Open at this weekday and "HH:MM" time? Hours that close at or before they open run past
 * midnight (e.g. 18:00–02:00), so yesterday's late hours count too.
 */
export function isOpenAt(hours: OpeningHours[], weekday: number, time: string): boolean {
  const yesterday = (weekday + 6) % 7;
  for (const h of hours) {
    const overnight = h.fecha <= h.abre;
    if (h.dia_semana === weekday && time >= h.abre && (overnight || time < h.fecha)) return true;
    if (h.dia_semana === yesterday && overnight && time < h.fecha) return true;
  }
  return false;
}

/** Weekdays starting from today (0 = domingo): on a phone, today's classes come first. */
export function weekdaysFrom(today: number): number[] {
  return Array.from({ length: 7 }, (_, i) => (today + i) % 7);
}

export interface UnitPageData extends UnitDetailRows {
  photos: UnitPhoto[];
  openNow: boolean;
  today: number;
  /** the week from today on, each day with its classes */
  timetable: { dia_semana: number; classes: UnitDetailRows['classes'] }[];
}

export interface PassPageData {
  unit: UnitSummaryRow;
  /** when the unit has no benefit link: active units that have one within NEARBY_BENEFIT_KM, nearest first */
  nearby: NearbyUnit[];
}

export interface FeaturedPlans {
  /** the lowest monthly price of any plan some unit offers, in cents */
  fromCents: number | null;
  plans: (PlanRow & { unitCount: number })[];
}

/**
 * Plans offered by at least one active unit, in the chain's order (the first `limit`), and the lowest monthly price.
 */
export function featuredPlans(snap: Pick<CatalogSnapshot, 'plans' | 'unitsByPlan'>, limit = 3): FeaturedPlans {
  const offered = snap.plans.filter((p) => (snap.unitsByPlan.get(p.id)?.length ?? 0) > 0);
  const monthly = offered.filter((p) => p.periodicidade === 'mensal').map((p) => p.preco_centavos);
  return {
    fromCents: monthly.length ? Math.min(...monthly) : null,
    plans: offered.slice(0, limit).map((p) => ({ ...p, unitCount: snap.unitsByPlan.get(p.id)?.length ?? 0 })),
  };
}

export interface SearchResultDetail {
  item: SearchItem;
  plan?: PlanRow;
  /** for a plan: the active units that offer it */
  units?: UnitSummaryRow[];
}

export interface CatalogServiceOptions {
  ttlMs?: number;
  now?: () => number;
  /** told when a reload failed and the previous snapshot was served instead */
  onStaleError?: (err: unknown) => void;
}

export function createCatalogService(repo: CatalogRepository, options: CatalogServiceOptions = {}) {
  const ttlMs = options.ttlMs ?? CATALOG_TTL_MS;
  const now = options.now ?? Date.now;
  let current: CatalogSnapshot | null = null;
  /** the last snapshot read, kept across invalidate(): served while the database is down */
  let last: CatalogSnapshot | null = null;
  let loading: Promise<CatalogSnapshot> | null = null;
  /** when the last reload failed: for a moment after it, requests do not wait for another */
  let failedAt = Number.NEGATIVE_INFINITY;
  /** bumped by invalidate(): rendered pages made before it are thrown away */
  let generation = 0;

  function reload(): Promise<CatalogSnapshot> {
    // One read at a time: concurrent requests wait for the same load.
    if (!loading) {
      const started = generation;
      loading = repo
        .loadSnapshot()
        .then(
          (rows) => {
            // Unchanged rows (the usual case every 5 s): keep the snapshot, its search index and
            // the pages rendered from it; rebuilding costs a chain-sized catalog ~100 ms of CPU.
            const snap = current && sameSnapshotRows(current.rows, rows) ? current : buildSnapshot(rows, now());
            snap.loadedAt = now();
            // An invalidation during the read may have missed the change: keep it stale.
            if (started !== generation) snap.loadedAt = 0;
            current = snap;
            last = snap;
            return snap;
          },
          (err) => {
            failedAt = now();
            throw err;
          },
        )
        .finally(() => {
          loading = null;
        });
    }
    return loading;
  }

  async function snapshot(): Promise<CatalogSnapshot> {
    if (current && now() - current.loadedAt < ttlMs) return current;
    const fallback = current ?? last;
    if (!fallback) return reload(); // nothing to serve yet: the error goes to the caller
    // Database down a moment ago: serve the last snapshot at once, retry a little later.
    if (current && now() - failedAt < RETRY_AFTER_FAILURE_MS) return fallback;
    try {
      // A stale (not invalidated) snapshot is served if the read is slow, e.g. while
      // connecting to a database that does not answer; after invalidate() the change
      // must show, so the read is awaited.
      if (!current) return await reload();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const slow = new Promise<CatalogSnapshot>((resolve) => {
        timer = setTimeout(() => resolve(fallback), STALE_WAIT_MS);
      });
      return await Promise.race([reload(), slow]).finally(() => clearTimeout(timer));
    } catch (err) {
      // Database briefly unreachable: an older catalog beats an error page.
      options.onStaleError?.(err);
      return fallback;
    }
  }

  return {
    ttlMs,
    snapshot,
    get generation() {
      return generation;
    },

    /** Drops the snapshot and rendered pages: the next request reads the database. */
    invalidate(): void {
      generation++;
      current = null;
    },

    async search(rawQuery: unknown): Promise<SearchOutcome> {
      const parsed = parseQuery(rawQuery);
      if ('error' in parsed) return { ok: false, error: parsed.error, message: parsed.message };
      if (parsed.folded === null) return { ok: true, items: NO_ITEMS };
      const snap = await snapshot();
      let items = snap.searchCache.get(parsed.folded);
      if (!items) {
        items = searchIndex(snap.index, parsed.folded);
        if (snap.searchCache.size >= MAX_CACHED_SEARCHES) snap.searchCache.clear();
        snap.searchCache.set(parsed.folded, items);
      }
      return { ok: true, items };
    },

    /** Search results with what the home page shows next to each: a plan's price and units. */
    async searchDetailed(
      rawQuery: unknown,
    ): Promise<{ ok: true; results: SearchResultDetail[] } | { ok: false; error: string; message: string }> {
      const outcome = await this.search(rawQuery);
      if (!outcome.ok) return outcome;
      const snap = await snapshot();
      return {
        ok: true,
        results: outcome.items.map((item) =>
          item.tipo === 'plano'
            ? { item, plan: snap.plansById.get(item.id), units: snap.unitsByPlan.get(item.id) ?? [] }
            : { item },
        ),
      };
    },

    /** Is this an active unit (as of the snapshot)? Lets unknown ids 404 without a query. */
    async isActiveUnit(id: number): Promise<boolean> {
      return (await snapshot()).unitsById.has(id);
    },

    async unitPage(id: number, at: Date = new Date(now())): Promise<UnitPageData | undefined> {
      const snap = await snapshot();
      if (!snap.unitsById.has(id)) return undefined;
      const rows = await repo.findActiveUnitDetail(id);
      if (!rows) return undefined;
      const clock = saoPauloClock(at);
      const timetable = weekdaysFrom(clock.weekday).map((dia) => ({
        dia_semana: dia,
        classes: rows.classes.filter((c) => c.dia_semana === dia),
      }));
      return {
        ...rows,
        photos: snap.photosByUnit.get(id) ?? [],
        openNow: isOpenAt(rows.hours, clock.weekday, clock.time),
        today: clock.weekday,
        timetable,
      };
    },

    async passPage(id: number): Promise<PassPageData | undefined> {
      const snap = await snapshot();
      const unit = snap.unitsById.get(id);
      if (!unit) return undefined;
      return { unit, nearby: unit.beneficio_url ? [] : nearbyWithBenefit(snap, unit, 3, NEARBY_BENEFIT_KM) };
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
