// NPS arithmetic and wording, with hand-computed cases.
import { describe, expect, it } from 'vitest';
import {
  computeNps,
  countLabel,
  formatNps,
  formatPercent,
  lastTwelveMonths,
  npsCountsText,
} from '../../src/features/feedback/survey/nps';
import { segments, xOf, yOf } from '../../src/features/feedback/survey/nps-chart.view';

describe('NPS = % promoters − % detractors', () => {
  it.each([
    // notes → promoters (9–10), detractors (0–6), total → NPS
    { notes: [10, 9, 8, 3], expected: 25 }, // (2 − 1) / 4 = 25
    { notes: [10, 10, 10], expected: 100 },
    { notes: [0, 6, 5], expected: -100 },
    { notes: [7, 8, 7, 8], expected: 0 }, // passives only
    { notes: [9, 6, 7], expected: 0 }, // (1 − 1) / 3
    { notes: [10, 9, 0, 5, 3, 8], expected: -16.7 }, // (2 − 3) / 6 = −16,67 → −16,7
    { notes: [10, 7, 8], expected: 33.3 }, // 1 / 3
    { notes: [9, 9, 10, 1, 7, 7, 8], expected: 28.6 }, // (3 − 1) / 7 = 28,57
  ])('$notes → $expected', ({ notes, expected }) => {
    const c = {
      total: notes.length,
      promotores: notes.filter((n) => n >= 9).length,
      detratores: notes.filter((n) => n <= 6).length,
    };
    expect(computeNps(c)).toBe(expected);
  });

  it('has no NPS without notes, shown as a dash; pt-BR decimals', () => {
    expect(computeNps({ total: 0, promotores: 0, detratores: 0 })).toBeNull();
    expect(formatNps(null)).toBe('—');
    expect(formatNps(-16.7)).toBe('-16,7');
  });
});

describe('formatted numbers are Intl’s, however often asked', () => {
  const pct = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
  const integer = new Intl.NumberFormat('pt-BR');

  it('writes every NPS and percentage as Intl does, twice over, -0 and 0 apart', () => {
    for (let round = 0; round < 2; round++) {
      for (let tenths = -1000; tenths <= 1000; tenths++) {
        const v = tenths / 10;
        expect(formatNps(v)).toBe(pct.format(v));
        expect(formatPercent(v)).toBe(`${pct.format(v)}%`);
      }
      expect(formatNps(-0)).toBe('-0');
      expect(formatNps(0)).toBe('0');
      expect(formatNps(1234.5)).toBe('1.234,5');
      expect(formatPercent(Math.round(-0.04 * 10) / 10)).toBe(`${pct.format(-0)}%`);
    }
  });

  it('counts with Intl’s digits on both sides of a thousand', () => {
    for (const n of [0, 1, 7, 999, 1000, 1001, 12_345, 3_000_000, 2.5, -3]) {
      expect(countLabel(n, 'nota', 'notas')).toBe(`${integer.format(n)} ${n === 1 ? 'nota' : 'notas'}`);
    }
  });
});

describe('pt-BR counts', () => {
  it('uses the singular for exactly one', () => {
    expect(countLabel(1, 'promotor', 'promotores')).toBe('1 promotor');
    expect(countLabel(2, 'promotor', 'promotores')).toBe('2 promotores');
    expect(countLabel(0, 'promotor', 'promotores')).toBe('0 promotores');
    expect(countLabel(1234, 'nota', 'notas')).toBe('1.234 notas');
    expect(npsCountsText({ total: 4, promotores: 1, neutros: 1, detratores: 2 })).toBe(
      '4 notas: 1 promotor, 1 neutro, 2 detratores',
    );
    expect(npsCountsText({ total: 1, promotores: 0, neutros: 0, detratores: 1 })).toBe(
      '1 nota: 0 promotores, 0 neutros, 1 detrator',
    );
  });
});

describe('the chart', () => {
  it('covers the 12 months ending with the period’s month', () => {
    expect(lastTwelveMonths('2026-11-23')).toMatchObject({ de: '2025-12-01', ate: '2026-11-30' });
    expect(lastTwelveMonths('2026-02-10')).toMatchObject({ de: '2025-03-01', ate: '2026-02-28' });
  });

  it('maps +100 to the top, −100 to the bottom, 0 to the middle; a month without notes breaks the line', () => {
    expect(yOf(0)).toBeCloseTo((yOf(100) + yOf(-100)) / 2);
    expect(yOf(100)).toBeLessThan(yOf(-100));
    const p = (nps: number | null) => ({ label: '2026-01', title: '', total: nps === null ? 0 : 1, nps });
    expect(segments([p(10), p(20), p(null), p(30)])).toHaveLength(2);
    expect(segments([p(10), p(20), p(null), p(30)])[0]).toBe(
      `${xOf(0, 4).toFixed(1)},${yOf(10).toFixed(1)} ${xOf(1, 4).toFixed(1)},${yOf(20).toFixed(1)}`,
    );
  });
});
