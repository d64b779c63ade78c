// The field rules shared by the content screens and the catalog import.
import { describe, expect, it } from 'vitest';
import { parseClassFields } from '../../src/features/content/timetable/timetable.service';
import { parseUnitForm } from '../../src/features/content/units/units.service';
import {
  httpsUrl,
  overlaps,
  parseWeekday,
  phone,
  priceCents,
  time,
  type FieldErrors,
} from '../../src/staff/validation';

const run = <T>(f: (e: FieldErrors) => T) => {
  const e: FieldErrors = {};
  const value = f(e);
  return { value, error: e.x };
};

describe('content field rules', () => {
  it('reads prices typed in pt-BR into cents and refuses negative or malformed ones', () => {
    expect(run((e) => priceCents(e, 'x', '129,90')).value).toBe(12990);
    expect(run((e) => priceCents(e, 'x', 'R$ 1.299,90')).value).toBe(129990);
    expect(run((e) => priceCents(e, 'x', '129.90')).value).toBe(12990);
    expect(run((e) => priceCents(e, 'x', '1.299')).value).toBe(129900);
    expect(run((e) => priceCents(e, 'x', '0')).value).toBe(0);
    expect(run((e) => priceCents(e, 'x', '-5')).error).toBe('O preço não pode ser negativo.');
    expect(run((e) => priceCents(e, 'x', '12,345')).error).toMatch(/Preço inválido/);
    expect(run((e) => priceCents(e, 'x', 'abc')).error).toMatch(/Preço inválido/);
    expect(run((e) => priceCents(e, 'x', '')).error).toBe('Informe o preço.');
  });

  it('accepts only https links with a real host and no credentials', () => {
    expect(run((e) => httpsUrl(e, 'x', 'https://wellhub.com/pt-br/x?q=1')).error).toBeUndefined();
    expect(run((e) => httpsUrl(e, 'x', 'http://wellhub.com')).error).toBe('O link precisa começar com https://.');
    expect(run((e) => httpsUrl(e, 'x', 'javascript:alert(1)')).error).toBe('O link precisa começar com https://.');
    expect(run((e) => httpsUrl(e, 'x', 'https://localhost/x')).error).toMatch(/Endereço inválido/);
    expect(run((e) => httpsUrl(e, 'x', 'https://user:pw@wellhub.com')).error).toMatch(/Endereço inválido/);
    expect(run((e) => httpsUrl(e, 'x', 'wellhub.com')).error).toMatch(/Endereço inválido/);
    expect(run((e) => httpsUrl(e, 'x', '')).value).toBeNull();
  });

  it('normalises Brazilian phones and refuses the rest', () => {
    expect(run((e) => phone(e, 'x', '(11) 3045-1200')).value).toBe('+551130451200');
    expect(run((e) => phone(e, 'x', '+55 11 98745-1200')).value).toBe('+5511987451200');
    expect(run((e) => phone(e, 'x', '3045-1200')).error).toMatch(/Telefone inválido/);
    expect(run((e) => phone(e, 'x', 'ligue já')).error).toMatch(/Telefone inválido/);
  });

  it('reads times and weekdays as people write them', () => {
    expect(run((e) => time(e, 'x', '7:30', 'o início')).value).toBe('07:30');
    expect(run((e) => time(e, 'x', '07h30', 'o início')).value).toBe('07:30');
    expect(run((e) => time(e, 'x', '24:00', 'o início')).error).toMatch(/Horário inválido/);
    expect(parseWeekday('Terça-feira')).toBe(2);
    expect(parseWeekday('SABADO')).toBe(6);
    expect(parseWeekday('dom')).toBe(0);
    expect(parseWeekday('3')).toBe(3);
    expect(parseWeekday('feriado')).toBeNull();
  });

  it('detects overlapping classes only in the same room on the same day', () => {
    const a = { dia_semana: 1, inicio: '07:00', fim: '08:00', sala: 'Sala 1' };
    expect(overlaps(a, { ...a, inicio: '07:30', fim: '08:30', sala: 'sala 1' })).toBe(true);
    expect(overlaps(a, { ...a, inicio: '08:00', fim: '09:00' })).toBe(false);
    expect(overlaps(a, { ...a, sala: 'Sala 2' })).toBe(false);
    expect(overlaps(a, { ...a, dia_semana: 2 })).toBe(false);
    expect(overlaps(a, { ...a, sala: null })).toBe(false);
  });

  it('checks a class and a unit form field by field', () => {
    const modalities = [{ id: 7, nome: 'Natação', ativo: 1 }];
    const bad = parseClassFields(
      (k) => ({ modalidade_id: '7', dia_semana: '1', inicio: '10:00', fim: '09:59' })[k] ?? '',
      modalities,
    );
    expect(bad).toEqual({ ok: false, errors: { fim: 'A aula precisa terminar depois de começar.' } });
    const byName = parseClassFields(
      (k) => ({ modalidade: 'natacao', dia_semana: 'segunda', inicio: '10:00', fim: '11:00' })[k] ?? '',
      modalities,
      true,
    );
    expect(byName).toEqual({
      ok: true,
      value: { modalidade_id: 7, dia_semana: 1, inicio: '10:00', fim: '11:00', professor: null, sala: null },
    });
    const unit = parseUnitForm({ nome: 'Á', cidade: 'x', uf: 'sp', bairro: 'b', endereco: 'e', abre_1: '08:00' });
    expect(unit.ok).toBe(false);
    expect(!unit.ok && unit.errors).toEqual({
      horario_1: 'Segunda-feira: informe abertura e fechamento, ou deixe os dois em branco se a unidade não abre.',
    });
  });
});
