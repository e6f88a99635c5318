import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CHANGE_REQUEST } from '@quire/proto/limits';
import type { Caller } from '@quire/service-kit';
import { InvalidArgumentError, NotFoundError } from '@quire/service-kit';
import { linkPresenters, linksOf } from '../presenters/space-links.ts';
import { ImportContentBody, ImportContentResult } from '../schemas/space-import.ts';
import { ContentLocation, LinkList, LinksQuery } from '../schemas/space-links.ts';
import { SemanticChanges, SemanticChangesQuery } from '../schemas/space-content.ts';
import { presentSemanticChanges } from '../presenters/space-content.ts';
import { changesToProto, presentChangeRequest } from '../presenters/change-requests.ts';
import {
  ChangeRequest,
  ChangeRequestParams,
  CreateChangeRequestBody,
  ListChangeRequestsQuery,
  MergeResult,
  PdfDownloadQuery,
  PdfQuery,
  UpdateChangeRequestBody,
  UpdateContentBody,
} from '../schemas/change-requests.ts';
import { downloadResponses, errorResponses, Id, ListOf, ListQuery, pageRequest } from '../schemas/common.ts';
import { SpaceParams } from '../schemas/content.ts';
import type { RouteDeps } from './context.ts';
import { operations, pageOf } from './operation.ts';
import { contentReadRoutes } from './space-content.ts';

