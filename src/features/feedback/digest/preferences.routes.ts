// The staff member's own preferences: the weekly digest on or off.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { privatePage } from '../../../staff/reports';
import type { DigestService } from './digest.service';
import { PREFERENCES_PATH, PreferencesPage } from './preferences.view';
import { staffOf } from '../../../staff/scope';
import { FormBody } from '../../../staff/http';

export async function preferencesRoutes(app: FastifyInstance, digestService: DigestService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    PREFERENCES_PATH,
    {
      schema: { querystring: Type.Object({ salvo: Type.Optional(Type.String({ maxLength: 1 })) }) },
    },
    async (request, reply) => {
      privatePage(reply);
      const staff = request.staffPage;
      const digest = await digestService.preference(staffOf(request).id);
      return reply.page(
        h(PreferencesPage, { staff, csrfToken: staff.csrfToken, digest, saved: request.query.salvo === '1' }),
      );
    },
  );

  r.post(
    PREFERENCES_PATH,
    {
      schema: { body: FormBody },
    },
    async (request, reply) => {
      await digestService.setPreference(
        staffOf(request).id,
        (request.body as Record<string, unknown>).resumo_semanal === 'sim',
      );
      return reply.redirect(`${PREFERENCES_PATH}?salvo=1`, 303);
    },
  );
}
