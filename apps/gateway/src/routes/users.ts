import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { TokenScope, type ApiToken as ApiTokenMsg } from '@quire/proto/orgs';
import { ApiTokens, CreateApiTokenBody, CreatedApiToken } from '../schemas/auth.ts';
import { Id, ListQuery, NoContent, pageRequest } from '../schemas/common.ts';
import { User } from '../schemas/orgs.ts';
import { presentUser } from '../presenters/orgs.ts';
import { iso } from '../presenters/time.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pageOf } from './operation.ts';

const op = operations('users');

function presentToken(t: ApiTokenMsg | undefined) {
  const token = t ?? { id: '', label: '', scope: TokenScope.TOKEN_SCOPE_WRITE, createdAt: undefined };
  return {
    object: 'api-token' as const,
    id: token.id,
    label: token.label,
    scope: token.scope === TokenScope.TOKEN_SCOPE_READ ? ('read' as const) : ('write' as const),
    createdAt: iso(token.createdAt),
    expiresAt: token.expiresAt ? iso(token.expiresAt) : null,
    lastUsedAt: token.lastUsedAt ? iso(token.lastUsedAt) : null,
  };
}

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs }, urls }) => {
  app.get('/user', op({ operationId: 'getAuthenticatedUser', summary: 'The user the token belongs to', response: { 200: User } }), async (req) =>
    presentUser(await orgs.getCurrentUser({}, req.caller), urls),
  );

  app.get(
    '/users/:userId',
    op({ operationId: 'getUserById', summary: 'A user who shares an organization with the caller', params: Type.Object({ userId: Id('User id') }), response: { 200: User } }),
    async (req) => presentUser(await orgs.getUser({ userId: req.params.userId }, req.caller), urls),
  );

  app.get(
    '/user/tokens',
    op({
      operationId: 'listUserApiTokens',
      summary: "The caller's API tokens, newest first (never their secrets)",
      querystring: Type.Object(ListQuery),
      response: { 200: ApiTokens },
    }),
    async (req) => {
      const res = await orgs.listApiTokens({ page: pageRequest(req.query) }, req.caller);
      return pageOf(res, presentToken);
    },
  );

  app.post(
    '/user/tokens',
    op({
      operationId: 'createUserApiToken',
      summary: 'Create an API token; its secret (`token`) is shown in this answer only',
      body: CreateApiTokenBody,
      response: { 201: CreatedApiToken },
    }),
    async (req, reply) => {
      const { label, expiresAt, scope } = req.body;
      const res = await orgs.createApiToken(
        { label, expiresAt: expiresAt ? new Date(expiresAt) : undefined, scope: scope === 'read' ? TokenScope.TOKEN_SCOPE_READ : TokenScope.TOKEN_SCOPE_WRITE },
        req.caller,
      );
      void reply.header('cache-control', 'no-store');
      return reply.code(201).send({ ...presentToken(res.token), token: res.secret });
    },
  );

  app.delete(
    '/user/tokens/:tokenId',
    op({
      operationId: 'revokeUserApiToken',
      summary: 'Revoke an API token: it stops working on every gateway at once',
      params: Type.Object({ tokenId: Id('Token id') }),
      response: { 204: NoContent },
    }),
    async (req, reply) => done(reply, 204, orgs.revokeApiToken({ tokenId: req.params.tokenId }, req.caller)),
  );
};

export default routes;
