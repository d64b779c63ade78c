// Builds the feedback repositories and services once, for index.ts. Kept apart from index.ts
// so route files can name the services' type without importing the plugin that imports them.
import type { FastifyInstance } from 'fastify';
import { exportDb } from '../../db/index';
import { transactional } from '../../db/transactional';
import { createFaleAquiRepository } from './messages/fale-aqui.repository';
import { createFaleAquiService } from './messages/fale-aqui.service';
import { createMessagesAdminService } from './messages/inbox.service';
import { createSurveyReportService } from './survey/report.service';
import { createSurveyRepository } from './survey/survey.repository';
import { createSurveyService } from './survey/survey.service';
import { createAttentionService } from './attention.service';
import { createDigestRepository } from './digest/digest.repository';
import { createDigestService } from './digest/digest.service';
import { consentService } from '../privacy/services';
import { enrolmentReads } from '../enrolment/services';

export function createFeedbackServices(app: FastifyInstance) {
  const surveyRepo = transactional(app.db, createSurveyRepository);
  const surveyReads = createSurveyRepository(app.readDb);
  const exports = exportDb(app.db, app.readDb);
  const faleAquiRepo = transactional(app.db, createFaleAquiRepository);
  const storage = app.storage;
  const notificationEmail = app.config.smtp && app.config.notificationEmail ? app.config.notificationEmail : null;
  return {
    survey: createSurveyService(surveyRepo, { publicUrl: app.config.publicUrl }),
    surveyReport: createSurveyReportService(surveyRepo, surveyReads, createSurveyRepository(exports)),
    faleAqui: createFaleAquiService({
      repo: faleAquiRepo,
      storage,
      notificationEmail,
      publicUrl: app.config.publicUrl,
    }),
    messages: createMessagesAdminService(
      faleAquiRepo,
      storage,
      {
        mailConfigured: Boolean(app.config.smtp),
        brandName: app.config.brandName,
        publicUrl: app.config.publicUrl,
      },
      consentService(app.db),
      createFaleAquiRepository(app.readDb),
      createFaleAquiRepository(exports),
    ),
    digest: createDigestService(createDigestRepository(app.db), {
      brandName: app.config.brandName,
      publicUrl: app.config.publicUrl,
      mailConfigured: Boolean(app.config.smtp),
    }),
    // The start page's queue only reads: every list over `app.readDb`.
    attention: createAttentionService(surveyReads, createFaleAquiRepository(app.readDb), enrolmentReads(app.readDb)),
  };
}
export type FeedbackServices = ReturnType<typeof createFeedbackServices>;
