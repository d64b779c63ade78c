// Pieces shared by the staff feedback pages (survey results and the messages inbox).
import type { LayoutProps } from '../../views/layout';

export type StaffProps = LayoutProps['staff'];

/** The "Unidade" filter: only the units this staff member may see. */
export function UnitFilter({ units, selected }: { units: { id: number; nome: string }[]; selected: string }) {
  return (
    <div>
      <label for="f-unidade">Unidade</label>
      <select id="f-unidade" name="unidade_id">
        <option value="">Todas as minhas unidades</option>
        {units.map((u) => (
          <option value={String(u.id)} selected={selected === String(u.id)} key={u.id}>
            {u.nome}
          </option>
        ))}
      </select>
    </div>
  );
}
