// The catalog snapshot: every active unit, plan and modality read at once and indexed for
// the public pages (docs/decisions/011, 044). Rebuilt only when the rows read change.
import { compareText } from '../../lib/text';
import type { CatalogRepository, PlanRow, SnapshotRows, UnitSummaryRow } from './catalog.repository';
import type { UnitPhoto } from '../unit-photos/photos';
import { buildSearchIndex, type SearchEntry, type SearchItem } from './catalog.search';

/** How old the snapshot may get before it is read again: other instances' edits show within this. */
export const CATALOG_TTL_MS = 5_000;

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
