// Staff accounts screens (admin only): list, create, edit role and units, password, disable.
import {
  ActiveBadge,
  bindStaffFields,
  Field,
  PostForm,
  Select,
  StaffErrorSummary,
  StaffForm,
  StaffPage,
  type StaffProps,
  type UnitChoice,
  UnitsCheckboxes,
} from '../../staff/form.view';
import { ColumnTable, type Column, type ListPageProps, StaffListPage } from '../../staff/list.view';
import type { FieldErrors, FormValues } from '../../staff/validation';

const CRUMBS = [{ href: '/admin/contas', label: 'Contas' }];
const ROLE_OPTIONS = [
  { value: 'admin', label: 'Administrador (tudo)' },
  { value: 'gerente', label: 'Gerente de unidade (pesquisa, mensagens e grade das suas unidades)' },
];

type AccountRow = { id: number; nome: string; email: string; papel: string; ativo: number; unidades: string[] };
const ACCOUNT_COLUMNS: Column<AccountRow>[] = [
  ['Nome', (u) => <a href={`/admin/contas/${u.id}`}>{u.nome}</a>],
  ['E-mail', (u) => u.email],
  ['Papel', (u) => (u.papel === 'admin' ? 'Administrador' : 'Gerente')],
  ['Unidades', (u) => (u.papel === 'admin' ? 'Todas' : u.unidades.join(', ') || '—')],
  ['Situação', (u) => <ActiveBadge ativo={u.ativo} />],
];

export function AccountsListPage({ users, ...page }: ListPageProps & { users: AccountRow[] }) {
  return (
    <StaffListPage
      {...page}
      title="Contas da equipe"
      newHref="/admin/contas/nova"
      newLabel="Nova conta"
      filterLabel="Filtrar contas por nome, e-mail ou unidade"
    >
      <ColumnTable label="Tabela das contas" caption="Contas" rows={users} columns={ACCOUNT_COLUMNS} />
    </StaffListPage>
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
  const field = bindStaffFields(values, errors);
  return (
    <StaffPage title={user ? `Conta de ${user.nome}` : 'Nova conta'} staff={staff} crumbs={CRUMBS} notice={p.notice}>
      <StaffForm
        action={user ? `/admin/contas/${user.id}` : '/admin/contas/nova'}
        csrfToken={staff.csrfToken}
        errors={errors}
        submit={user ? 'Salvar conta' : 'Criar conta'}
      >
        {user ? (
          <p>
            E-mail: <strong>{user.email}</strong> <ActiveBadge ativo={user.ativo} />
          </p>
        ) : (
          <Field {...field('email')} label="E-mail" type="email" required autocomplete="off" maxLength={254} />
        )}
        <Field {...field('nome')} label="Nome" required maxLength={120} />
        <Select {...field('papel')} label="Papel" placeholder="Escolha" options={ROLE_OPTIONS} />
        <UnitsCheckboxes
          {...field('unidades')}
          legend="Unidades do gerente"
          hint="Só para gerentes: eles veem a pesquisa e as mensagens destas unidades e editam a grade delas."
          units={p.units}
        />
        {user ? null : (
          <NewPassword
            name="senha"
            label="Senha inicial"
            errors={errors}
            hint="Combine com a pessoa uma troca no primeiro acesso."
          />
        )}
      </StaffForm>
      {user ? (
        <>
          <section class="card" aria-labelledby="redefinir">
            <h2 id="redefinir">Redefinir senha</h2>
            <StaffForm
              action={`/admin/contas/${user.id}/senha`}
              csrfToken={staff.csrfToken}
              errors={p.passwordErrors}
              submit="Redefinir senha"
              submitClass="secondary"
            >
              <NewPassword
                name="nova_senha"
                label="Nova senha"
                errors={p.passwordErrors}
                hint="As sessões abertas da conta são encerradas."
              />
            </StaffForm>
          </section>
          <section class="card" aria-labelledby="situacao">
            <h2 id="situacao">{user.ativo ? 'Desativar a conta' : 'Reativar a conta'}</h2>
            <StaffErrorSummary errors={p.activeErrors} />
            {p.activeErrors?.ativo ? <p class="field-error">{p.activeErrors.ativo}</p> : null}
            <PostForm
              action={`/admin/contas/${user.id}/ativo`}
              csrfToken={staff.csrfToken}
              confirm={user.ativo ? `Desativar a conta de ${user.nome}? As sessões abertas terminam agora.` : undefined}
            >
              <input type="hidden" name="ativo" value={user.ativo ? '0' : '1'} />
              <p>
                <button type="submit" class={user.ativo ? 'danger' : ''}>
                  {user.ativo ? 'Desativar conta' : 'Reativar conta'}
                </button>
              </p>
            </PostForm>
          </section>
        </>
      ) : null}
    </StaffPage>
  );
}

/** A new password typed by an admin: never shown back, so its value is always empty. */
function NewPassword(p: { name: string; label: string; errors?: FieldErrors; hint: string }) {
  return (
    <Field
      name={p.name}
      label={p.label}
      type="password"
      values={{}}
      errors={p.errors}
      required
      autocomplete="new-password"
      hint={`Pelo menos 12 caracteres. ${p.hint}`}
    />
  );
}
