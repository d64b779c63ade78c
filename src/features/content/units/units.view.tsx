import { type ComponentProps, Fragment } from 'preact';
import { WEEKDAYS } from '../../../lib/time';
import { fieldAria, FieldMessage } from '../../../views/form';
import {
  ActiveBadge,
  bindStaffFields,
  CheckboxGroup,
  Field,
  RecordFormPage,
  Select,
  StaffPage,
  type StaffFieldBinder,
  type StaffProps,
  str,
  TextArea,
  ToggleActive,
} from '../../../staff/form.view';
import { ColumnTable, type Column, type ListPageProps, StaffListPage } from '../../../staff/list.view';
import { UFS, type FieldErrors, type FormValues } from '../../../staff/validation';
import { periodLabel, type PlanChoice, type PlanChoices } from './units.service';
import type { PlanPriceRow } from '../shared/content.repository';
import { PlanPricesSection, planPricesPath } from '../plan-prices/plan-prices.view';

const CONTENT_CRUMBS = [{ href: '/admin/conteudo', label: 'Conteúdo' }];
const UNIT_CRUMBS = [...CONTENT_CRUMBS, { href: '/admin/conteudo/unidades', label: 'Unidades' }];

export interface ContentHomeProps {
  staff: StaffProps;
  /** for a manager: the units whose timetable they edit */
  units: { id: number; nome: string; cidade: string }[];
}

export function ContentHome({ staff, units }: ContentHomeProps) {
  return (
    <StaffPage title="Conteúdo do site" staff={staff}>
      {staff.papel === 'admin' ? (
        <ul class="content-menu">
          <li>
            <a href="/admin/conteudo/unidades">Unidades</a>{' '}
            <span class="muted">dados, horários, link da plataforma de benefício e grade de aulas</span>
          </li>
          <li>
            <a href="/admin/conteudo/planos">Planos</a> <span class="muted">preços, periodicidade e unidades</span>
          </li>
          <li>
            <a href="/admin/conteudo/areas">Áreas</a> <span class="muted">musculação, piscina...</span>
          </li>
          <li>
            <a href="/admin/conteudo/modalidades">Modalidades</a> <span class="muted">spinning, yoga...</span>
          </li>
          <li>
            <a href="/admin/conteudo/perguntas">Pesquisa de satisfação</a> <span class="muted">perguntas e opções</span>
          </li>
          <li>
            <a href="/admin/contas">Contas da equipe</a>
          </li>
          <li>
            <a href="/admin/auditoria">Registro de alterações</a>
          </li>
        </ul>
      ) : (
        <>
          <p>Você edita a grade de aulas e os preços dos planos das suas unidades:</p>
          {units.length ? (
            <ul class="content-menu">
              {units.map((u) => (
                <li key={u.id}>
                  <a href={`/admin/conteudo/unidades/${u.id}/aulas`}>Grade de aulas · {u.nome}</a>{' '}
                  <span class="muted">{u.cidade}</span> · <a href={planPricesPath(u.id)}>Planos e preços</a>
                </li>
              ))}
            </ul>
          ) : (
            <p class="muted">Nenhuma unidade foi atribuída à sua conta. Fale com um administrador.</p>
          )}
        </>
      )}
    </StaffPage>
  );
}

const UNIT_COLUMNS: Column<UnitRow>[] = [
  [
    'Unidade',
    (u) => (
      <>
        <a href={`/admin/conteudo/unidades/${u.id}`}>{u.nome}</a>
        <br />
        <span class="muted">{u.bairro}</span>
      </>
    ),
  ],
  ['Cidade', (u) => `${u.cidade}/${u.uf}`],
  ['Situação', (u) => <ActiveBadge ativo={u.ativo} />],
  [
    'Ações',
    (u) => (
      <>
        <a href={`/admin/conteudo/unidades/${u.id}`}>
          Editar<span class="visually-hidden"> {u.nome}</span>
        </a>{' '}
        ·{' '}
        <a href={`/admin/conteudo/unidades/${u.id}/aulas`}>
          Grade<span class="visually-hidden"> de {u.nome}</span>
        </a>
      </>
    ),
  ],
];
type UnitRow = { id: number; nome: string; cidade: string; uf: string; bairro: string; ativo: number };

