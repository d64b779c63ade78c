// Finding a place without JavaScript: a small offline table of CEP ranges and city names
// with their coordinates, enough for the cities the chain is in (the demo cities). No
// geocoding service is called. To add a city, add a row here (CEP ranges: Correios'
// "faixas de CEP" of the municipality; coordinates: the city centre).
import { foldText } from '../../lib/text';

export interface Place {
  cidade: string;
  uf: string;
  latitude: number;
  longitude: number;
}

interface PlaceRow extends Place {
  /** inclusive ranges of the first five CEP digits */
  cep: [number, number][];
}

export const PLACES: PlaceRow[] = [
  {
    cidade: 'São Paulo',
    uf: 'SP',
    latitude: -23.5505,
    longitude: -46.6333,
    cep: [
      [1000, 5999],
      [8000, 8499],
    ],
  },
  { cidade: 'Campinas', uf: 'SP', latitude: -22.9056, longitude: -47.0608, cep: [[13000, 13139]] },
  { cidade: 'Rio de Janeiro', uf: 'RJ', latitude: -22.9068, longitude: -43.1729, cep: [[20000, 23799]] },
  { cidade: 'Belo Horizonte', uf: 'MG', latitude: -19.9167, longitude: -43.9345, cep: [[30000, 31999]] },
  { cidade: 'Curitiba', uf: 'PR', latitude: -25.4284, longitude: -49.2733, cep: [[80000, 82999]] },
  { cidade: 'Porto Alegre', uf: 'RS', latitude: -30.0346, longitude: -51.2177, cep: [[90000, 91999]] },
  { cidade: 'Recife', uf: 'PE', latitude: -8.0476, longitude: -34.877, cep: [[50000, 52999]] },
];

/** A CEP ("05422-001", "05422001") → its city, or null when malformed or not in the table. */
export function placeForCep(raw: string): Place | null | 'invalid' {
  const digits = raw.replace(/\D/g, '');
  if (digits.length !== 8 || raw.replace(/[\d\s.-]/g, '') !== '') return 'invalid';
  const prefix = Number(digits.slice(0, 5));
  const row = PLACES.find((p) => p.cep.some(([a, b]) => prefix >= a && prefix <= b));
  return row ? strip(row) : null;
}

/** A city name typed in any case, with or without accents, optionally "Cidade - UF". */
export function placeForCity(raw: string, extra: Place[] = []): Place | null {
  const name = foldText(raw.replace(/\s*[-–,/]\s*[A-Za-z]{2}\s*$/, ''));
  if (!name) return null;
  const row = [...PLACES, ...extra].find((p) => foldText(p.cidade) === name);
  return row ? strip(row) : null;
}

function strip(p: Place): Place {
  return { cidade: p.cidade, uf: p.uf, latitude: p.latitude, longitude: p.longitude };
}
