// Staff accounts screens (admin only): /admin/contas, /nova, /:id, /:id/senha, /:id/ativo.
// Guards, CSRF and the list/edit/activate routes: src/staff/.
import type { FastifyInstance } from 'fastify';
import { formPost, recordScreens, type ScreenForm } from '../../staff/screens';
import type { FieldErrors } from '../../staff/validation';
import type { AccountsService } from './accounts.service';
import { AccountFormPage, AccountsListPage } from './accounts.view';
import { sessionKey } from './sessions';

export const ACCOUNTS_PATH = '/admin/contas';
type Account = NonNullable<Awaited<ReturnType<AccountsService['get']>>>;

export function accountRoutes(app: FastifyInstance, accounts: AccountsService) {
  const screens = recordScreens(app, {
    base: ACCOUNTS_PATH,
    missing: 'Conta não encontrada',
    service: accounts,
    list: {
      text: (u) => `${u.nome} ${u.email} ${u.unidades.join(' ')}`,
      page: ({ items, ...p }) => <AccountsListPage {...p} users={items} />,
    },
    values: (user) => ({ nome: user.nome, papel: user.papel, unidades: user.unidadeIds.map(String) }),
    blank: { papel: 'gerente' },
    form: async ({ item, body: _body, ...p }: ScreenForm<Account> & { passwordErrors?: FieldErrors }) => (
      <AccountFormPage {...p} user={item} units={await accounts.units()} />
    ),
  });

  // Changing one's own password keeps the current session; every other one ends.
  formPost(app, `${ACCOUNTS_PATH}/:id/senha`, {
    formPath: ACCOUNTS_PATH,
    load: ({ id }) => accounts.get(id),
    missing: 'Conta não encontrada',
    save: ({ actor, params, body, request }) => {
      const sid = request.cookies.sid;
      return accounts.resetPassword({ ...actor, sessionId: sid ? sessionKey(sid) : undefined }, params.id, body);
    },
    refused: ({ request, record }, passwordErrors) => screens.form(request, record, { passwordErrors }),
    saved: (_value, { params: { id } }) => ({ to: `${ACCOUNTS_PATH}/${id}?ok=senha` }),
  });
}
