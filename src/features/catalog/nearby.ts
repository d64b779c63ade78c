// "Units near me": parsing a point, a CEP or a city into a place, and the list around it.
// Pure functions over the snapshot; the routes only parse and answer.
import type { CatalogSnapshot } from './catalog.snapshot';
import type { NearbyUnit } from './catalog.geo';
import type { UnitSummaryRow } from './catalog.repository';
import { unitsByDistance } from './catalog.geo';
import { placeForCep, placeForCity, type Place } from './places';
import { parseInteger } from '../../lib/form/index';

export const NEAR_LIMIT_DEFAULT = 10;
export const NEAR_LIMIT_MAX = 50;

const NUMBER = /^-?\d{1,3}(\.\d{1,12})?$/;

/** A latitude/longitude pair from query strings, or a pt-BR message. */
export function parsePoint(lat: unknown, lng: unknown): { latitude: number; longitude: number } | { error: string } {
  if (typeof lat !== 'string' || typeof lng !== 'string' || lat.trim() === '' || lng.trim() === '') {
    return { error: 'Informe lat e lng (latitude e longitude em graus decimais).' };
  }
  const a = lat.trim();
  const b = lng.trim();
  if (!NUMBER.test(a) || !NUMBER.test(b))
    return { error: 'lat e lng precisam ser números em graus decimais, como -23.56 e -46.69.' };
  const latitude = Number(a);
  const longitude = Number(b);
  if (latitude < -90 || latitude > 90) return { error: 'lat precisa estar entre -90 e 90.' };
  if (longitude < -180 || longitude > 180) return { error: 'lng precisa estar entre -180 e 180.' };
  return { latitude, longitude };
}

/**
 * The units of a chooser page (trial class, online enrolment): nearest first when the browser
 * sent a point, else by name; `error` when what it sent is not a point (the page answers 400).
 */
export function chooserUnits(
  units: UnitSummaryRow[],
  lat: string | undefined,
  lng: string | undefined,
): { units: (UnitSummaryRow & { distanceKm?: number | null })[]; near: boolean; error?: string } {
  const located = lat?.trim() || lng?.trim() ? parsePoint(lat, lng) : null;
  if (located && !('error' in located)) return { units: unitsByDistance(units, located), near: true };
  const byName = [...units].sort((a, b) => a.nome.localeCompare(b.nome, 'pt-BR'));
  return { units: byName, near: false, error: located?.error };
}

/** limit 1–50, default 10; anything else is an error. */
export function parseLimit(raw: unknown): number | { error: string } {
  const limit = parseInteger(raw ?? '', 1, NEAR_LIMIT_MAX, NEAR_LIMIT_DEFAULT);
  return limit.ok ? limit.value : { error: `limit precisa ser um número inteiro de 1 a ${NEAR_LIMIT_MAX}.` };
}

/** Cities the chain is in, as places (centre = mean of its units' coordinates): ?cidade= finds them too. */
export function cityPlaces(snap: Pick<CatalogSnapshot, 'cities'>): Place[] {
  const out: Place[] = [];
  for (const c of snap.cities) {
    const located = c.units.filter((u) => u.latitude !== null && u.longitude !== null);
    if (!located.length) continue;
    out.push({
      cidade: c.cidade,
      uf: c.uf,
      latitude: located.reduce((s, u) => s + u.latitude!, 0) / located.length,
      longitude: located.reduce((s, u) => s + u.longitude!, 0) / located.length,
    });
  }
  return out;
}

export interface NearQuery {
  lat?: string;
  lng?: string;
  cep?: string;
  cidade?: string;
}

export type NearOutcome =
  | { kind: 'all' }
  | { kind: 'near'; label: string; units: NearbyUnit[] }
  | { kind: 'invalid'; field: 'cep' | 'cidade' | 'lat'; message: string }
  | { kind: 'unknown'; field: 'cep' | 'cidade'; message: string };

/** What /unidades shows for its query: everything by city, or the units around a place. */
export function resolveNear(snap: CatalogSnapshot, q: NearQuery): NearOutcome {
  const lat = q.lat?.trim() ?? '';
  const lng = q.lng?.trim() ?? '';
  if (lat !== '' || lng !== '') {
    const point = parsePoint(lat, lng);
    if ('error' in point) return { kind: 'invalid', field: 'lat', message: point.error };
    return { kind: 'near', label: 'você', units: unitsByDistance(snap.units, point) };
  }
  const cep = q.cep?.trim() ?? '';
  if (cep !== '') {
    const place = placeForCep(cep);
    if (place === 'invalid')
      return { kind: 'invalid', field: 'cep', message: 'Digite o CEP com 8 números, como 05422-001.' };
    if (!place)
      return {
        kind: 'unknown',
        field: 'cep',
        message: 'Ainda não temos unidade na região desse CEP. Veja as cidades abaixo.',
      };
    return {
      kind: 'near',
      label: `CEP ${cep} (${place.cidade} – ${place.uf})`,
      units: unitsByDistance(snap.units, place),
    };
  }
  const cidade = q.cidade?.trim() ?? '';
  if (cidade !== '') {
    if ([...cidade].length > 80) return { kind: 'invalid', field: 'cidade', message: 'Use no máximo 80 caracteres.' };
    const place = placeForCity(cidade, cityPlaces(snap));
    if (!place)
      return {
        kind: 'unknown',
        field: 'cidade',
        message: 'Ainda não temos unidade nessa cidade. Veja as cidades abaixo.',
      };
    return { kind: 'near', label: `${place.cidade} – ${place.uf}`, units: unitsByDistance(snap.units, place) };
  }
  return { kind: 'all' };
}

/** The JSON item of /unidades.json. */
export function nearJson({ unit: u, distanceKm }: { unit: UnitSummaryRow; distanceKm: number | null }) {
  return {
    id: u.id,
    nome: u.nome,
    cidade: u.cidade,
    bairro: u.bairro,
    distancia_km: distanceKm === null ? null : Math.round(distanceKm * 100) / 100,
  };
}