export function UnitsListPage({ units, ...page }: ListPageProps & { units: UnitRow[] }) {
  return (
    <StaffListPage
      {...page}
      title="Unidades"
      crumbs={CONTENT_CRUMBS}
      newHref="/admin/conteudo/unidades/nova"
      newLabel="Nova unidade"
      filterLabel="Filtrar unidades por nome, bairro ou cidade"
    >
      <ColumnTable label="Tabela das unidades" caption="Unidades da rede" rows={units} columns={UNIT_COLUMNS} />
    </StaffListPage>
  );
}

export interface UnitFormProps {
  staff: StaffProps;
  unit: { id: number; nome: string; ativo: number } | null;
  values: FormValues;
  errors?: FieldErrors;
  notice?: string;
  options: {
    areas: { id: number; nome: string; ativo: number }[];
    modalities: { id: number; nome: string; ativo: number }[];
    plans: PlanChoices;
  };
  /** the form was sent to search plans: shown again as sent, nothing saved */
  searched?: boolean;
  /** an existing unit's plans with their prices there (the "Planos e preços" section) */
  prices?: { unit: { id: number; nome: string; legalReady: boolean }; plans: PlanPriceRow[] } | null;
}

const inactive = (x: { nome: string; ativo: number }) => (x.ativo ? x.nome : `${x.nome} (inativo)`);

/** The links of a unit being edited: timetable, photos, prices, public page, poster, and activation. */
function UnitLinks({ unit, csrfToken }: { unit: { id: number; nome: string; ativo: number }; csrfToken: string }) {
  const prices = planPricesPath(unit.id);
  return (
    <p class="actions">
      <ActiveBadge ativo={unit.ativo} /> <a href={`/admin/conteudo/unidades/${unit.id}/aulas`}>Grade de aulas</a> ·{' '}
      <a href={`/admin/conteudo/unidades/${unit.id}/fotos`}>Fotos</a> · <a href={prices}>Planos e preços</a> ·{' '}
      <a href={`/Detalhes.php?id=${unit.id}`}>Ver no site</a> ·{' '}
      <a href={`/admin/pesquisa/cartaz/${unit.id}`}>Cartaz da pesquisa (QR code)</a>{' '}
      <ToggleActive
        action={`/admin/conteudo/unidades/${unit.id}/ativo`}
        ativo={unit.ativo}
        csrfToken={csrfToken}
        label={unit.nome}
      />
    </p>
  );
}

const UF_OPTIONS = UFS.map((u) => ({ value: u, label: u }));

