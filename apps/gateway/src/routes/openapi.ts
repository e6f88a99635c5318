import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoContent, OrgParams } from '../schemas/common.ts';
import { CreateSpecBody, OpenApiSpec, OpenApiSpecContent, OpenApiSpecVersion, PutSpecBody, SpecParams, UpdateSpecBody, VersionParams } from '../schemas/openapi.ts';
import { presentSpec, presentVersion } from '../presenters/openapi.ts';
import type { RouteDeps } from './context.ts';
import { operations, pagedLists } from './operation.ts';

const op = operations('openapi');
// A spec's text travels in the JSON body: room for the content service's 8 MiB document, escaped.
const SPEC_BODY_LIMIT = 12 * 1024 * 1024;

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { content }, urls }) => {
  const list = pagedLists(app, op);
  const ref = (p: { organizationId: string; specSlug: string }) => ({ spec: { organizationId: p.organizationId, slug: p.specSlug } });
  const source = (s: { url?: string; text?: string }) => (s.url !== undefined ? { url: s.url } : { text: s.text });
  const at = (p: { organizationId: string; specSlug: string }) => ({ organizationId: p.organizationId, slug: p.specSlug });

  list(
    '/orgs/:organizationId/openapi',
    { operationId: 'listOpenAPISpecs', summary: "List the organization's OpenAPI specs", params: OrgParams, item: OpenApiSpec },
    ({ organizationId }, page, caller) => content.listOpenApiSpecs({ organizationId, page }, caller),
    (s) => presentSpec(s, urls),
  );

  app.post(
    '/orgs/:organizationId/openapi',
    {
      bodyLimit: SPEC_BODY_LIMIT,
      ...op({
        operationId: 'createOpenAPISpec',
        summary: 'Create an OpenAPI spec from a URL or a text (JSON or YAML; OpenAPI 3.x or Swagger 2.0); 400 names what is invalid and where',
        params: OrgParams,
        body: CreateSpecBody,
        response: { 201: OpenApiSpec },
      }),
    },
    async (req, reply) => {
      const { spec } = await content.saveOpenApiSpec(
        { spec: { organizationId: req.params.organizationId, slug: req.body.slug }, source: source(req.body.source), createOnly: true },
        req.caller,
      );
      return reply.code(201).send(presentSpec(spec!, urls));
    },
  );

  app.get(
    '/orgs/:organizationId/openapi/:specSlug',
    op({ operationId: 'getOpenAPISpecBySlug', summary: 'Get an OpenAPI spec', params: SpecParams, response: { 200: OpenApiSpec } }),
    async (req) => presentSpec(await content.getOpenApiSpec(ref(req.params), req.caller), urls),
  );

  app.put(
    '/orgs/:organizationId/openapi/:specSlug',
    {
      bodyLimit: SPEC_BODY_LIMIT,
      ...op({
        operationId: 'createOrUpdateOpenAPISpecBySlug',
        summary: 'Create or update an OpenAPI spec: a new version when its content changed',
        params: SpecParams,
        body: PutSpecBody,
        response: { 200: OpenApiSpec, 201: OpenApiSpec },
      }),
    },
    async (req, reply) => {
      const { spec, created } = await content.saveOpenApiSpec({ ...ref(req.params), source: source(req.body.source), createOnly: false }, req.caller);
      return reply.code(created ? 201 : 200).send(presentSpec(spec!, urls));
    },
  );

  app.patch(
    '/orgs/:organizationId/openapi/:specSlug',
    op({
      operationId: 'updateOpenAPISpecBySlug',
      summary: "Change an OpenAPI spec's visibility",
      params: SpecParams,
      body: UpdateSpecBody,
      response: { 200: OpenApiSpec },
    }),
    async (req) => presentSpec(await content.updateOpenApiSpecVisibility({ ...ref(req.params), visibility: req.body.visibility }, req.caller), urls),
  );

  app.delete(
    '/orgs/:organizationId/openapi/:specSlug',
    op({
      operationId: 'deleteOpenAPISpecBySlug',
      summary: 'Delete an OpenAPI spec and its versions: 205 when deleted, 204 when there was none',
      params: SpecParams,
      response: { 204: NoContent, 205: NoContent },
    }),
    async (req, reply) => reply.code((await content.deleteOpenApiSpec(ref(req.params), req.caller)).deleted ? 205 : 204).send(),
  );

  list(
    '/orgs/:organizationId/openapi/:specSlug/versions',
    { operationId: 'listOpenAPISpecVersions', summary: "An OpenAPI spec's versions, newest first", params: SpecParams, item: OpenApiSpecVersion },
    (params, page, caller) => content.listOpenApiSpecVersions({ ...ref(params), page }, caller),
    (v, params) => presentVersion(v, at(params), urls),
  );

  // The latest version and a version by id: the same two reads.
  for (const v of [
    { path: 'latest', params: SpecParams, get: 'getLatestOpenAPISpecVersion', content: 'getLatestOpenAPISpecVersionContent', what: 'the latest version' },
    { path: ':versionId', params: VersionParams, get: 'getOpenAPISpecVersionById', content: 'getOpenAPISpecVersionContentById', what: 'a version' },
  ]) {
    const read = (params: unknown) => {
      const p = params as { organizationId: string; specSlug: string; versionId?: string };
      return { ...ref(p), versionId: p.versionId ?? '' };
    };
    app.get(
      `/orgs/:organizationId/openapi/:specSlug/versions/${v.path}`,
      op({ operationId: v.get, summary: `Get ${v.what} of an OpenAPI spec`, params: v.params, response: { 200: OpenApiSpecVersion } }),
      async (req) => presentVersion(await content.getOpenApiSpecVersion(read(req.params), req.caller), at(req.params), urls),
    );
    app.get(
      `/orgs/:organizationId/openapi/:specSlug/versions/${v.path}/content`,
      op({
        operationId: v.content,
        summary: `The content of ${v.what} of an OpenAPI spec, as JSON`,
        params: v.params,
        response: { 200: OpenApiSpecContent },
      }),
      async (req) => {
        const res = await content.getOpenApiSpecVersionContent(read(req.params), req.caller);
        const version = presentVersion(res.version!, at(req.params), urls);
        return { filesystem: { [entryName(res.version!.sourceUrl)]: JSON.parse(res.json) }, url: version.url };
      },
    );
  }
};

/** The entry file's name: the last segment of its source URL, `openapi.json` for an upload. */
const entryName = (sourceUrl: string) => (sourceUrl && decodeURIComponent(new URL(sourceUrl).pathname.split('/').pop() ?? '')) || 'openapi.json';

export default routes;