const op = operations('change-requests');
const contentOp = operations('change-request-content');
const CR = '/spaces/:spaceId/change-requests/:changeRequestId';
/** Where the PDF download link points: public, the signature is the permission. */
const pdfPath = (spaceId: string, changeRequestId: string) => `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/pdf/download`;

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const {
    services: { review, spaceContent },
    urls,
    links,
  } = deps;
  const ref = (p: { spaceId: string; changeRequestId: string }) => ({ spaceId: p.spaceId, changeRequest: p.changeRequestId });

  app.get(
    '/spaces/:spaceId/change-requests',
    op({
      operationId: 'listChangeRequestsForSpace',
      summary: 'List the change requests of a space, newest first (open ones unless `status` says otherwise)',
      params: SpaceParams,
      querystring: ListChangeRequestsQuery,
      response: { 200: ListOf(ChangeRequest) },
    }),
    async (req) => {
      const { status, contributor } = req.query;
      const res = await review.listChangeRequests(
        { spaceId: req.params.spaceId, status: status ?? '', contributor: contributor ?? '', page: pageRequest(req.query), mergedRevisions: [] },
        req.caller,
      );
      return pageOf(res, (c) => presentChangeRequest(c, urls));
    },
  );

  app.post(
    '/spaces/:spaceId/change-requests',
    op({
      operationId: 'createChangeRequest',
      summary: "Open a change request on the space's current content (editors)",
      params: SpaceParams,
      body: Type.Optional(CreateChangeRequestBody),
      response: { 201: ChangeRequest },
    }),
    async (req, reply) => {
      const cr = await review.createChangeRequest({ spaceId: req.params.spaceId, subject: req.body?.subject ?? '', agentTaskId: req.body?.agentTaskId ?? '' }, req.caller);
      return reply.code(201).send(presentChangeRequest(cr, urls));
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    op({ operationId: 'getChangeRequestById', summary: 'Get a change request by id or number', params: ChangeRequestParams, response: { 200: ChangeRequest } }),
    async (req) => presentChangeRequest(await review.getChangeRequest(ref(req.params), req.caller), urls),
  );

  app.patch(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    op({
      operationId: 'updateChangeRequestById',
      summary: 'Change the subject or the status (draft, open, archived; merged only by merging)',
      params: ChangeRequestParams,
      body: UpdateChangeRequestBody,
      response: { 200: ChangeRequest },
    }),
    async (req) => presentChangeRequest(await review.updateChangeRequest({ ...ref(req.params), subject: req.body.subject, status: req.body.status }, req.caller), urls),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content',
    op({
      operationId: 'updateChangeRequestContent',
      summary: `Apply an ordered batch of at most ${CHANGE_REQUEST.changes.max} content changes as one new revision of the change request; one bad change rejects the batch`,
      params: ChangeRequestParams,
      body: UpdateContentBody,
      response: { 200: ChangeRequest },
    }),
    async (req) =>
      presentChangeRequest(
        await review.updateChangeRequestContent({ ...ref(req.params), changes: changesToProto(req.body.changes as Parameters<typeof changesToProto>[0]) }, req.caller),
        urls,
      ),
  );

  for (const [path, operationId, summary, rpc] of [
    ['merge', 'mergeChangeRequest', "Merge the change request into the space's content (3-way); 409 on conflicts or when another merge won", review.mergeChangeRequest],
    ['update', 'updateChangeRequest', "Bring the space's newer content into the change request (3-way); 409 on conflicts", review.updateChangeRequestFromSpace],
  ] as const) {
    app.post(
      `/spaces/:spaceId/change-requests/:changeRequestId/${path}`,
      op({ operationId, summary, params: ChangeRequestParams, response: { 200: MergeResult, 412: errorResponses[409] } }),
      async (req) => {
        const { revision, result } = await rpc(ref(req.params), req.caller);
        return { revision, result: result as 'merge' | 'update' };
      },
    );
  }

  /** The space and revision of the change request the caller names (404 when it cannot see it). */
  // Only where its content is: presenting the whole change request (authors, comments) is not needed to read it.
  const resolve = async (params: Record<string, string>, caller: Caller) => {
    const cr = await review.getChangeRequestRevision({ spaceId: params.spaceId!, changeRequest: params.changeRequestId! }, caller);
    return { spaceId: cr.spaceId, revisionId: cr.revision };
  };

  app.get(
    `${CR}/changes`,
    contentOp({
      operationId: 'getChangeRequestChanges',
      summary: 'What the change request changes against the space content it started from (or last brought in)',
      params: ChangeRequestParams,
      querystring: SemanticChangesQuery,
      response: { 200: SemanticChanges },
    }),
    async (req) => {
      const cr = await review.getChangeRequestRevision({ spaceId: req.params.spaceId, changeRequest: req.params.changeRequestId }, req.caller);
      const changes = await spaceContent.getSemanticChanges({ spaceId: cr.spaceId, revisionId: cr.revision, baseRevisionId: cr.baseRevision, limit: req.query.limit }, req.caller);
      return presentSemanticChanges(changes, { urls, links });
    },
  );

  // The change request's content: the space content reads, on the change request's revision.
  contentReadRoutes(app as unknown as FastifyInstance, deps, {
    prefix: `${CR}/content`,
    params: ChangeRequestParams,
    resolve,
    operations: {
      revision: 'getRevisionOfChangeRequestById',
      pages: 'listPagesInChangeRequest',
      files: 'listFilesInChangeRequestById',
      file: 'getFileInChangeRequestById',
      page: 'getPageInChangeRequestById',
      path: 'getPageInChangeRequestByPath',
      reusableContent: 'getReusableContentInChangeRequestById',
    },
  });

  app.post(
    `${CR}/content/import`,
    contentOp({
      operationId: 'importContentInChangeRequest',
      summary: "Import a website, a file or an export (as the space's import does) on top of the change request's content (editors); the space is left alone",
      params: ChangeRequestParams,
      body: ImportContentBody,
      response: { 201: ImportContentResult },
    }),
    async (req, reply) => {
      const res = await review.importChangeRequestContent({ ...ref(req.params), url: req.body.url, source: req.body.source }, req.caller);
      return reply.code(201).send({ revision: res.revisionId, importedResources: res.importedResources, totalResources: res.totalResources });
    },
  );

  app.get(
    `${CR}/links`,
    contentOp({
      operationId: 'listChangeRequestLinks',
      summary: "The links of the change request's content, with their status",
      params: ChangeRequestParams,
      querystring: LinksQuery,
      response: { 200: LinkList },
    }),
    async (req) => linksOf(deps, req.caller, { ...(await resolve(req.params, req.caller)), pageId: '' }, req.query),
  );

  app.get(
    `${CR}/content/page/:pageId/links`,
    contentOp({
      operationId: 'listPageLinksInChangeRequest',
      summary: "The links of one page of the change request's content, with their status",
      params: Type.Object({ ...ChangeRequestParams.properties, pageId: Id('Page id') }),
      querystring: LinksQuery,
      response: { 200: LinkList },
    }),
    async (req) => linksOf(deps, req.caller, { ...(await resolve(req.params, req.caller)), pageId: req.params.pageId }, req.query),
  );

  app.get(
    `${CR}/content/files/:fileId/backlinks`,
    contentOp({
      operationId: 'listChangeRequestFileBacklinks',
      summary: "The pages of the change request's content that link to or embed the file",
      params: Type.Object({ ...ChangeRequestParams.properties, fileId: Id('File id') }),
      querystring: Type.Object(ListQuery),
      response: { 200: ListOf(ContentLocation) },
    }),
    async (req) => {
      const at = await resolve(req.params, req.caller);
      const res = await spaceContent.listFileBacklinks({ ...at, fileId: req.params.fileId, page: pageRequest(req.query) }, req.caller);
      const { location } = await linkPresenters(deps, req.caller, at.spaceId, at.revisionId);
      return pageOf(res, location);
    },
  );

  app.get(
    `${CR}/pdf`,
    op({
      operationId: 'getChangeRequestPDF',
      summary: "A signed, time-limited link to the change request's pages as a PDF (or one page with `only` and `page`)",
      params: ChangeRequestParams,
      querystring: PdfQuery,
      response: { 200: Type.Object({ url: Type.String() }) },
    }),
    async (req) => {
      const { only, page } = req.query;
      if (only && !page) throw new InvalidArgumentError('query.page: required with only=true');
      const cr = await review.getChangeRequest(ref(req.params), req.caller);
      // The link renders as the caller who asked for it (it carries the user id, signed): a
      // holder gets what that user may read, and nothing once it expires.
      const params = { page: only ? page! : '', user: req.caller.userId ?? '' };
      return { url: links.sign(pdfPath(cr.spaceId, cr.id), params, 15 * 60) };
    },
  );

  app.get(
    `${CR}/pdf/download`,
    {
      config: { public: true },
      schema: {
        hide: true,
        params: ChangeRequestParams,
        querystring: PdfDownloadQuery,
        response: downloadResponses,
      },
    },
    async (req, reply) => {
      const { spaceId, changeRequestId } = req.params;
      const { page, user, exp, sig } = req.query;
      if (!links.verify(pdfPath(spaceId, changeRequestId), { page, user }, exp, sig)) throw new NotFoundError('PDF not found, or its link has expired');
      const res = await review.renderChangeRequestPdf({ spaceId, changeRequest: changeRequestId, pageId: page }, { userId: user, requestId: req.id });
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `inline; filename="${res.filename}"`)
        .header('cache-control', 'private, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(Buffer.from(res.pdf));
    },
  );
};

export default routes;
