import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '@quire/service-kit';
import type { FastifyReply } from 'fastify';
import { ChangeRequestParams } from '../schemas/change-requests.ts';
import { downloadResponses, errorResponses } from '../schemas/common.ts';
import { SpaceParams } from '../schemas/content.ts';
import { ExportDownloadQuery, ExportLink, ExportQuery } from '../schemas/exports.ts';
import type { RouteDeps } from './context.ts';

// Quire's exports (beyond GitBook's API): a space's content, or a change request's, as a Markdown
// ZIP, a static HTML ZIP or a PDF. The link is made for the caller (who must read the content now)
// and downloads as that same user: a holder gets what they may read, and nothing once it expires.
// Content past the bounds of an export is refused when the link is asked for (400 naming the
// bound), before anything is rendered; the download checks again, the content may have grown.

const tags = ['exports'];
/** How long a link lives. */
const LINK_SECONDS = 60 * 60;
const spacePath = (spaceId: string) => `/v1/spaces/${spaceId}/export/download`;
const changeRequestPath = (spaceId: string, changeRequestId: string) => `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/export/download`;

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { review }, links }) => {
  /** Reads the file as the link's user and answers it as an attachment. */
  const download = async (reply: FastifyReply, req: { spaceId: string; changeRequest: string; format: string; user: string; requestId: string }) => {
    const res = await review.exportSpace({ spaceId: req.spaceId, changeRequest: req.changeRequest, format: req.format, checkOnly: false }, { userId: req.user, requestId: req.requestId });
    return reply
      .header('content-type', res.contentType)
      .header('content-disposition', `attachment; filename="${res.filename}"`)
      .header('cache-control', 'private, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(res.data));
  };
  const expired = () => new NotFoundError('Export not found, or its link has expired');

  app.get(
    '/spaces/:spaceId/export',
    {
      schema: {
        operationId: 'exportSpace',
        tags,
        summary: "A signed link (1 hour) to the space's content as a Markdown ZIP, a static HTML ZIP or a PDF; 400 naming the bound when the content is too big to export",
        params: SpaceParams,
        querystring: ExportQuery,
        response: { 200: ExportLink, ...errorResponses },
      },
    },
    async (req) => {
      const { spaceId } = req.params;
      const { format } = req.query;
      await review.exportSpace({ spaceId, changeRequest: '', format, checkOnly: true }, req.caller);
      return { format, url: links.sign(spacePath(spaceId), { format, user: req.caller.userId ?? '' }, LINK_SECONDS) };
    },
  );

  app.get(
    '/spaces/:spaceId/export/download',
    {
      config: { public: true },
      schema: {
        operationId: 'downloadSpaceExport',
        tags,
        summary: 'The file a signed export link names, as an attachment (the signature is the permission)',
        params: SpaceParams,
        querystring: ExportDownloadQuery,
        security: [],
        response: downloadResponses,
      },
    },
    async (req, reply) => {
      const { spaceId } = req.params;
      const { format, user, exp, sig } = req.query;
      if (!links.verify(spacePath(spaceId), { format, user }, exp, sig)) throw expired();
      return download(reply, { spaceId, changeRequest: '', format, user, requestId: req.id });
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/export',
    {
      schema: {
        operationId: 'exportChangeRequest',
        tags,
        summary: "A signed link (1 hour) to the change request's content as a Markdown ZIP, a static HTML ZIP or a PDF; 400 naming the bound when the content is too big to export",
        params: ChangeRequestParams,
        querystring: ExportQuery,
        response: { 200: ExportLink, ...errorResponses },
      },
    },
    async (req) => {
      const cr = await review.getChangeRequest({ spaceId: req.params.spaceId, changeRequest: req.params.changeRequestId }, req.caller);
      const { format } = req.query;
      await review.exportSpace({ spaceId: cr.spaceId, changeRequest: cr.id, format, checkOnly: true }, req.caller);
      return { format, url: links.sign(changeRequestPath(cr.spaceId, cr.id), { format, user: req.caller.userId ?? '' }, LINK_SECONDS) };
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/export/download',
    {
      config: { public: true },
      schema: {
        operationId: 'downloadChangeRequestExport',
        tags,
        summary: 'The file a signed change-request export link names, as an attachment (the signature is the permission)',
        params: ChangeRequestParams,
        querystring: ExportDownloadQuery,
        security: [],
        response: downloadResponses,
      },
    },
    async (req, reply) => {
      const { spaceId, changeRequestId } = req.params;
      const { format, user, exp, sig } = req.query;
      if (!links.verify(changeRequestPath(spaceId, changeRequestId), { format, user }, exp, sig)) throw expired();
      return download(reply, { spaceId, changeRequest: changeRequestId, format, user, requestId: req.id });
    },
  );
};

export default routes;
