// Plans, areas and modalities screens.
import { formatBRL } from '../../../lib/text';
import {
  ActiveBadge,
  bindStaffFields,
  Field,
  Select,
  RecordFormPage,
  TextArea,
  type StaffProps,
  type UnitChoice,
  UnitsCheckboxes,
} from '../../../staff/form.view';
import { DataTable, type ListPageProps, StaffListPage } from '../../../staff/list.view';
import { MoneyField } from '../plan-prices/plan-prices.view';
import { PERIODS, type FieldErrors, type FormValues } from '../../../staff/validation';

const CONTENT_CRUMBS = [{ href: '/admin/conteudo', label: 'Conteúdo' }];

export function PlansListPage({
  plans,
  ...page
}: ListPageProps & {
  plans: { id: number; nome: string; preco_centavos: number; periodicidade: string; ativo: number }[];
}) {
  return (
    <StaffListPage
      {...page}
      title="Planos"
      crumbs={CONTENT_CRUMBS}
      newHref="/admin/conteudo/planos/novo"
      newLabel="Novo plano"
      filterLabel="Filtrar planos por nome ou periodicidade"
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
    </StaffListPage>
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
  const field = bindStaffFields(values, errors);
  return (
    <RecordFormPage
      staff={staff}
      record={plan}
      path="/admin/conteudo/planos"
      newPath="/admin/conteudo/planos/novo"
      newTitle="Novo plano"
      createLabel="Criar plano"
      crumbs={[...CONTENT_CRUMBS, { href: '/admin/conteudo/planos', label: 'Planos' }]}
      notice={props.notice}
      errors={errors}
    >
      <Field {...field('nome')} label="Nome" required maxLength={120} />
      <TextArea {...field('descricao')} label="Descrição" maxLength={1000} />
      <MoneyField {...field('preco')} label="Preço (R$)" required hint="Em reais, por exemplo 129,90." />
      <Select
        {...field('periodicidade')}
        label="Periodicidade da cobrança"
        placeholder="Escolha"
        options={PERIODS.map((p) => ({ value: p.value, label: p.label }))}
      />
      <Field {...field('ordem')} label="Ordem de exibição" type="number" hint="Os menores aparecem primeiro." />
      <UnitsCheckboxes {...field('unidades')} legend="Unidades que oferecem o plano" units={units} />
    </RecordFormPage>
  );
}

export const TAXONOMY_LABELS = {
  area: { plural: 'Áreas', singular: 'área', novo: 'Nova área', path: 'areas' },
  modalidade: { plural: 'Modalidades', singular: 'modalidade', novo: 'Nova modalidade', path: 'modalidades' },
} as const;

export function TaxonomyListPage({
  kind,
  items,
  ...page
}: ListPageProps & {
  kind: 'area' | 'modalidade';
  items: { id: number; nome: string; ativo: number }[];
}) {
  const l = TAXONOMY_LABELS[kind];
  return (
    <StaffListPage
      {...page}
      title={l.plural}
      crumbs={CONTENT_CRUMBS}
      newHref={`/admin/conteudo/${l.path}/nova`}
      newLabel={l.novo}
      filterLabel={`Filtrar ${l.plural.toLowerCase()} por nome`}
    >
      <ul class="item-list">
        {items.map((i) => (
          <li key={i.id}>
            <a href={`/admin/conteudo/${l.path}/${i.id}`}>{i.nome}</a> <ActiveBadge ativo={i.ativo} />
          </li>
        ))}
      </ul>
    </StaffListPage>
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
  const field = bindStaffFields(values, errors);
  const path = `/admin/conteudo/${l.path}`;
  return (
    <RecordFormPage
      staff={staff}
      record={item}
      path={path}
      newPath={`${path}/nova`}
      newTitle={l.novo}
      createLabel={`Criar ${l.singular}`}
      crumbs={[...CONTENT_CRUMBS, { href: path, label: l.plural }]}
      notice={props.notice}
      errors={errors}
    >
      <Field {...field('nome')} label="Nome" required maxLength={120} />
      {kind === 'modalidade' ? <TextArea {...field('descricao')} label="Descrição" maxLength={1000} /> : null}
      <UnitsCheckboxes {...field('unidades')} legend={`Unidades com esta ${l.singular}`} units={units} />
    </RecordFormPage>
  );
}
