// Plans, areas and modalities screens.
import { formatBRL } from '../../../lib/text';
import {
  ActiveBadge,
  Csrf,
  StaffErrorSummary,
  Field,
  Select,
  StaffPage,
  TextArea,
  ToggleActive,
  type StaffProps,
  type UnitChoice,
  UnitsCheckboxes,
} from '../../../staff/form.view';
import { DataTable, type ListPageProps, StaffList } from '../../../staff/list.view';
import { PERIODS, type FieldErrors, type FormValues } from '../../../staff/validation';

const CONTENT_CRUMBS = [{ href: '/admin/conteudo', label: 'Conteúdo' }];

export function PlansListPage({
  staff,
  plans,
  notice,
  list,
}: ListPageProps & {
  plans: { id: number; nome: string; preco_centavos: number; periodicidade: string; ativo: number }[];
}) {
  return (
    <StaffPage title="Planos" staff={staff} crumbs={CONTENT_CRUMBS} notice={notice}>
      <StaffList
        newHref="/admin/conteudo/planos/novo"
        newLabel="Novo plano"
        filterLabel="Filtrar planos por nome ou periodicidade"
        list={list}
      >
        <DataTable
          label="Tabela dos planos"
          caption="Planos"
          columns={['Plano', 'Preço', 'Periodicidade', 'Situação']}
          rows={plans}
          row={(p) => (
            <tr key={p.id}>
              <td>
                <a href={`/admin/conteudo/planos/${p.id}`}>{p.nome}</a>
              </td>
              <td>{formatBRL(p.preco_centavos)}</td>
              <td>{PERIODS.find((x) => x.value === p.periodicidade)?.label ?? p.periodicidade}</td>
              <td>
                <ActiveBadge ativo={p.ativo} />
              </td>
            </tr>
          )}
        />
      </StaffList>
    </StaffPage>
  );
}

export function PlanFormPage(props: {
  staff: StaffProps;
  plan: { id: number; nome: string; ativo: number } | null;
  values: FormValues;
  errors?: FieldErrors;
  notice?: string;
  units: UnitChoice[];
}) {
  const { staff, plan, values, errors, units } = props;
  return (
    <StaffPage
      title={plan ? `Editar ${plan.nome}` : 'Novo plano'}
      staff={staff}
      crumbs={[...CONTENT_CRUMBS, { href: '/admin/conteudo/planos', label: 'Planos' }]}
      notice={props.notice}
    >
      {plan ? (
        <p class="actions">
          <ActiveBadge ativo={plan.ativo} />{' '}
          <ToggleActive
            action={`/admin/conteudo/planos/${plan.id}/ativo`}
            ativo={plan.ativo}
            csrfToken={staff.csrfToken}
            label={plan.nome}
          />
        </p>
      ) : null}
      <StaffErrorSummary errors={errors} />
      <form
        method="post"
        action={plan ? `/admin/conteudo/planos/${plan.id}` : '/admin/conteudo/planos/novo'}
        novalidate
      >
        <Csrf token={staff.csrfToken} />
        <Field name="nome" label="Nome" values={values} errors={errors} required maxLength={120} />
        <TextArea name="descricao" label="Descrição" values={values} errors={errors} maxLength={1000} />
        <Field
          name="preco"
          label="Preço (R$)"
          values={values}
          errors={errors}
          required
          inputMode="decimal"
          hint="Em reais, por exemplo 129,90."
          maxLength={20}
        />
        <Select
          name="periodicidade"
          label="Periodicidade da cobrança"
          values={values}
          errors={errors}
          placeholder="Escolha"
          options={PERIODS.map((p) => ({ value: p.value, label: p.label }))}
        />
        <Field
          name="ordem"
          label="Ordem de exibição"
          type="number"
          values={values}
          errors={errors}
          hint="Os menores aparecem primeiro."
        />
        <UnitsCheckboxes legend="Unidades que oferecem o plano" values={values} errors={errors} units={units} />
        <p>
          <button type="submit">{plan ? 'Salvar alterações' : 'Criar plano'}</button>
        </p>
      </form>
    </StaffPage>
  );
}

export const TAXONOMY_LABELS = {
  area: { plural: 'Áreas', singular: 'área', novo: 'Nova área', path: 'areas' },
  modalidade: { plural: 'Modalidades', singular: 'modalidade', novo: 'Nova modalidade', path: 'modalidades' },
} as const;

export function TaxonomyListPage({
  staff,
  kind,
  items,
  notice,
  list,
}: ListPageProps & {
  kind: 'area' | 'modalidade';
  items: { id: number; nome: string; ativo: number }[];
}) {
  const l = TAXONOMY_LABELS[kind];
  return (
    <StaffPage title={l.plural} staff={staff} crumbs={CONTENT_CRUMBS} notice={notice}>
      <StaffList
        newHref={`/admin/conteudo/${l.path}/nova`}
        newLabel={l.novo}
        filterLabel={`Filtrar ${l.plural.toLowerCase()} por nome`}
        list={list}
      >
        <ul class="item-list">
          {items.map((i) => (
            <li key={i.id}>
              <a href={`/admin/conteudo/${l.path}/${i.id}`}>{i.nome}</a> <ActiveBadge ativo={i.ativo} />
            </li>
          ))}
        </ul>
      </StaffList>
    </StaffPage>
  );
}

export function TaxonomyFormPage(props: {
  staff: StaffProps;
  kind: 'area' | 'modalidade';
  item: { id: number; nome: string; ativo: number } | null;
  values: FormValues;
  errors?: FieldErrors;
  notice?: string;
  units: UnitChoice[];
}) {
  const { staff, kind, item, values, errors, units } = props;
  const l = TAXONOMY_LABELS[kind];
  return (
    <StaffPage
      title={item ? `Editar ${item.nome}` : l.novo}
      staff={staff}
      crumbs={[...CONTENT_CRUMBS, { href: `/admin/conteudo/${l.path}`, label: l.plural }]}
      notice={props.notice}
    >
      {item ? (
        <p class="actions">
          <ActiveBadge ativo={item.ativo} />{' '}
          <ToggleActive
            action={`/admin/conteudo/${l.path}/${item.id}/ativo`}
            ativo={item.ativo}
            csrfToken={staff.csrfToken}
            label={item.nome}
          />
        </p>
      ) : null}
      <StaffErrorSummary errors={errors} />
      <form
        method="post"
        action={item ? `/admin/conteudo/${l.path}/${item.id}` : `/admin/conteudo/${l.path}/nova`}
        novalidate
      >
        <Csrf token={staff.csrfToken} />
        <Field name="nome" label="Nome" values={values} errors={errors} required maxLength={120} />
        {kind === 'modalidade' ? (
          <TextArea name="descricao" label="Descrição" values={values} errors={errors} maxLength={1000} />
        ) : null}
        <UnitsCheckboxes legend={`Unidades com esta ${l.singular}`} values={values} errors={errors} units={units} />
        <p>
          <button type="submit">{item ? 'Salvar alterações' : `Criar ${l.singular}`}</button>
        </p>
      </form>
    </StaffPage>
  );
}
