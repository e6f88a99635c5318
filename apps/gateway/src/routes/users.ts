import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, Id } from '../schemas/common.ts';
import { User } from '../schemas/orgs.ts';
import { presentUser } from '../presenters/orgs.ts';
import type { RouteDeps } from './context.ts';

const tags = ['users'];

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs }, urls }) => {
  app.get(
    '/user',
    { schema: { operationId: 'getAuthenticatedUser', tags, summary: 'The user the token belongs to', response: { 200: User, ...errorResponses } } },
    async (req) => presentUser(await orgs.getCurrentUser({}, req.caller), urls),
  );

  app.get(
    '/users/:userId',
    {
      schema: {
        operationId: 'getUserById',
        tags,
        summary: 'A user who shares an organization with the caller',
        params: Type.Object({ userId: Id('User id') }),
        response: { 200: User, ...errorResponses },
      },
    },
    async (req) => presentUser(await orgs.getUser({ userId: req.params.userId }, req.caller), urls),
  );
};

export default routes;
