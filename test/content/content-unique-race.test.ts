// Two admins saving the same unique value (unit slug, area name, account e-mail) at the
// same moment: one row is created, the others get the field message, never a 500.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createContentServices } from '../../src/features/content/index';
import { accountsService } from '../../src/features/identity/services';
import { createTestApp, type TestContext } from '../helpers/app';

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

it('creates one area and one account when the same name or e-mail is saved concurrently', async () => {
  const services = createContentServices({ db: t.db, onCatalogChange: () => {} });
  const areas = await Promise.all(
    Array.from({ length: 6 }, () => services.areas.create({ id: null }, { nome: 'Sala de escalada' })),
  );
  expect(areas.filter((r) => r.ok)).toHaveLength(1);
  for (const r of areas.filter((r) => !r.ok))
    expect(r).toMatchObject({ errors: { nome: 'Já existe uma área com este nome.' } });

  const accounts_ = accountsService(t.db);
  const account = {
    email: 'gerente.lagoa@exemplo.com.br',
    nome: 'Gerente Lagoa',
    papel: 'admin',
    senha: 'uma-senha-bem-longa',
  };
  const accounts = await Promise.all(Array.from({ length: 4 }, () => accounts_.create({ id: null }, { ...account })));
  expect(accounts.filter((r) => r.ok)).toHaveLength(1);
  for (const r of accounts.filter((r) => !r.ok))
    expect(r).toMatchObject({ errors: { email: 'Já existe uma conta com este e-mail.' } });
  const rows = await t.db.selectFrom('usuarios').select('id').where('email', '=', account.email).execute();
  expect(rows).toHaveLength(1);
});
