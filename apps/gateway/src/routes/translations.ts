import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TRANSLATION } from '@quire/proto/limits';
import { chars, errorResponses, items, Id, list, ListOf, ListQuery, NoContent, OrgParams, pageRequest } from '../schemas/common.ts';
import { TranslationSettings } from '../schemas/orgs.ts';
import { presentTranslation } from '../presenters/orgs.ts';
import type { RouteDeps } from './context.ts';

const tags = ['translations'];
const SettingsParams = Type.Object({ organizationId: Id('Organization id'), translationSettingsId: Id('Translation settings id') });
const Body = Type.Object({
  title: Type.String(chars(TRANSLATION.title)),
  languages: Type.Optional(Type.Array(Type.String({ ...chars(TRANSLATION.language), description: 'BCP 47 language tag' }), items(TRANSLATION.languages))),
});

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs }, urls }) => {
  app.get(
    '/orgs/:organizationId/translations',
    {
      schema: {
        operationId: 'listTranslations',
        tags,
        summary: 'List translation settings',
        params: OrgParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListOf(TranslationSettings), ...errorResponses },
      },
    },
    async (req) => {
      const { organizationId } = req.params;
      const res = await orgs.listTranslations({ organizationId, page: pageRequest(req.query) }, req.caller);
      return list(
        res.items.map((t) => presentTranslation(t, organizationId, urls)),
        res.page?.next,
      );
    },
  );

  app.post(
    '/orgs/:organizationId/translations',
    {
      schema: {
        operationId: 'createTranslation',
        tags,
        summary: 'Create translation settings (admins only)',
        params: OrgParams,
        body: Body,
        response: { 201: TranslationSettings, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { organizationId } = req.params;
      const t = await orgs.createTranslation({ organizationId, title: req.body.title, languages: req.body.languages ?? [] }, req.caller);
      return reply.code(201).send(presentTranslation(t, organizationId, urls));
    },
  );

  app.get(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      schema: {
        operationId: 'getTranslation',
        tags,
        summary: 'Get translation settings',
        params: SettingsParams,
        response: { 200: TranslationSettings, ...errorResponses },
      },
    },
    async (req) => presentTranslation(await orgs.getTranslation(req.params, req.caller), req.params.organizationId, urls),
  );

  app.put(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      schema: {
        operationId: 'updateTranslation',
        tags,
        summary: 'Replace translation settings (admins only); languages are kept when not given',
        params: SettingsParams,
        body: Body,
        response: { 200: TranslationSettings, ...errorResponses },
      },
    },
    async (req) => {
      const { languages } = req.body;
      const t = await orgs.updateTranslation({ ...req.params, title: req.body.title, setLanguages: languages !== undefined, languages: languages ?? [] }, req.caller);
      return presentTranslation(t, req.params.organizationId, urls);
    },
  );

  app.delete(
    '/orgs/:organizationId/translations/:translationSettingsId',
    {
      schema: {
        operationId: 'deleteTranslation',
        tags,
        summary: 'Delete translation settings (admins only)',
        params: SettingsParams,
        response: { 205: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      await orgs.deleteTranslation(req.params, req.caller);
      return reply.code(205).send();
    },
  );
};

export default routes;