export function UnitFormPage({ staff, unit, values, errors, notice, options, searched, prices }: UnitFormProps) {
  const submitLabel = unit ? 'Salvar alterações' : 'Criar unidade';
  const field = bindStaffFields(values, errors);
  const head = (
    <>
      {unit ? <UnitLinks unit={unit} csrfToken={staff.csrfToken} /> : null}
      {searched ? (
        <p class="alert" role="status">
          Nada foi gravado ainda. Marque os planos no <a href="#planos-busca">resultado da busca</a> e clique em “
          {submitLabel}”.
        </p>
      ) : null}
    </>
  );
  return (
    <RecordFormPage
      staff={staff}
      record={unit}
      path="/admin/conteudo/unidades"
      newPath="/admin/conteudo/unidades/nova"
      newTitle="Nova unidade"
      createLabel="Criar unidade"
      crumbs={UNIT_CRUMBS}
      notice={notice}
      errors={errors}
      head={head}
      after={prices ? <PlanPricesSection unit={prices.unit} plans={prices.plans} /> : null}
    >
      {options.plans.all ? null : (
        // Enter in a field clicks the form's first submit button: this one, not "Buscar
        // planos". It saves, or searches when a search is typed (isPlanSearch). Rendered,
        // not display:none, which some browsers skip for the next button.
        <button type="submit" name="enviar" value="padrao" class="visually-hidden" tabIndex={-1} aria-hidden="true">
          {submitLabel}
        </button>
      )}
      <fieldset>
        <legend>Dados da unidade</legend>
        <Field {...field('nome')} label="Nome" required maxLength={120} />
        <Field
          {...field('slug')}
          label="Identificador no endereço"
          hint="Letras, números e hífens; em branco, é gerado a partir do nome. Usado na importação do catálogo."
          maxLength={140}
        />
        <div class="grid">
          <Field {...field('cidade')} label="Cidade" required maxLength={120} />
          <Select {...field('uf')} label="UF" placeholder="Escolha" options={UF_OPTIONS} />
        </div>
        <Field {...field('bairro')} label="Bairro" required maxLength={120} />
        <Field
          {...field('endereco')}
          label="Endereço"
          required
          maxLength={255}
          hint="Rua e número, como aparece no mapa."
        />
        <Field {...field('cep')} label="CEP" inputMode="numeric" maxLength={9} />
        <div class="grid">
          <PhoneField {...field('telefone')} label="Telefone" example="(11) 3045-1200" />
          <PhoneField {...field('whatsapp')} label="WhatsApp" example="(11) 98745-1200" />
        </div>
        <Field {...field('email')} label="E-mail da unidade" type="email" maxLength={254} />
        <div class="grid">
          <Field {...field('latitude')} label="Latitude" inputMode="decimal" hint="Por exemplo -23.5665" />
          <Field {...field('longitude')} label="Longitude" inputMode="decimal" hint="Por exemplo -46.6917" />
        </div>
        <TextArea {...field('descricao')} label="Descrição" maxLength={2000} />
      </fieldset>

      <fieldset>
        <legend>Empresa responsável</legend>
        <p class="hint">
          A empresa que responde pela unidade, citada no contrato da matrícula online. Sem razão social e CNPJ, nenhum
          plano da unidade é vendido online.
        </p>
        <TextFields field={field} specs={LEGAL_ENTITY_FIELDS} />
      </fieldset>

      <fieldset>
        <legend>Plataforma de benefício</legend>
        <TextFields field={field} specs={BENEFIT_FIELDS} />
      </fieldset>

      <OpeningHours values={values} errors={errors} />

      <CheckboxGroup
        {...field('areas')}
        legend="Áreas da unidade"
        options={options.areas.map((a) => ({ value: String(a.id), label: inactive(a) }))}
      />
      <CheckboxGroup
        {...field('modalidades')}
        legend="Modalidades oferecidas"
        options={options.modalities.map((a) => ({ value: String(a.id), label: inactive(a) }))}
      />
      <PlanCheckboxes
        plans={options.plans}
        values={values}
        errors={errors}
        action={unit ? `/admin/conteudo/unidades/${unit.id}` : '/admin/conteudo/unidades/nova'}
      />
    </RecordFormPage>
  );
}

type TextSpec = Pick<ComponentProps<typeof Field>, 'name' | 'label' | 'type' | 'hint' | 'maxLength'>;

/** The company behind the unit, named in the online enrolment's contract. */
const LEGAL_ENTITY_FIELDS: TextSpec[] = [
  { name: 'razao_social', label: 'Razão social', maxLength: 160 },
  { name: 'cnpj', label: 'CNPJ', hint: '14 caracteres, com ou sem pontuação, como 11.222.333/0001-81.', maxLength: 20 },
  {
    name: 'endereco_juridico',
    label: 'Endereço da empresa',
    hint: 'Como no cartão CNPJ. Em branco, vale o endereço da unidade.',
    maxLength: 300,
  },
];

/** The unit's page on a benefit platform (Wellhub, TotalPass): shown as a link on the site. */
const BENEFIT_FIELDS: TextSpec[] = [
  { name: 'beneficio_nome', label: 'Nome da plataforma', hint: 'Por exemplo Wellhub ou TotalPass.', maxLength: 80 },
  {
    name: 'beneficio_url',
    label: 'Link da unidade na plataforma',
    type: 'url',
    hint: 'Só links https://',
    maxLength: 500,
  },
];

/** Optional text fields that differ only in name, label, hint and length, in the order listed. */
function TextFields({ field, specs }: { field: StaffFieldBinder; specs: TextSpec[] }) {
  return (
    <>
      {specs.map((spec) => (
        <Field key={spec.name} {...field(spec.name)} {...spec} />
      ))}
    </>
  );
}

/** A phone number with its area code, shown by an example. */
function PhoneField({ example, ...p }: Omit<ComponentProps<typeof Field>, 'type' | 'hint'> & { example: string }) {
  return <Field {...p} type="tel" hint={`Com DDD, por exemplo ${example}.`} maxLength={20} />;
}

