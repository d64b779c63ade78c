// Distances between units and points, for "units near me", the JSON list and the Pass page's
// suggestions. A plain scan: a chain has a few hundred units, and answers are kept per snapshot.
import { compareText } from '../../lib/text';
import type { UnitSummaryRow } from './catalog.repository';
import type { CatalogSnapshot } from './catalog.snapshot';

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

export interface NearbyUnit extends UnitSummaryRow {
  distanceKm: number | null;
}

/** A unit with a benefit is suggested only this close: farther is no help to someone on foot or by bus. */
export const NEARBY_BENEFIT_KM = 50;

/**
 * Active units by distance from a point, nearest first (ties by name); units without
 * coordinates last (by name) with no distance.
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
  return units
    .map((unit) => ({
      unit,
      distanceKm:
        unit.latitude !== null && unit.longitude !== null
          ? distanceKm(from, { latitude: unit.latitude, longitude: unit.longitude })
          : null,
    }))
    .sort((a, b) => (a.distanceKm ?? Infinity) - (b.distanceKm ?? Infinity) || compareText(a.unit.nome, b.unit.nome))
    .slice(0, limit);
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
