import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TObject } from '@sinclair/typebox';
import { PAGE } from '@quire/proto/limits';
import type { Revision as RevisionMessage } from '@quire/proto/space-content';
import type { Caller } from '@quire/service-kit';
import { presentChangeRequest } from '../presenters/change-requests.ts';
import { presentDocument, presentFile, presentPage, presentReusableContent, presentRevision, presentSemanticChanges, type ContentLinks } from '../presenters/space-content.ts';
import { chars, ListOf, list, ListQuery, pageRequest } from '../schemas/common.ts';
import { SpaceParams } from '../schemas/content.ts';
import {
  ContentQuery,
  DocumentJson,
  DocumentParams,
  File,
  FileIdParam,
  Page,
  PageIdParam,
  PageQuery,
  ReusableContent,
  ReusableContentIdParam,
  Revision,
  SemanticChanges,
  SemanticChangesQuery,
  SpaceRevisionParams,
} from '../schemas/space-content.ts';
import type { RouteDeps } from './context.ts';
import { operations, pageOf } from './operation.ts';

const op = operations('space-content');

/**
 * Where the content read routes read: a path prefix, its parameters, and how to find the revision
 * (`''` for the space's active one). The active content, a revision by id and (in the review
 * service) a change request's content differ only in this.
 */
export interface ContentScope {
  prefix: string;
  params: TObject;
  /** The space and revision to read, from the request's path parameters (as validated by `params`). */
  resolve(params: Record<string, string>, caller: Caller): Promise<{ spaceId: string; revisionId: string }>;
  /** Operation ids: GitBook's for each read of this scope. */
  operations: { revision: string; pages: string; files: string; file: string; page: string; path: string; reusableContent: string };
}

// The routes are built for any scope, so their schemas are not known statically: the values are
// what the schemas above validated.
interface Req {
  params: unknown;
  query: unknown;
  caller: Caller;
}
const paramsOf = (req: Req) => req.params as Record<string, string>;
const queryOf = <Q>(req: Req) => req.query as Q;
type Query = { metadata: boolean };
type ListQueryT = Query & { page?: string; limit?: number };
type PageQueryT = Query & { format?: string };

/** The revision, page and file reads of one scope. */
export function contentReadRoutes(app: FastifyInstance, { services: { spaceContent, review }, urls, links }: RouteDeps, scope: ContentScope) {
  const l: ContentLinks = { urls, links };
  const { prefix, params, operations: ids } = scope;
  const QuerySchema = Type.Object(ContentQuery);
  const FileParams = Type.Composite([params, Type.Object(FileIdParam)]);
  const PageParams = Type.Composite([params, Type.Object(PageIdParam)]);
  const ReusableContentParams = Type.Composite([params, Type.Object(ReusableContentIdParam)]);
  const PathParams = Type.Composite([params, Type.Object({ '*': Type.String({ ...chars(PAGE.path), description: 'The page path: slugs joined by "/"' }) })]);

  app.get(
    prefix,
    op({ operationId: ids.revision, summary: 'Get the revision: pages, files, variables', params, querystring: QuerySchema, response: { 200: Revision } }),
    async (req) => {
      const at = await scope.resolve(paramsOf(req), req.caller);
      const r = await spaceContent.getRevision({ ...at, metadata: queryOf<Query>(req).metadata, withMarkdown: false, withDocuments: false }, req.caller);
      return (await presentRevisions(review, [r], at.spaceId, l, req.caller))[0]!;
    },
  );

  app.get(
    `${prefix}/pages`,
    op({ operationId: ids.pages, summary: 'List the pages, nested', params, querystring: QuerySchema, response: { 200: Type.Object({ pages: Type.Array(Page) }) } }),
    async (req) => {
      const at = await scope.resolve(paramsOf(req), req.caller);
      const r = await spaceContent.getRevision({ ...at, metadata: queryOf<Query>(req).metadata, withMarkdown: false, withDocuments: false }, req.caller);
      return { pages: r.pages.map((p) => presentPage(p, at.spaceId, l)) };
    },
  );

  app.get(
    `${prefix}/files`,
    op({ operationId: ids.files, summary: 'List the files', params, querystring: Type.Object({ ...ListQuery, ...ContentQuery }), response: { 200: ListOf(File) } }),
    async (req) => {
      const at = await scope.resolve(paramsOf(req), req.caller);
      const q = queryOf<ListQueryT>(req);
      const res = await spaceContent.listFiles({ ...at, page: pageRequest(q), metadata: q.metadata }, req.caller);
      return pageOf(res, (f) => presentFile(f, l));
    },
  );

  app.get(`${prefix}/files/:fileId`, op({ operationId: ids.file, summary: 'Get a file', params: FileParams, querystring: QuerySchema, response: { 200: File } }), async (req) => {
    const at = await scope.resolve(paramsOf(req), req.caller);
    return presentFile(await spaceContent.getFile({ ...at, fileId: paramsOf(req).fileId!, metadata: queryOf<Query>(req).metadata }, req.caller), l);
  });

  app.get(
    `${prefix}/reusable-contents/:reusableContentId`,
    op({
      operationId: ids.reusableContent,
      summary: 'Get a reusable content (what pages include) by id: its title, document and Git file',
      params: ReusableContentParams,
      querystring: QuerySchema,
      response: { 200: ReusableContent },
    }),
    async (req) => {
      const at = await scope.resolve(paramsOf(req), req.caller);
      return presentReusableContent(
        await spaceContent.getReusableContent({ ...at, reusableContentId: paramsOf(req).reusableContentId!, metadata: queryOf<Query>(req).metadata }, req.caller),
      );
    },
  );

  const getPage = async (at: { spaceId: string; revisionId: string }, page: { pageId: string } | { path: string }, q: { format?: string; metadata: boolean }, caller: Caller) =>
    presentPage(await spaceContent.getPage({ ...at, ...page, format: q.format ?? '', metadata: q.metadata }, caller), at.spaceId, l);

  app.get(
    `${prefix}/page/:pageId`,
    op({ operationId: ids.page, summary: 'Get a page by id, with its body when asked', params: PageParams, querystring: PageQuery, response: { 200: Page } }),
    async (req) => getPage(await scope.resolve(paramsOf(req), req.caller), { pageId: paramsOf(req).pageId! }, queryOf<PageQueryT>(req), req.caller),
  );

  app.get(
    `${prefix}/path/*`,
    op({ operationId: ids.path, summary: 'Get a page by its path, with its body when asked', params: PathParams, querystring: PageQuery, response: { 200: Page } }),
    async (req) => getPage(await scope.resolve(paramsOf(req), req.caller), { path: paramsOf(req)['*']! }, queryOf<PageQueryT>(req), req.caller),
  );
}

