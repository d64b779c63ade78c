// The prices and terms of the plans a unit offers: the table (also shown on the unit's edit
// page), the list page and the form of one plan at the unit.
import { formatBRL } from '../../../lib/text';
import type { ComponentProps } from 'preact';
import { fieldAria, FieldMessage, hintId } from '../../../views/form';
import {
  bindStaffFields,
  type Crumb,
  Field,
  Select,
  StaffForm,
  StaffPage,
  type StaffProps,
  str,
} from '../../../staff/form.view';
import { DataTable, ListFilter, Pagination } from '../../../staff/list.view';
import type { ListState } from '../../../staff/list';
import type { FieldErrors, FormValues } from '../../../staff/validation';
import type { PlanPriceRow } from '../shared/content.repository';
import { periodLabel } from '../units/units.service';
import { MONTHS, PRICE_MAX_CENTS, TERM_MAX_MONTHS } from './plan-prices.service';

interface UnitHead {
  id: number;
  nome: string;
  legalReady: boolean;
}

export const planPricesPath = (unitId: number) => `/admin/conteudo/unidades/${unitId}/planos`;

/** Admins come from the unit's edit page; a manager, who cannot open it, from the content hub. */
function crumbs(staff: StaffProps, unit: UnitHead, withList: boolean): Crumb[] {
  const out: Crumb[] = [{ href: '/admin/conteudo', label: 'Conteúdo' }];
  if (staff.papel === 'admin')
    out.push(
      { href: '/admin/conteudo/unidades', label: 'Unidades' },
      { href: `/admin/conteudo/unidades/${unit.id}`, label: unit.nome },
    );
  if (withList) out.push({ href: planPricesPath(unit.id), label: 'Planos e preços' });
  return out;
}

const money = (cents: number | null) => (cents === null ? '—' : formatBRL(cents));

function annualFee(p: PlanPriceRow) {
  if (!p.taxa_anual_centavos) return '—';
  const month = p.taxa_anual_mes ? MONTHS[p.taxa_anual_mes - 1] : null;
  return month ? `${formatBRL(p.taxa_anual_centavos)} em ${month.toLowerCase()}` : formatBRL(p.taxa_anual_centavos);
}

const term = (months: number) => (months === 0 ? 'Sem fidelidade' : months === 1 ? '1 mês' : `${months} meses`);

/** One row per plan the unit offers, with a link to edit its prices there. */
export function PlanPricesTable({ unitId, plans }: { unitId: number; plans: readonly PlanPriceRow[] }) {
  return (
    <DataTable
      label="Tabela dos planos e preços da unidade"
      caption="Planos vendidos na unidade, com preços e condições"
      columns={[
        'Plano',
        'Mensalidade',
        'Taxa de matrícula',
        'Taxa anual',
        'Fidelidade',
        'Multa',
        'Venda online',
        'Ações',
      ]}
      rows={plans}
      empty="Nenhum plano é vendido nesta unidade."
      row={(p) => (
        <tr key={p.plano_id}>
          <td>
            {p.nome}
            {p.ativo ? null : ' (inativo)'}
            <br />
            <span class="muted">{periodLabel(p.periodicidade)}</span>
          </td>
          <td>
            {p.mensalidade_centavos === null ? <span class="muted">sem preço</span> : money(p.mensalidade_centavos)}
          </td>
          <td>{p.taxa_matricula_centavos ? formatBRL(p.taxa_matricula_centavos) : '—'}</td>
          <td>{annualFee(p)}</td>
          <td>{term(p.fidelidade_meses)}</td>
          <td>{p.multa_percentual ? `${p.multa_percentual}%` : '—'}</td>
          <td>{p.venda_online ? <span class="badge open">Sim</span> : <span class="badge closed">Não</span>}</td>
          <td>
            <a href={`${planPricesPath(unitId)}/${p.plano_id}`}>
              Editar preços<span class="visually-hidden"> de {p.nome}</span>
            </a>
          </td>
        </tr>
      )}
    />
  );
}

/** Without the legal entity nothing sells online: said where the prices are. */
function LegalEntityNotice({ unit, admin }: { unit: UnitHead; admin: boolean }) {
  if (unit.legalReady) return null;
  return (
    <p class="alert" role="note">
      Esta unidade ainda não tem razão social e CNPJ válido: nenhum plano pode ser vendido online.{' '}
      {admin ? (
        <a href={`/admin/conteudo/unidades/${unit.id}#f-razao_social`}>Cadastrar na tela da unidade</a>
      ) : (
        'Peça a um administrador para cadastrá-los.'
      )}
    </p>
  );
}

/** The section of the unit's edit page: the table, or the first rows and a link to the rest. */
export function PlanPricesSection({ unit, plans }: { unit: UnitHead; plans: readonly PlanPriceRow[] }) {
  const shown = plans.slice(0, SECTION_ROWS);
  return (
    <section aria-labelledby="planos-precos">
      <h2 id="planos-precos">Planos e preços</h2>
      <LegalEntityNotice unit={unit} admin />
      <PlanPricesTable unitId={unit.id} plans={shown} />
      {plans.length > shown.length ? (
        <p>
          <a href={planPricesPath(unit.id)}>Ver os {plans.length} planos da unidade</a>
        </p>
      ) : null}
    </section>
  );
}
const SECTION_ROWS = 20;

