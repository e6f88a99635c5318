import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ListOf, ListQuery, NoContent, OrgParams, pageRequest } from '../schemas/common.ts';
import { roleFromApi } from '@quire/policy';
import {
  CreateSpaceBody,
  MoveBody,
  Space,
  SpaceParams,
  SpaceUserParams,
  TransferBody,
  UpdateSpaceBody,
  UpdateUserPermissionBody,
  UserContentPermission,
} from '../schemas/content.ts';
import { defaultLevelFromApi, moveRequest, presentSpace, presentUserPermission } from '../presenters/content.ts';
import type { RouteDeps } from './context.ts';
import { grantRoute } from './grants.ts';
import { done, operations, pagedLists, pageOf } from './operation.ts';
import type { Space as SpaceMsg } from '@quire/proto/content';

const op = operations('spaces');

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, urls }) => {
  const list = pagedLists(app, op);
  const { content, orgs } = services;
  const show = (s: SpaceMsg) => presentSpace(s, urls);

  list(
    '/orgs/:organizationId/spaces',
    { operationId: 'listSpacesInOrganizationById', summary: 'List the spaces of an organization the caller sees, in collections or not', params: OrgParams, item: Space },
    ({ organizationId }, page, caller) => content.listSpacesInOrganization({ organizationId, page }, caller),
    show,
  );

  app.post(
    '/orgs/:organizationId/spaces',
    op({
      operationId: 'createSpace',
      summary: 'Create a space at the root or in a collection, on a new empty revision',
      params: OrgParams,
      body: CreateSpaceBody,
      response: { 201: Space },
    }),
    async (req, reply) => {
      const b = req.body;
      const s = await content.createSpace(
        { organizationId: req.params.organizationId, title: b.title ?? '', emoji: b.emoji ?? '', parentId: b.parent, editMode: b.editMode ?? '', visibility: b.visibility ?? '' },
        req.caller,
      );
      return reply.code(201).send(show(s));
    },
  );

  app.get('/spaces/:spaceId', op({ operationId: 'getSpaceById', summary: 'Get a space', params: SpaceParams, response: { 200: Space } }), async (req) =>
    show(await content.getSpace({ spaceId: req.params.spaceId }, req.caller)),
  );

  app.patch(
    '/spaces/:spaceId',
    op({
      operationId: 'updateSpaceById',
      summary: 'Update a space: title and emoji (editors), editMode, defaultLevel and visibility (admins)',
      params: SpaceParams,
      body: UpdateSpaceBody,
      response: { 200: Space },
    }),
    async (req) => {
      const { title, emoji, editMode, defaultLevel, visibility } = req.body;
      const updated = await content.updateSpace(
        {
          spaceId: req.params.spaceId,
          title,
          emoji: emoji === null ? '' : emoji,
          editMode,
          defaultLevel: defaultLevel === undefined ? undefined : defaultLevelFromApi(defaultLevel),
          visibility,
        },
        req.caller,
      );
      return show(updated);
    },
  );

  app.delete(
    '/spaces/:spaceId',
    op({ operationId: 'deleteSpaceById', summary: 'Delete a space (its admins): restorable for 7 days, then purged', params: SpaceParams, response: { 205: NoContent } }),
    async (req, reply) => done(reply, 205, content.deleteSpace({ spaceId: req.params.spaceId }, req.caller)),
  );

  app.post(
    '/spaces/:spaceId/duplicate',
    op({ operationId: 'duplicateSpace', summary: 'Duplicate a space beside the original, sharing its content', params: SpaceParams, response: { 201: Space } }),
    async (req, reply) => reply.code(201).send(show(await content.duplicateSpace({ spaceId: req.params.spaceId }, req.caller))),
  );

  app.post(
    '/spaces/:spaceId/restore',
    op({ operationId: 'restoreSpace', summary: 'Restore a space deleted in the last 7 days (its admins)', params: SpaceParams, response: { 200: Space } }),
    async (req) => show(await content.restoreSpace({ spaceId: req.params.spaceId }, req.caller)),
  );

  app.post(
    '/spaces/:spaceId/move',
    op({
      operationId: 'moveSpace',
      summary: 'Move a space to a collection or the root, or among its siblings (its admins)',
      params: SpaceParams,
      body: MoveBody,
      response: { 200: Space },
    }),
    async (req) => show(await content.moveSpace({ spaceId: req.params.spaceId, ...moveRequest(req.body) }, req.caller)),
  );

  app.post(
    '/spaces/:spaceId/transfer',
    op({
      operationId: 'transferSpace',
      summary: 'Transfer a space to the root of another organization (admins of both)',
      params: SpaceParams,
      body: TransferBody,
      response: { 200: Space },
    }),
    async (req) => show(await content.transferSpace({ spaceId: req.params.spaceId, organizationId: req.body.organization }, req.caller)),
  );

  grantRoute(app, op, { path: '/spaces/:spaceId', kind: 'space', operationId: 'inviteToSpace', params: SpaceParams }, ({ spaceId }, grants, caller) =>
    content.grantSpacePermissions({ spaceId, ...grants }, caller),
  );

  app.get(
    '/spaces/:spaceId/permissions/users',
    op({
      operationId: 'listUserPermissionsInSpace',
      summary: 'List the users granted a role on the space itself (its viewers)',
      params: SpaceParams,
      querystring: Type.Object(ListQuery),
      response: { 200: ListOf(UserContentPermission) },
    }),
    async (req) => {
      const res = await content.listSpaceUserPermissions({ spaceId: req.params.spaceId, page: pageRequest(req.query) }, req.caller);
      // One call for the page's users; one whose account is gone (a grant may outlive it) shows only its id.
      const { users } = res.items.length ? await orgs.batchGetUsers({ userIds: res.items.map((p) => p.userId), organizationId: '' }, req.caller) : { users: [] };
      const byId = new Map(users.map((u) => [u.id, u]));
      return pageOf(res, (p) => presentUserPermission(p, byId.get(p.userId), urls));
    },
  );

  app.patch(
    '/spaces/:spaceId/permissions/users/:userId',
    op({
      operationId: 'updateUserPermissionInSpace',
      summary: "Change a user's role on a space (its admins); null removes it",
      params: SpaceUserParams,
      body: UpdateUserPermissionBody,
      response: { 204: NoContent },
    }),
    async (req, reply) => done(reply, 204, content.updateSpaceUserPermission({ ...req.params, role: roleFromApi(req.body.role) }, req.caller)),
  );

  app.delete(
    '/spaces/:spaceId/permissions/users/:userId',
    op({
      operationId: 'removeUserFromSpace',
      summary: "Remove a user's grant on a space (its admins): 205 when removed, 204 when it had none",
      params: SpaceUserParams,
      response: { 204: NoContent, 205: NoContent },
    }),
    async (req, reply) => {
      const { removed } = await content.removeSpaceUserPermission(req.params, req.caller);
      return reply.code(removed ? 205 : 204).send();
    },
  );
};

export default routes;