/** Revisions as GitBook answers them: a merge's carries the change request it merged (one call for all). */
async function presentRevisions(review: RouteDeps['services']['review'], revisions: RevisionMessage[], spaceId: string, l: ContentLinks, caller: Caller) {
  const merges = revisions.filter((r) => r.type === 'merge').map((r) => r.id);
  const merged = merges.length
    ? (await review.listChangeRequests({ spaceId, status: 'all', contributor: '', mergedRevisions: merges, page: { page: '', limit: merges.length } }, caller)).items
    : [];
  const byRevision = new Map(merged.map((cr) => [cr.revisionMerged, cr]));
  return revisions.map((r) => {
    const cr = byRevision.get(r.id);
    return { ...presentRevision(r, spaceId, l), ...(cr ? { mergedFrom: presentChangeRequest(cr, l.urls) } : {}) };
  });
}

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  contentReadRoutes(app as unknown as FastifyInstance, deps, {
    prefix: '/spaces/:spaceId/content',
    params: SpaceParams,
    resolve: async ({ spaceId }) => ({ spaceId: spaceId!, revisionId: '' }),
    operations: {
      revision: 'getCurrentRevision',
      pages: 'listPages',
      files: 'listFiles',
      file: 'getFileById',
      page: 'getPageById',
      path: 'getPageByPath',
      reusableContent: 'getReusableContentById',
    },
  });
  contentReadRoutes(app as unknown as FastifyInstance, deps, {
    prefix: '/spaces/:spaceId/revisions/:revisionId',
    params: SpaceRevisionParams,
    resolve: async ({ spaceId, revisionId }) => ({ spaceId: spaceId!, revisionId: revisionId! }),
    operations: {
      revision: 'getRevisionById',
      pages: 'listPagesInRevisionById',
      files: 'listFilesInRevisionById',
      file: 'getFileInRevisionById',
      page: 'getPageInRevisionById',
      path: 'getPageInRevisionByPath',
      reusableContent: 'getReusableContentInRevisionById',
    },
  });

  app.get(
    '/spaces/:spaceId/revisions',
    op({
      operationId: 'listRevisions',
      summary:
        "The space's history, newest first: its current revision, then each one's first parent made in the space (a merge's is the space's revision before it). Whole revisions: a page may hold fewer than `limit` when they are large",
      params: SpaceParams,
      querystring: Type.Object({ ...ListQuery, ...ContentQuery }),
      response: { 200: ListOf(Revision) },
    }),
    async (req) => {
      const { spaceId } = req.params;
      const res = await deps.services.spaceContent.listRevisions({ spaceId, page: pageRequest(req.query), metadata: req.query.metadata }, req.caller);
      return list(await presentRevisions(deps.services.review, res.items, spaceId, { urls: deps.urls, links: deps.links }, req.caller), res.page?.next);
    },
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/changes',
    op({
      operationId: 'getRevisionSemanticChanges',
      summary: 'What the revision changed against its parent: pages created, edited, deleted and moved, files, variables',
      params: SpaceRevisionParams,
      querystring: SemanticChangesQuery,
      response: { 200: SemanticChanges },
    }),
    async (req) => {
      const { spaceId, revisionId } = req.params;
      const changes = await deps.services.spaceContent.getSemanticChanges({ spaceId, revisionId, baseRevisionId: '', limit: req.query.limit }, req.caller);
      return presentSemanticChanges(changes, { urls: deps.urls, links: deps.links });
    },
  );

  app.get(
    '/spaces/:spaceId/documents/:documentId',
    op({
      operationId: 'getDocumentById',
      summary: "Get a document of the space: GitBook's JSONDocument, with its markdown",
      params: DocumentParams,
      response: { 200: DocumentJson },
    }),
    async (req) => presentDocument(await deps.services.spaceContent.getDocument({ spaceId: req.params.spaceId, documentId: req.params.documentId }, req.caller)),
  );
};

export default routes;
