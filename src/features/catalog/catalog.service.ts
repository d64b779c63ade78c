// Catalog rules: the in-memory snapshot, search, unit page and Pass page data. Never sees HTTP.
import { compareText } from '../../lib/text';
import { saoPauloClock } from '../../lib/time';
import { toId } from '../../lib/form/index';
import type { CatalogRepository, PlanRow, SnapshotRows, UnitDetailRows, UnitSummaryRow } from './catalog.repository';
import type { UnitPhoto } from '../unit-photos/photos';
import {
  buildSearchIndex,
  parseQuery,
  searchIndex,
  type SearchEntry,
  type SearchItem,
  type SearchOutcome,
} from './catalog.search';

/** How old the snapshot may get before it is read again: other instances' edits show within this. */
export const CATALOG_TTL_MS = 5_000;
/** after a failed reload, requests get the last snapshot without waiting for this long */
const RETRY_AFTER_FAILURE_MS = 1_000;
/** how long a request waits for a slow reload before it gets the stale snapshot */
const STALE_WAIT_MS = 300;

export interface CatalogSnapshot {
  loadedAt: number;
  /** the rows it was built from: the next read is compared with them */
  rows: SnapshotRows;
  units: UnitSummaryRow[];
  unitsById: Map<number, UnitSummaryRow>;
  plans: PlanRow[];
  plansById: Map<number, PlanRow>;
  /** active units offering each active plan, by name */
  unitsByPlan: Map<number, UnitSummaryRow[]>;
  /** units grouped by city, cities and units in name order */
  cities: { cidade: string; uf: string; units: UnitSummaryRow[] }[];
  index: SearchEntry[];
  /** each active unit's photos in order (the first is the cover) */
  photosByUnit: Map<number, UnitPhoto[]>;
  /** answers already computed from this snapshot, by folded query (popular searches repeat) */
  searchCache: Map<string, SearchItem[]>;
}

/** the answer to a too-short query: one shared array, so its JSON is made once too */
const NO_ITEMS: SearchItem[] = [];

/** Bound on cached answers per snapshot: a scan of random queries cannot grow memory. */
const MAX_CACHED_SEARCHES = 2_000;

export interface OpeningHours {
  dia_semana: number;
  abre: string;
  fecha: string;
}

/** A valid id is a positive integer that fits a 32-bit column (the form kit's rule). */
export const parseId = (raw: unknown): number | null => (typeof raw === 'string' ? toId(raw) : null);

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

/** Great-circle distance in km. */
export function distanceKm(
  a: { latitude: number; longitude: number },
  b: { latitude: number; longitude: number },
): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

export interface UnitPageData extends UnitDetailRows {
  photos: UnitPhoto[];
  openNow: boolean;
  today: number;
  /** the week from today on, each day with its classes */
  timetable: { dia_semana: number; classes: UnitDetailRows['classes'] }[];
}

export interface NearbyUnit extends UnitSummaryRow {
  distanceKm: number | null;
}

export interface PassPageData {
  unit: UnitSummaryRow;
  /** when the unit has no benefit link: active units that have one within NEARBY_BENEFIT_KM, nearest first */
  nearby: NearbyUnit[];
}

/** A unit with a benefit is suggested only this close: farther is no help to someone on foot or by bus. */
export const NEARBY_BENEFIT_KM = 50;

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

/** Per list of units (one per snapshot): points on the unit sphere and the name order, made once. */
interface GeoIndex {
  /** x, y, z of each unit's position; NaN when it has no coordinates */
  xyz: Float64Array;
  /** position of each unit in name order (ties: list order) */
  nameRank: Int32Array;
}
const geoIndexes = new WeakMap<readonly UnitSummaryRow[], GeoIndex>();

function toXyz(latitude: number, longitude: number, out: Float64Array, at: number) {
  const rad = Math.PI / 180;
  const cosLat = Math.cos(latitude * rad);
  out[at] = cosLat * Math.cos(longitude * rad);
  out[at + 1] = cosLat * Math.sin(longitude * rad);
  out[at + 2] = Math.sin(latitude * rad);
}

let scratch = new Float64Array(0);

