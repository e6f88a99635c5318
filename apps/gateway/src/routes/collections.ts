import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ListOf, ListQuery, NoContent, OrgParams, pageRequest } from '../schemas/common.ts';
import { Collection, CollectionParams, CreateCollectionBody, MoveBody, Space, TransferBody, UpdateCollectionBody } from '../schemas/content.ts';
import { defaultLevelFromApi, moveRequest, presentCollection, presentSpace } from '../presenters/content.ts';
import type { RouteDeps } from './context.ts';
import { grantRoute } from './grants.ts';
import { done, operations, pagedLists, pageOf } from './operation.ts';

const op = operations('collections');

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, urls }) => {
  const list = pagedLists(app, op);
  const { content } = services;
  app.get(
    '/orgs/:organizationId/collections',
    op({
      operationId: 'listCollectionsInOrganizationById',
      summary: 'List the collections of an organization the caller sees',
      params: OrgParams,
      querystring: Type.Object({ ...ListQuery, nested: Type.Boolean({ default: true, description: 'false: only the collections at the root' }) }),
      response: { 200: ListOf(Collection) },
    }),
    async (req) => {
      const { page, limit, nested } = req.query;
      const res = await content.listCollections({ organizationId: req.params.organizationId, page: pageRequest({ page, limit }), nested }, req.caller);
      return pageOf(res, (c) => presentCollection(c, urls));
    },
  );

  app.post(
    '/orgs/:organizationId/collections',
    op({
      operationId: 'createCollection',
      summary: 'Create a collection at the root or in another one',
      params: OrgParams,
      body: CreateCollectionBody,
      response: { 201: Collection },
    }),
    async (req, reply) => {
      const c = await content.createCollection({ organizationId: req.params.organizationId, title: req.body.title ?? '', parentId: req.body.parent }, req.caller);
      return reply.code(201).send(presentCollection(c, urls));
    },
  );

  app.get(
    '/collections/:collectionId',
    op({ operationId: 'getCollectionById', summary: 'Get a collection', params: CollectionParams, response: { 200: Collection } }),
    async (req) => presentCollection(await content.getCollection({ collectionId: req.params.collectionId }, req.caller), urls),
  );

  app.patch(
    '/collections/:collectionId',
    op({ operationId: 'updateCollectionById', summary: 'Update a collection (its admins)', params: CollectionParams, body: UpdateCollectionBody, response: { 200: Collection } }),
    async (req) => {
      const { title, description, defaultLevel } = req.body;
      const c = await content.updateCollection(
        { collectionId: req.params.collectionId, title, description, defaultLevel: defaultLevel === undefined ? undefined : defaultLevelFromApi(defaultLevel) },
        req.caller,
      );
      return presentCollection(c, urls);
    },
  );

  app.delete(
    '/collections/:collectionId',
    op({
      operationId: 'deleteCollectionById',
      summary: 'Delete a collection (its admins); its spaces and sub-collections move up to its parent',
      params: CollectionParams,
      response: { 205: NoContent },
    }),
    async (req, reply) => done(reply, 205, content.deleteCollection({ collectionId: req.params.collectionId }, req.caller)),
  );

  list(
    '/collections/:collectionId/spaces',
    { operationId: 'listSpacesInCollectionById', summary: 'List the spaces directly in a collection, in their order', params: CollectionParams, item: Space },
    ({ collectionId }, page, caller) => content.listSpacesInCollection({ collectionId, page }, caller),
    (s) => presentSpace(s, urls),
  );

  app.post(
    '/collections/:collectionId/move',
    op({
      operationId: 'moveCollection',
      summary: 'Move a collection to another parent or the root, or among its siblings',
      params: CollectionParams,
      body: MoveBody,
      response: { 200: Collection },
    }),
    async (req) => presentCollection(await content.moveCollection({ collectionId: req.params.collectionId, ...moveRequest(req.body) }, req.caller), urls),
  );

  app.post(
    '/collections/:collectionId/transfer',
    op({
      operationId: 'transferCollection',
      summary: 'Transfer a collection, with its spaces and sub-collections, to another organization (admins of both)',
      params: CollectionParams,
      body: TransferBody,
      response: { 200: Collection },
    }),
    async (req) => presentCollection(await content.transferCollection({ collectionId: req.params.collectionId, organizationId: req.body.organization }, req.caller), urls),
  );

  grantRoute(app, op, { path: '/collections/:collectionId', kind: 'collection', operationId: 'inviteToCollection', params: CollectionParams }, ({ collectionId }, grants, caller) =>
    content.grantCollectionPermissions({ collectionId, ...grants }, caller),
  );
};

export default routes;
