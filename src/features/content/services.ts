// Builds the content services once, for index.ts and the tests. Kept apart from index.ts so
// route files can name the services' type without importing the plugin that imports them.
import { createPlansService } from './plans-taxonomy/plans.service';
import { createTaxonomyService } from './plans-taxonomy/taxonomy.service';
import { createAuditRepository } from './shared/audit.repository';
import type { ContentDeps } from './shared/change';
import { createSurveyQuestionsService } from './survey-questions/survey-questions.service';
import { createTimetableService } from './timetable/timetable.service';
import { createUnitsService } from './units/units.service';

export function createContentServices(deps: ContentDeps) {
  return {
    units: createUnitsService(deps),
    plans: createPlansService(deps),
    areas: createTaxonomyService(deps, 'area'),
    modalities: createTaxonomyService(deps, 'modalidade'),
    timetable: createTimetableService(deps),
    survey: createSurveyQuestionsService(deps),
    audit: createAuditRepository(deps.db),
  };
}
export type ContentServices = ReturnType<typeof createContentServices>;
