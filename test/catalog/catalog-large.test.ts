// The large generated catalog (benchmark data): its own file, so it has its own database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLargeCatalog } from '../../src/db/seeds/large';
import { invalidateCatalogCache } from '../../src/features/catalog/index';
import { createTestApp, type TestContext } from '../helpers/app';

describe('large generated catalog', () => {
  let big: TestContext;
  beforeAll(async () => {
    big = await createTestApp({ seed: false });
  });
  afterAll(async () => big?.close());

  it('creates active units in real cities with plans, areas, modalities, hours and a full timetable', async () => {
    const result = await seedLargeCatalog(big.db, { units: 80 });
    expect(result.unitIds).toHaveLength(80);
    const units = await big.db.selectFrom('unidades').select(['id', 'cidade', 'ativo']).execute();
    expect(units).toHaveLength(80);
    expect(units.every((u) => u.ativo === 1)).toBe(true);
    expect(new Set(units.map((u) => u.cidade)).size).toBeGreaterThanOrEqual(25);
    const id = result.fullTimetableUnitId;
    const classes = await big.db.selectFrom('aulas').select('dia_semana').where('unidade_id', '=', id).execute();
    expect(new Set(classes.map((c) => c.dia_semana)).size).toBe(7);
    expect(classes.length).toBeGreaterThanOrEqual(40);
    invalidateCatalogCache(big.app);
    const res = await big.app.inject(`/Detalhes.php?id=${id}`);
    expect(res.statusCode).toBe(200);
    const s = await big.app.inject('/search_ajax.php?q=movimento');
    expect(s.json()).toHaveLength(20);
    expect(result.noBenefitUnitId).not.toBeNull();
    const pass = await big.app.inject(`/pages/Pass/index.php?id=${result.noBenefitUnitId}`);
    expect(pass.body).toContain('ainda não aceita benefício');
    // deterministic: the same seed gives the same units again (slugs stay unique)
    const second = await seedLargeCatalog(big.db, { units: 80 });
    const cols = ['nome', 'cidade', 'endereco', 'latitude', 'longitude', 'beneficio_url'] as const;
    const a = await big.db
      .selectFrom('unidades')
      .select([...cols, 'slug'])
      .where('id', 'in', result.unitIds)
      .orderBy('id')
      .execute();
    const b = await big.db
      .selectFrom('unidades')
      .select([...cols, 'slug'])
      .where('id', 'in', second.unitIds)
      .orderBy('id')
      .execute();
    expect(b.map((u) => u.nome)).toEqual(a.map((u) => u.nome));
    expect(b.map((u) => u.latitude)).toEqual(a.map((u) => u.latitude));
    expect(b.map((u) => u.endereco)).toEqual(a.map((u) => u.endereco));
  });
});
