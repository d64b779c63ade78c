// The trial-class capacity per unit: one form per page of units (docs/decisions/177).
import { Layout } from '../../views/layout';
import { TableWrap } from '../../views/table';
import type { StaffProps } from '../feedback/filters.view';
import { capacityField, MAX_CAPACITY } from './staff.service';
import { ErrorSummary, FieldMessage, fieldAria, fieldId } from '../../views/form';
import { Csrf } from '../../staff/form.view';
import { ListFilter, Pagination } from '../../staff/list.view';
import { CAPACITY_PATH, SubNav, type UnitListLinks } from './staff.view';

const unitLabel = (u: CapacityUnit) => `${u.nome} (${u.cidade}/${u.uf})${u.ativo ? '' : ', inativa'}`;

type CapacityUnit = {
  id: number;
  nome: string;
  cidade: string;
  uf: string;
  ativo: number;
  vagas_experimentais: number;
};

/**
 * The capacity of one page of units as one form: it saves the units shown (carrying the
 * list's `q` and `pagina` to come back to), each field keyed `vagas[<unit id>]`.
 */
export function CapacityPage(props: {
  staff: StaffProps;
  list: UnitListLinks;
  units: CapacityUnit[];
  errors: Record<string, string>;
  values: Record<string, string>;
  saved?: number | null;
}) {
  const { staff, list, units, errors, values, saved } = props;
  const labels = Object.fromEntries(units.map((u) => [capacityField(u.id), unitLabel(u)]));
  return (
    <Layout title="Vagas de aula experimental" staff={staff}>
      <h1>Vagas de aula experimental</h1>
      <SubNav current="vagas" />
      <p>
        Quantas pessoas em aula experimental cada aula (ou horário de treino livre) recebe. Vale para os próximos
        agendamentos.
      </p>
      <ListFilter list={list} label="Filtrar por nome, bairro ou cidade da unidade" noun={['unidade', 'unidades']} />
      {saved != null ? (
        <p class="alert alert-ok" role="status">
          {saved === 0
            ? 'Nenhuma vaga mudou.'
            : saved === 1
              ? 'Vagas atualizadas em 1 unidade.'
              : `Vagas atualizadas em ${saved} unidades.`}
        </p>
      ) : null}
      <ErrorSummary errors={errors} labels={labels} />
      {units.length ? (
        <form method="post" action={CAPACITY_PATH} class="card">
          <Csrf token={staff?.csrfToken ?? ''} />
          {list.q ? <input type="hidden" name="q" value={list.q} /> : null}
          {list.page > 1 ? <input type="hidden" name="pagina" value={String(list.page)} /> : null}
          <TableWrap label="Vagas por unidade">
            <table>
              <thead>
                <tr>
                  <th scope="col">Unidade</th>
                  <th scope="col">Vagas por aula (1 a {MAX_CAPACITY})</th>
                </tr>
              </thead>
              <tbody>
                {units.map((u) => {
                  const name = capacityField(u.id);
                  const id = fieldId(name);
                  return (
                    <tr key={u.id}>
                      <th scope="row">
                        <label for={id}>{unitLabel(u)}</label>
                      </th>
                      <td>
                        <input
                          id={id}
                          name={name}
                          type="number"
                          min={1}
                          max={MAX_CAPACITY}
                          inputMode="numeric"
                          required
                          value={values[name] ?? String(u.vagas_experimentais)}
                          {...fieldAria(id, errors[name])}
                        />
                        <FieldMessage id={id} message={errors[name]} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableWrap>
          <p>
            <button type="submit">Salvar as vagas desta página</button>
            {list.pages > 1 ? (
              <span class="hint"> Cada página é salva à parte: salve antes de ir para outra.</span>
            ) : null}
          </p>
        </form>
      ) : (
        <p class="muted">Nenhuma unidade encontrada.</p>
      )}
      <Pagination list={list} />
    </Layout>
  );
}
