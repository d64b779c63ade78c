// Two admins saving the same unit identifier at the same moment: one unit is created,
// the others get the field message; nothing answers as a server error.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createContentServices } from '../src/features/content/index';
import { createTestApp, type TestContext } from './helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

it('creates one unit when the same identifier is saved concurrently', async () => {
  const services = createContentServices({ db: t.db, onCatalogChange: () => {} });
  const body = {
    nome: 'Movimento Lagoa',
    slug: 'movimento-lagoa',
    cidade: 'Florianópolis',
    uf: 'SC',
    bairro: 'Lagoa da Conceição',
    endereco: 'Avenida das Rendeiras, 10',
    abre_1: '06:00',
    fecha_1: '22:00',
  };
  const results = await Promise.all(Array.from({ length: 6 }, () => services.units.create({ id: null }, { ...body })));
  expect(results.filter((r) => r.ok)).toHaveLength(1);
  for (const r of results.filter((r) => !r.ok)) {
    expect(r).toMatchObject({ ok: false, errors: { slug: 'Já existe uma unidade com este identificador.' } });
  }
  const rows = await t.db.selectFrom('unidades').select('id').where('slug', '=', 'movimento-lagoa').execute();
  expect(rows).toHaveLength(1);
});