export function PlanPricesPage(p: {
  staff: StaffProps;
  unit: UnitHead;
  plans: PlanPriceRow[];
  list: ListState;
  notice?: string;
}) {
  return (
    <StaffPage
      title={`Planos e preços · ${p.unit.nome}`}
      staff={p.staff}
      crumbs={crumbs(p.staff, p.unit, false)}
      notice={p.notice}
    >
      <p class="hint">
        Preços e condições de cada plano nesta unidade, usados na matrícula online. Os planos vendidos na unidade são
        escolhidos na tela do plano ou da unidade.
      </p>
      <LegalEntityNotice unit={p.unit} admin={p.staff.papel === 'admin'} />
      <ListFilter list={p.list} label="Filtrar planos pelo nome ou periodicidade" noun={['plano', 'planos']} />
      <PlanPricesTable unitId={p.unit.id} plans={p.plans} />
      <Pagination list={p.list} />
    </StaffPage>
  );
}

const MONTH_OPTIONS = MONTHS.map((m, i) => ({ value: String(i + 1), label: m }));

/** An amount in reais, typed with a comma (parsed by the service). */
export function MoneyField(p: Omit<ComponentProps<typeof Field>, 'inputMode' | 'maxLength'>) {
  return <Field {...p} inputMode="decimal" maxLength={20} />;
}

export function PlanPriceFormPage(p: {
  staff: StaffProps;
  unit: UnitHead;
  plan: Pick<PlanPriceRow, 'plano_id' | 'nome' | 'periodicidade' | 'preco_centavos' | 'ativo'>;
  values: FormValues;
  errors?: FieldErrors;
}) {
  const { unit, plan, values, errors } = p;
  const max = formatBRL(PRICE_MAX_CENTS);
  const onlineId = 'f-venda_online';
  const onlineError = errors?.venda_online;
  const field = bindStaffFields(values, errors);
  return (
    <StaffPage title={`Preços de ${plan.nome} · ${unit.nome}`} staff={p.staff} crumbs={crumbs(p.staff, unit, true)}>
      <p class="muted">
        Preço de tabela do plano: {formatBRL(plan.preco_centavos)} ({periodLabel(plan.periodicidade).toLowerCase()})
        {plan.ativo ? '' : ' · plano inativo'}.
      </p>
      <StaffForm
        action={`${planPricesPath(unit.id)}/${plan.plano_id}`}
        csrfToken={p.staff.csrfToken}
        errors={errors}
        submit="Salvar preços"
        after={<a href={planPricesPath(unit.id)}>Voltar sem salvar</a>}
      >
        <fieldset>
          <legend>Valores (R$)</legend>
          <MoneyField
            {...field('mensalidade')}
            label="Mensalidade"
            hint={`Por exemplo 129,90. Em branco, o plano não é vendido online nesta unidade. Até ${max}.`}
          />
          <MoneyField
            {...field('taxa_matricula')}
            label="Taxa de matrícula"
            hint="Cobrada uma vez, com a primeira mensalidade. Em branco: sem taxa."
          />
          <div class="grid">
            <MoneyField {...field('taxa_anual')} label="Taxa anual" hint="Manutenção anual. Em branco: sem taxa." />
            <Select
              {...field('taxa_anual_mes')}
              label="Mês de vencimento da taxa anual"
              options={MONTH_OPTIONS}
              placeholder="Sem taxa anual"
            />
          </div>
        </fieldset>
        <fieldset>
          <legend>Condições</legend>
          <div class="grid">
            <Field
              {...field('fidelidade_meses')}
              label="Fidelidade (meses)"
              type="number"
              inputMode="numeric"
              hint={`De 0 a ${TERM_MAX_MONTHS}; 0 = sem fidelidade.`}
              maxLength={2}
            />
            <Field
              {...field('multa_percentual')}
              label="Multa de cancelamento (%)"
              type="number"
              inputMode="numeric"
              hint="De 0 a 100: percentual da mensalidade por mês que falta da fidelidade."
              maxLength={3}
            />
          </div>
          <div class="field">
            <label class="choice" for={onlineId}>
              <input
                id={onlineId}
                type="checkbox"
                name="venda_online"
                value="1"
                checked={str(values, 'venda_online') === '1'}
                {...fieldAria(onlineId, onlineError, true)}
              />
              Vendido online (matrícula pelo site)
            </label>
            <p class="hint" id={hintId(onlineId)}>
              Exige a mensalidade e a razão social e o CNPJ da unidade.
            </p>
            <FieldMessage id={onlineId} message={onlineError} />
          </div>
        </fieldset>
      </StaffForm>
    </StaffPage>
  );
}
