import type { Static, TObject } from '@sinclair/typebox';
import type { Caller } from '@quire/service-kit';
import { grantRequest } from '../presenters/content.ts';
import { NoContent } from '../schemas/common.ts';
import { InviteBody } from '../schemas/content.ts';
import { done, operations, type App } from './operation.ts';

/**
 * POST `<path>/permissions` of a space or a collection: the role given to members and teams of its
 * organization replaces their grants there. TypeBox cannot type requests from a generic `P`, so
 * the params are cast to it.
 */
export function grantRoute<P extends TObject>(
  app: App,
  op: ReturnType<typeof operations>,
  { path, kind, operationId, params }: { path: string; kind: 'space' | 'collection'; operationId: string; params: P },
  grant: (params: Static<P>, grants: ReturnType<typeof grantRequest>, caller: Caller) => Promise<unknown>,
) {
  app.post(
    `${path}/permissions`,
    op({
      operationId,
      summary: `Grant a role on a ${kind} to members and teams of its organization, replacing their grants (its admins); null removes them`,
      params,
      body: InviteBody,
      response: { 204: NoContent },
    }),
    async (req, reply) => done(reply, 204, grant(req.params as Static<P>, grantRequest(req.body), req.caller)),
  );
}