function geoIndex(units: readonly UnitSummaryRow[]): GeoIndex {
  let index = geoIndexes.get(units);
  if (!index) {
    const xyz = new Float64Array(units.length * 3).fill(Number.NaN);
    units.forEach((u, i) => {
      if (u.latitude !== null && u.longitude !== null) toXyz(u.latitude, u.longitude, xyz, i * 3);
    });
    const nameRank = new Int32Array(units.length);
    units
      .map((_, i) => i)
      .sort((a, b) => compareText(units[a]!.nome, units[b]!.nome) || a - b)
      .forEach((unitIndex, position) => (nameRank[unitIndex] = position));
    index = { xyz, nameRank };
    geoIndexes.set(units, index);
  }
  return index;
}

/**
 * Active units by distance from a point, nearest first (ties by name); units without
 * coordinates last (by name) with no distance.
 *
 * Ordered by the straight-line (chord) distance between points on the sphere, which grows
 * with the great-circle distance: a few multiplications per unit instead of four
 * trigonometric calls, and only the units returned get their distance in km.
 */
export function unitsByDistance(
  units: UnitSummaryRow[],
  from: { latitude: number; longitude: number },
  limit = Infinity,
): NearbyUnit[] {
  return nearestUnits(units, from, limit).map(({ unit, distanceKm }) => ({ ...unit, distanceKm }));
}

/** unitsByDistance without copying the rows: for answers that pick a few fields (the JSON). */
export function nearestUnits(
  units: UnitSummaryRow[],
  from: { latitude: number; longitude: number },
  limit = Infinity,
): { unit: UnitSummaryRow; distanceKm: number | null }[] {
  const { xyz, nameRank } = geoIndex(units);
  const n = units.length;
  // Scratch arrays reused by every call (it runs to the end without awaiting): a typed array
  // of 300 keys is allocated outside the heap, a malloc and a free per request otherwise.
  if (scratch.length < n + 3) scratch = new Float64Array(Math.max(n + 3, scratch.length * 2));
  const here = scratch;
  toXyz(from.latitude, from.longitude, here, 0);
  // Squared chord length (0–4); 5 for units without coordinates, so they sort last.
  const key = scratch.subarray(3, n + 3);
  for (let i = 0; i < n; i++) {
    const dx = xyz[i * 3]! - here[0]!;
    const dy = xyz[i * 3 + 1]! - here[1]!;
    const dz = xyz[i * 3 + 2]! - here[2]!;
    const d = dx * dx + dy * dy + dz * dz;
    key[i] = Number.isNaN(d) ? 5 : d;
  }
  const before = (a: number, b: number) => key[a]! < key[b]! || (key[a] === key[b] && nameRank[a]! < nameRank[b]!);
  const count = Math.min(limit, n);
  let order: number[];
  if (count >= n / 4) {
    order = Array.from({ length: n }, (_, i) => i).sort((a, b) => key[a]! - key[b]! || nameRank[a]! - nameRank[b]!);
    order.length = count;
  } else {
    // The nearest few (the JSON's default 10 of 300): kept sorted while scanning once.
    order = [];
    for (let i = 0; i < n; i++) {
      if (order.length === count && !before(i, order[count - 1]!)) continue;
      let j = order.length < count ? order.length : count - 1;
      while (j > 0 && before(i, order[j - 1]!)) {
        order[j] = order[j - 1]!;
        j--;
      }
      order[j] = i;
    }
  }
  return order.map((i) => {
    const u = units[i]!;
    return {
      unit: u,
      distanceKm:
        u.latitude !== null && u.longitude !== null
          ? distanceKm(from, { latitude: u.latitude, longitude: u.longitude })
          : null,
    };
  });
}

export interface SearchResultDetail {
  item: SearchItem;
  plan?: PlanRow;
  /** for a plan: the active units that offer it */
  units?: UnitSummaryRow[];
}

/** Row-by-row equality of two snapshot reads (flat rows: numbers, strings, null). */
export function sameSnapshotRows(a: SnapshotRows, b: SnapshotRows): boolean {
  const same = (x: readonly object[], y: readonly object[]) => {
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) {
      const rx = x[i] as Record<string, unknown>;
      const ry = y[i] as Record<string, unknown>;
      for (const k in rx) if (rx[k] !== ry[k]) return false;
    }
    return true;
  };
  // Every list of SnapshotRows must be compared, or a change to it would never show.
  return (
    same(a.units, b.units) &&
    same(a.plans, b.plans) &&
    same(a.planUnits, b.planUnits) &&
    same(a.unitTags, b.unitTags) &&
    same(a.photos, b.photos)
  );
}

