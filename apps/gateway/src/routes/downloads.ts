import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '@quire/service-kit';
import { downloadResponses } from '../schemas/common.ts';
import { BlobParams, BlobQuery } from '../schemas/space-content.ts';
import type { RouteDeps } from './context.ts';

// Attachment names go in a quoted header parameter: keep them printable ASCII, the rest in filename*.
const asciiName = (name: string) => name.replace(/[^\x20-\x7e]|["\\]/g, '_');

/**
 * File bytes on signed links (`File.downloadURL`): no token, the link is the permission. A bad or
 * expired signature looks like a missing file.
 */
const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { spaceContent }, links }) => {
  app.get(
    '/files/:blob',
    {
      schema: {
        hide: true,
        params: BlobParams,
        querystring: BlobQuery,
        response: downloadResponses,
      },
    },
    async (req, reply) => {
      const { blob } = req.params;
      const { name, exp, sig } = req.query;
      if (!links.verify(`/files/${blob}`, { name }, exp, sig)) throw new NotFoundError('File not found, or its link has expired');
      const { data } = await spaceContent.readBlob({ blob }, { requestId: req.id });
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${asciiName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`)
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(data);
    },
  );
};

export default routes;
