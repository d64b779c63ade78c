// Plans, areas and modalities screens (admin only). Guards, CSRF and the list/edit/activate
// routes: src/staff/.
import type { FastifyInstance } from 'fastify';
import {
  PlanFormPage,
  PlansListPage,
  TAXONOMY_LABELS,
  TaxonomyFormPage,
  TaxonomyListPage,
} from './plans-taxonomy.view';
import type { ContentServices } from '../services';
import { recordScreens } from '../../../staff/screens';
import { PERIODS } from '../../../staff/validation';

export const PLANS_PATH = '/admin/conteudo/planos';
const centsToInput = (c: number) => (c / 100).toFixed(2).replace('.', ',');
const periodLabel = (v: string) => PERIODS.find((p) => p.value === v)?.label ?? v;

export function catalogContentRoutes(app: FastifyInstance, s: ContentServices) {
  const units = () => s.units.list();

  recordScreens(app, {
    base: PLANS_PATH,
    newSegment: 'novo',
    missing: 'Plano não encontrado',
    service: s.plans,
    list: {
      text: (p) => `${p.nome} ${periodLabel(p.periodicidade)}`,
      page: ({ items, ...p }) => <PlansListPage {...p} plans={items} />,
    },
    values: (plan) => ({
      nome: plan.nome,
      descricao: plan.descricao ?? '',
      preco: centsToInput(plan.preco_centavos),
      periodicidade: plan.periodicidade,
      ordem: String(plan.ordem),
      unidades: plan.unidadeIds.map(String),
    }),
    blank: { periodicidade: 'mensal' },
    form: async ({ item, ...form }) => <PlanFormPage {...form} plan={item} units={await units()} />,
  });

  for (const kind of ['area', 'modalidade'] as const) {
    const service = kind === 'area' ? s.areas : s.modalities;
    recordScreens(app, {
      base: `/admin/conteudo/${TAXONOMY_LABELS[kind].path}`,
      missing: kind === 'area' ? 'Área não encontrada' : 'Modalidade não encontrada',
      service: service,
      list: {
        text: (i) => i.nome,
        page: (p) => <TaxonomyListPage {...p} kind={kind} />,
      },
      values: (item) => ({
        nome: item.nome,
        descricao: ('descricao' in item ? item.descricao : null) ?? '',
        unidades: item.unidadeIds.map(String),
      }),
      form: async (form) => <TaxonomyFormPage {...form} kind={kind} units={await units()} />,
    });
  }
}