export function buildSnapshot(
  rows: Awaited<ReturnType<CatalogRepository['loadSnapshot']>>,
  loadedAt: number,
): CatalogSnapshot {
  const unitsById = new Map(rows.units.map((u) => [u.id, u]));
  const plansById = new Map(rows.plans.map((p) => [p.id, p]));
  const byName = (a: UnitSummaryRow, b: UnitSummaryRow) => compareText(a.nome, b.nome) || a.id - b.id;
  const unitsByPlan = new Map<number, UnitSummaryRow[]>();
  for (const { plano_id, unidade_id } of rows.planUnits) {
    const unit = unitsById.get(unidade_id);
    if (!unit || !plansById.has(plano_id)) continue;
    const list = unitsByPlan.get(plano_id) ?? [];
    list.push(unit);
    unitsByPlan.set(plano_id, list);
  }
  for (const list of unitsByPlan.values()) list.sort(byName);

  const cityMap = new Map<string, { cidade: string; uf: string; units: UnitSummaryRow[] }>();
  for (const u of rows.units) {
    const key = `${u.cidade}\u0000${u.uf}`;
    const city = cityMap.get(key) ?? { cidade: u.cidade, uf: u.uf, units: [] };
    city.units.push(u);
    cityMap.set(key, city);
  }
  const cities = [...cityMap.values()].sort((a, b) => compareText(a.cidade, b.cidade) || a.uf.localeCompare(b.uf));
  for (const c of cities) c.units.sort(byName);

  const photosByUnit = new Map<number, UnitPhoto[]>();
  for (const p of rows.photos) {
    const list = photosByUnit.get(p.unidade_id) ?? [];
    list.push(p);
    photosByUnit.set(p.unidade_id, list);
  }
  const tagsByUnit = new Map<number, string[]>();
  for (const { unidade_id, nome } of rows.unitTags) {
    const list = tagsByUnit.get(unidade_id) ?? [];
    list.push(nome);
    tagsByUnit.set(unidade_id, list);
  }

  return {
    loadedAt,
    rows,
    units: rows.units,
    unitsById,
    plans: rows.plans,
    plansById,
    unitsByPlan,
    cities,
    index: buildSearchIndex(rows.units, rows.plans, tagsByUnit),
    photosByUnit,
    searchCache: new Map(),
  };
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
    /** The snapshot `snapshot()` would hand out without reading the database, if any (the answer front's check). */
    freshSnapshot(): CatalogSnapshot | undefined {
      return current && now() - current.loadedAt < ttlMs ? current : undefined;
    },
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

/**
 * Nearest active units with a benefit link within `maxKm`: same city first, then by
 * distance. Without coordinates (this unit's or theirs) only the same city counts.
 */
export function nearbyWithBenefit(
  snap: CatalogSnapshot,
  unit: UnitSummaryRow,
  limit: number,
  maxKm = NEARBY_BENEFIT_KM,
): NearbyUnit[] {
  const here =
    unit.latitude !== null && unit.longitude !== null ? { latitude: unit.latitude, longitude: unit.longitude } : null;
  return snap.units
    .filter((u) => u.id !== unit.id && u.beneficio_url)
    .map((u) => ({
      ...u,
      distanceKm:
        here && u.latitude !== null && u.longitude !== null
          ? distanceKm(here, { latitude: u.latitude, longitude: u.longitude })
          : null,
    }))
    .filter((u) => (u.distanceKm !== null ? u.distanceKm <= maxKm : u.cidade === unit.cidade && u.uf === unit.uf))
    .sort((a, b) => {
      const sameA = a.cidade === unit.cidade && a.uf === unit.uf ? 0 : 1;
      const sameB = b.cidade === unit.cidade && b.uf === unit.uf ? 0 : 1;
      return sameA - sameB || (a.distanceKm ?? Infinity) - (b.distanceKm ?? Infinity) || compareText(a.nome, b.nome);
    })
    .slice(0, limit);
}

export type CatalogService = ReturnType<typeof createCatalogService>;
