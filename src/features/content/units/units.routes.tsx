// Content hub and unit screens (admin only, except the hub, which shows a manager the
// timetables they may edit). Guards, CSRF and the list/edit/activate routes: src/staff/.
import type { FastifyInstance } from 'fastify';
import { formatCnpj, formatPhone as formatBrazilianPhone } from '../../../lib/form/index';
import { scopeUnits } from '../../../staff/access';
import { staffOf } from '../../../staff/scope';
import { recordScreens } from '../../../staff/screens';
import type { FormValues } from '../../../staff/validation';
import type { ContentServices } from '../services';
import { isPlanSearch } from './units.service';
import { ContentHome, UnitFormPage, UnitsListPage } from './units.view';

export const CONTENT_PATH = '/admin/conteudo';
export const UNITS_PATH = '/admin/conteudo/unidades';

type UnitSnapshot = NonNullable<Awaited<ReturnType<ContentServices['units']['get']>>>;

export function unitValues(u: UnitSnapshot): FormValues {
  const v: FormValues = {
    nome: u.nome,
    slug: u.slug,
    cidade: u.cidade,
    uf: u.uf,
    bairro: u.bairro,
    endereco: u.endereco,
    cep: u.cep ?? '',
    telefone: u.telefone ? formatBrazilianPhone(u.telefone) : '',
    whatsapp: u.whatsapp ? formatBrazilianPhone(u.whatsapp) : '',
    email: u.email ?? '',
    latitude: u.latitude === null ? '' : String(u.latitude),
    longitude: u.longitude === null ? '' : String(u.longitude),
    descricao: u.descricao ?? '',
    beneficio_nome: u.beneficio_nome ?? '',
    beneficio_url: u.beneficio_url ?? '',
    razao_social: u.razao_social ?? '',
    cnpj: u.cnpj ? formatCnpj(u.cnpj) : '',
    endereco_juridico: u.endereco_juridico ?? '',
    areas: u.areaIds.map(String),
    modalidades: u.modalityIds.map(String),
    planos: u.planIds.map(String),
  };
  for (const h of u.hours) {
    v[`abre_${h.dia_semana}`] = h.abre;
    v[`fecha_${h.dia_semana}`] = h.fecha;
  }
  return v;
}

/** The content hub (any staff member: a manager sees the timetables of their units). */
export function contentHubRoutes(app: FastifyInstance, s: ContentServices) {
  app.get(CONTENT_PATH, async (request, reply) => {
    const mine = scopeUnits(staffOf(request));
    const units = mine === null ? [] : await s.units.listByIds(mine);
    return reply.page(<ContentHome staff={request.staffPage} units={units} />);
  });
}

/** The unit screens (admins). The unit form's plan search shows the form again as sent. */
export function unitRoutes(app: FastifyInstance, s: ContentServices) {
  recordScreens(app, {
    base: UNITS_PATH,
    missing: 'Unidade não encontrada',
    service: s.units,
    list: {
      text: (u) => `${u.nome} ${u.bairro} ${u.cidade} ${u.uf}`,
      page: ({ items, ...p }) => <UnitsListPage {...p} units={items} />,
    },
    values: unitValues,
    form: async ({ item, body, ...form }) => (
      <UnitFormPage
        {...form}
        unit={item}
        options={await s.units.formOptions(item?.planIds ?? [], body ?? undefined)}
        prices={item ? await s.planPrices.unitPlans(item.id) : null}
      />
    ),
    search: isPlanSearch,
  });
}
