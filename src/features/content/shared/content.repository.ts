// The only place the content screens' SQL lives. Takes a Kysely instance or a
// transaction, so a service can run a change and its audit row in one transaction.
// Since the split by thing edited it composes the per-folder repositories, so a service's
// change() callback still gets one object bound to the same transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { createPlanPricesRepository } from '../plan-prices/plan-prices.repository';
import { createPlansRepository } from '../plans-taxonomy/plans.repository';
import { createTaxonomyRepository } from '../plans-taxonomy/taxonomy.repository';
import { createSurveyQuestionsRepository } from '../survey-questions/survey-questions.repository';
import { createTimetableRepository } from '../timetable/timetable.repository';
import { createUnitsRepository } from '../units/units.repository';

export type { UnitFields, HourRow, LegalEntityFields } from '../units/units.repository';
export type { PlanPriceFields, PlanPriceRow } from '../plan-prices/plan-prices.repository';
export type { PlanFields } from '../plans-taxonomy/plans.repository';
export type { ClassFields } from '../timetable/timetable.repository';

export function createContentRepository(db: Kysely<Database>) {
  return {
    ...createUnitsRepository(db),
    ...createPlansRepository(db),
    ...createPlanPricesRepository(db),
    ...createTaxonomyRepository(db),
    ...createTimetableRepository(db),
    ...createSurveyQuestionsRepository(db),
  };
}

export type ContentRepository = ReturnType<typeof createContentRepository>;
