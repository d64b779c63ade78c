// Staff accounts screens (admin only): list, create, edit role and units, password, disable.
import {
  ActiveBadge,
  Csrf,
  StaffErrorSummary,
  Field,
  Select,
  StaffPage,
  type StaffProps,
  type UnitChoice,
  UnitsCheckboxes,
} from '../../staff/form.view';
import { DataTable, type ListPageProps, StaffList } from '../../staff/list.view';
import type { FieldErrors, FormValues } from '../../staff/validation';

const CRUMBS = [{ href: '/admin/contas', label: 'Contas' }];
const ROLE_OPTIONS = [
  { value: 'admin', label: 'Administrador (tudo)' },
  { value: 'gerente', label: 'Gerente de unidade (pesquisa, mensagens e grade das suas unidades)' },
];

export function AccountsListPage({
  staff,
  users,
  notice,
  list,
}: ListPageProps & {
  users: { id: number; nome: string; email: string; papel: string; ativo: number; unidades: string[] }[];
}) {
  return (
    <StaffPage title="Contas da equipe" staff={staff} notice={notice}>
      <StaffList
        newHref="/admin/contas/nova"
        newLabel="Nova conta"
        filterLabel="Filtrar contas por nome, e-mail ou unidade"
        list={list}
      >
        <DataTable
          label="Tabela das contas"
          caption="Contas"
          columns={['Nome', 'E-mail', 'Papel', 'Unidades', 'Situação']}
          rows={users}
          row={(u) => (
            <tr key={u.id}>
              <td>
                <a href={`/admin/contas/${u.id}`}>{u.nome}</a>
              </td>
              <td>{u.email}</td>
              <td>{u.papel === 'admin' ? 'Administrador' : 'Gerente'}</td>
              <td>{u.papel === 'admin' ? 'Todas' : u.unidades.join(', ') || '—'}</td>
              <td>
                <ActiveBadge ativo={u.ativo} />
              </td>
            </tr>
          )}
        />
      </StaffList>
    </StaffPage>
  );
}

export function AccountFormPage(p: {
  staff: StaffProps;
  user: { id: number; email: string; nome: string; ativo: number } | null;
  values: FormValues;
  errors?: FieldErrors;
  passwordValues?: FormValues;
  passwordErrors?: FieldErrors;
  activeErrors?: FieldErrors;
  notice?: string;
  units: UnitChoice[];
}) {
  const { staff, user, values, errors } = p;
  return (
    <StaffPage title={user ? `Conta de ${user.nome}` : 'Nova conta'} staff={staff} crumbs={CRUMBS} notice={p.notice}>
      <StaffErrorSummary errors={errors} />
      <form method="post" action={user ? `/admin/contas/${user.id}` : '/admin/contas/nova'} novalidate>
        <Csrf token={staff.csrfToken} />
        {user ? (
          <p>
            E-mail: <strong>{user.email}</strong> <ActiveBadge ativo={user.ativo} />
          </p>
        ) : (
          <Field
            name="email"
            label="E-mail"
            type="email"
            values={values}
            errors={errors}
            required
            autocomplete="off"
            maxLength={254}
          />
        )}
        <Field name="nome" label="Nome" values={values} errors={errors} required maxLength={120} />
        <Select
          name="papel"
          label="Papel"
          values={values}
          errors={errors}
          placeholder="Escolha"
          options={ROLE_OPTIONS}
        />
        <UnitsCheckboxes
          legend="Unidades do gerente"
          hint="Só para gerentes: eles veem a pesquisa e as mensagens destas unidades e editam a grade delas."
          values={values}
          errors={errors}
          units={p.units}
        />
        {user ? null : (
          <Field
            name="senha"
            label="Senha inicial"
            type="password"
            values={{}}
            errors={errors}
            required
            autocomplete="new-password"
            hint="Pelo menos 12 caracteres. Combine com a pessoa uma troca no primeiro acesso."
          />
        )}
        <p>
          <button type="submit">{user ? 'Salvar conta' : 'Criar conta'}</button>
        </p>
      </form>
      {user ? (
        <>
          <section class="card" aria-labelledby="redefinir">
            <h2 id="redefinir">Redefinir senha</h2>
            <StaffErrorSummary errors={p.passwordErrors} />
            <form method="post" action={`/admin/contas/${user.id}/senha`} novalidate>
              <Csrf token={staff.csrfToken} />
              <Field
                name="nova_senha"
                label="Nova senha"
                type="password"
                values={{}}
                errors={p.passwordErrors}
                required
                autocomplete="new-password"
                hint="Pelo menos 12 caracteres. As sessões abertas da conta são encerradas."
              />
              <p>
                <button type="submit" class="secondary">
                  Redefinir senha
                </button>
              </p>
            </form>
          </section>
          <section class="card" aria-labelledby="situacao">
            <h2 id="situacao">{user.ativo ? 'Desativar a conta' : 'Reativar a conta'}</h2>
            <StaffErrorSummary errors={p.activeErrors} />
            {p.activeErrors?.ativo ? <p class="field-error">{p.activeErrors.ativo}</p> : null}
            <form
              method="post"
              action={`/admin/contas/${user.id}/ativo`}
              data-confirmar={
                user.ativo ? `Desativar a conta de ${user.nome}? As sessões abertas terminam agora.` : undefined
              }
            >
              <Csrf token={staff.csrfToken} />
              <input type="hidden" name="ativo" value={user.ativo ? '0' : '1'} />
              <p>
                <button type="submit" class={user.ativo ? 'danger' : ''}>
                  {user.ativo ? 'Desativar conta' : 'Reativar conta'}
                </button>
              </p>
            </form>
          </section>
        </>
      ) : null}
    </StaffPage>
  );
}
