// Builds the content repositories and services once, for index.ts, the catalog commands and
// the tests. Kept apart from index.ts so route files can name the services' type without
// importing the plugin that imports them.
import type { Db } from '../../db/index';
import { transactional } from '../../db/transactional';
import { createPlanPricesService } from './plan-prices/plan-prices.service';
import { createPlansService } from './plans-taxonomy/plans.service';
import { createTaxonomyService } from './plans-taxonomy/taxonomy.service';
import { createAuditRepository } from '../audit/audit.repository';
import { createContentRepository } from './shared/content.repository';
import { createSurveyQuestionsService } from './survey-questions/survey-questions.service';
import { createTimetableService } from './timetable/timetable.service';
import { createTransferRepository } from './transfer/transfer.repository';
import { createTransferService } from './transfer/transfer.service';
import { createUnitsService } from './units/units.service';

/** The content repositories on `db`; `.transaction()` binds all of them to one transaction. */
export function contentRepositories(db: Db) {
  return transactional(db, (conn) => ({
    content: createContentRepository(conn),
    audit: createAuditRepository(conn),
    transfer: createTransferRepository(conn),
  }));
}

export function createContentServices(wiring: { db: Db; onCatalogChange?: () => void }) {
  const deps = { repos: contentRepositories(wiring.db), onCatalogChange: wiring.onCatalogChange };
  return {
    units: createUnitsService(deps),
    plans: createPlansService(deps),
    planPrices: createPlanPricesService(deps),
    areas: createTaxonomyService(deps, 'area'),
    modalities: createTaxonomyService(deps, 'modalidade'),
    timetable: createTimetableService(deps),
    survey: createSurveyQuestionsService(deps),
    transfer: createTransferService(deps),
  };
}
export type ContentServices = ReturnType<typeof createContentServices>;
