// The annual fee's calendar (terms.ts): which years' fees are charged on a given São Paulo day.
import { describe, expect, it } from 'vitest';
import { annualFeeMonths, annualFeesDue } from '../../src/features/enrolment/terms';

const contract = (over: Partial<Parameters<typeof annualFeesDue>[0]> = {}) => ({
  taxa_anual_centavos: 9900,
  taxa_anual_mes: 3,
  dia_vencimento: 15,
  // 15 Jan 2026, 10:00 in São Paulo
  aceito_em: '2026-01-15T13:00:00.000Z',
  cancelamento_efetivo_em: null,
  ...over,
});

describe('annualFeesDue', () => {
  it('is charged from ten days before the billing day of its month, and up to 30 days after', () => {
    expect(annualFeesDue(contract(), '2026-03-04')).toEqual([]);
    expect(annualFeesDue(contract(), '2026-03-05')).toEqual(['2026-03-15']);
    expect(annualFeesDue(contract(), '2026-04-14')).toEqual(['2026-03-15']);
    expect(annualFeesDue(contract(), '2026-04-15')).toEqual([]);
    expect(annualFeesDue(contract(), '2027-03-05')).toEqual(['2027-03-15']);
  });

  it('skips the fee of the month of acceptance, which the first payment took', () => {
    // accepted 15 Mar: the fee of that month was in the first payment
    const march = contract({ aceito_em: '2026-03-15T13:00:00.000Z' });
    expect(annualFeesDue(march, '2026-03-15')).toEqual([]);
    expect(annualFeesDue(march, '2027-03-10')).toEqual(['2027-03-15']);
    // accepted on the 30th: the billing day is the 28th, before the acceptance
    const late = contract({ aceito_em: '2026-03-30T13:00:00.000Z', dia_vencimento: 28 });
    expect(annualFeesDue(late, '2026-03-30')).toEqual([]);
  });

  it('crosses the year, and stops at a cancellation', () => {
    const january = contract({ taxa_anual_mes: 1, dia_vencimento: 5, aceito_em: '2026-06-05T13:00:00.000Z' });
    expect(annualFeesDue(january, '2026-12-26')).toEqual(['2027-01-05']);
    expect(annualFeesDue(january, '2027-01-20')).toEqual(['2027-01-05']);
    expect(annualFeesDue({ ...january, cancelamento_efetivo_em: '2027-01-05' }, '2026-12-28')).toEqual([]);
    expect(annualFeesDue({ ...january, cancelamento_efetivo_em: '2027-01-06' }, '2026-12-28')).toEqual(['2027-01-05']);
  });

  it('charges nothing without a fee or a month', () => {
    expect(annualFeesDue(contract({ taxa_anual_centavos: 0 }), '2026-03-10')).toEqual([]);
    expect(annualFeesDue(contract({ taxa_anual_mes: null }), '2026-03-10')).toEqual([]);
  });

  it('annualFeeMonths holds every month a due day can fall in', () => {
    for (const today of ['2026-03-05', '2026-01-02', '2026-12-25', '2026-07-31']) {
      const months = annualFeeMonths(today);
      for (let mes = 1; mes <= 12; mes++) {
        const due = annualFeesDue(
          contract({ taxa_anual_mes: mes, dia_vencimento: 1, aceito_em: '2020-01-01T12:00:00Z' }),
          today,
        );
        const due28 = annualFeesDue(
          contract({ taxa_anual_mes: mes, dia_vencimento: 28, aceito_em: '2020-01-01T12:00:00Z' }),
          today,
        );
        if (due.length || due28.length) expect(months, `${today} ${mes}`).toContain(mes);
      }
    }
  });
});
