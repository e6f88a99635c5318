import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TRANSLATION } from '@quire/proto/limits';
import { chars, items, Id, NoContent, OrgParams } from '../schemas/common.ts';
import { TranslationSettings } from '../schemas/orgs.ts';
import { presentTranslation } from '../presenters/orgs.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pagedLists } from './operation.ts';

const op = operations('translations');
const SettingsParams = Type.Object({ organizationId: Id('Organization id'), translationSettingsId: Id('Translation settings id') });
const Body = Type.Object({
  title: Type.String(chars(TRANSLATION.title)),
  languages: Type.Optional(Type.Array(Type.String({ ...chars(TRANSLATION.language), description: 'BCP 47 language tag' }), items(TRANSLATION.languages))),
});

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs }, urls }) => {
  const list = pagedLists(app, op);
  list(
    '/orgs/:organizationId/translations',
    { operationId: 'listTranslations', summary: 'List translation settings', params: OrgParams, item: TranslationSettings },
    ({ organizationId }, page, caller) => orgs.listTranslations({ organizationId, page }, caller),
    (t, { organizationId }) => presentTranslation(t, organizationId, urls),
  );

  app.post(
    '/orgs/:organizationId/translations',
    op({ operationId: 'createTranslation', summary: 'Create translation settings (admins only)', params: OrgParams, body: Body, response: { 201: TranslationSettings } }),
    async (req, reply) => {
      const { organizationId } = req.params;
      const t = await orgs.createTranslation({ organizationId, title: req.body.title, languages: req.body.languages ?? [] }, req.caller);
      return reply.code(201).send(presentTranslation(t, organizationId, urls));
    },
  );

  app.get(
    '/orgs/:organizationId/translations/:translationSettingsId',
    op({ operationId: 'getTranslation', summary: 'Get translation settings', params: SettingsParams, response: { 200: TranslationSettings } }),
    async (req) => presentTranslation(await orgs.getTranslation(req.params, req.caller), req.params.organizationId, urls),
  );

  app.put(
    '/orgs/:organizationId/translations/:translationSettingsId',
    op({
      operationId: 'updateTranslation',
      summary: 'Replace translation settings (admins only); languages are kept when not given',
      params: SettingsParams,
      body: Body,
      response: { 200: TranslationSettings },
    }),
    async (req) => {
      const { languages } = req.body;
      const t = await orgs.updateTranslation({ ...req.params, title: req.body.title, setLanguages: languages !== undefined, languages: languages ?? [] }, req.caller);
      return presentTranslation(t, req.params.organizationId, urls);
    },
  );

  app.delete(
    '/orgs/:organizationId/translations/:translationSettingsId',
    op({ operationId: 'deleteTranslation', summary: 'Delete translation settings (admins only)', params: SettingsParams, response: { 205: NoContent } }),
    async (req, reply) => done(reply, 205, orgs.deleteTranslation(req.params, req.caller)),
  );
};

export default routes;