/** Opening and closing time per weekday, one message per day (a day with only one of them is refused). */
function OpeningHours({ values, errors }: { values: FormValues; errors?: FieldErrors }) {
  return (
    <fieldset>
      <legend>Horário de funcionamento</legend>
      <p class="hint">Deixe os dois campos em branco nos dias em que a unidade não abre.</p>
      {WEEKDAYS.map((day, d) => {
        const dayId = `f-horario_${d}`;
        const error = errors?.[`horario_${d}`];
        return (
          <div class="hours-row" key={day} role="group" aria-labelledby={`dia-${d}`}>
            <span class="hours-day" id={`dia-${d}`}>
              {day}
            </span>
            {(['abre', 'fecha'] as const).map((end) => (
              <Fragment key={end}>
                <label for={`f-${end}_${d}`}>
                  {end === 'abre' ? 'Abre' : 'Fecha'}
                  <span class="visually-hidden"> ({day})</span>
                </label>
                <input
                  id={`f-${end}_${d}`}
                  name={`${end}_${d}`}
                  type="time"
                  value={str(values, `${end}_${d}`)}
                  {...fieldAria(dayId, error)}
                />
              </Fragment>
            ))}
            <FieldMessage id={dayId} message={error} />
          </div>
        );
      })}
    </fieldset>
  );
}

const planOption = (p: PlanChoice) => ({
  value: String(p.id),
  label: inactive(p),
  group: periodLabel(p.periodicidade),
});

/**
 * The unit's plans. A small catalog lists every plan; a chain's (thousands) lists the
 * unit's own and finds the others with a search sent with the form (the "Buscar planos"
 * button re-shows the form as typed). `planos_exibidos` tells the save which plans had a
 * checkbox: the others keep their link (docs/decisions/178).
 */
function PlanCheckboxes({
  plans,
  values,
  errors,
  action,
}: {
  plans: PlanChoices;
  values: FormValues;
  errors?: FieldErrors;
  action: string;
}) {
  const shown = <input type="hidden" name="planos_exibidos" value={plans.shownIds.join(',')} />;
  if (plans.all) {
    return (
      <>
        {shown}
        <CheckboxGroup
          name="planos"
          legend="Planos vendidos na unidade"
          values={values}
          errors={errors}
          options={plans.listed.map(planOption)}
          ticked="marcados"
        />
      </>
    );
  }
  const more = plans.matchCount - plans.matches.length;
  return (
    <>
      {shown}
      {plans.listed.length ? (
        <CheckboxGroup
          name="planos"
          legend="Planos vendidos na unidade"
          hint={
            'Desmarque para deixar de vender. Para acrescentar outro plano, busque logo abaixo; ' +
            'planos que não aparecem nesta página não mudam ao salvar.'
          }
          values={values}
          errors={errors}
          options={plans.listed.map(planOption)}
          ticked="marcados"
        />
      ) : (
        <fieldset id="f-planos" tabIndex={-1} class="checkbox-group">
          <legend>Planos vendidos na unidade</legend>
          <p class="muted">Nenhum plano marcado. Busque logo abaixo para acrescentar.</p>
        </fieldset>
      )}
      <fieldset id="planos-busca" class="checkbox-group">
        <legend>Acrescentar planos</legend>
        <div class="field">
          <label for="f-planos_q">Buscar planos pelo nome ou periodicidade</label>
          <p class="hint" id="f-planos_q-dica">
            {plans.total} planos no catálogo; por exemplo “anual recife”. Os marcados acima continuam marcados.
          </p>
          <input
            id="f-planos_q"
            name="planos_q"
            type="search"
            value={plans.q}
            maxLength={100}
            aria-describedby="f-planos_q-dica"
          />
        </div>
        <p>
          <button type="submit" name="buscar_planos" value="1" class="secondary" formAction={`${action}#planos-busca`}>
            Buscar planos
          </button>
        </p>
        {plans.q ? (
          <>
            <p class="muted">
              {plans.matchCount === 0
                ? `Nenhum outro plano contém “${plans.q}”.`
                : `${plans.matchCount === 1 ? '1 plano' : `${plans.matchCount} planos`} fora da lista acima ` +
                  `${plans.matchCount === 1 ? 'contém' : 'contêm'} “${plans.q}”${
                    more > 0 ? `; aqui os ${plans.matches.length} primeiros: refine a busca para ver os outros` : ''
                  }.`}
            </p>
            {/* matches leave out the unit's plans and those ticked: none of these is ticked */}
            {plans.matches.map((p) => (
              <label class="choice" key={p.id}>
                <input type="checkbox" name="planos" value={String(p.id)} />
                {inactive(p)} <span class="muted">· {periodLabel(p.periodicidade)}</span>
              </label>
            ))}
          </>
        ) : null}
      </fieldset>
    </>
  );
}
