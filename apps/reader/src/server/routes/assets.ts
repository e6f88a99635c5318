import type { FastifyInstance } from 'fastify';
import { ASSETS } from '../../presenters/assets.ts';
import { gzip, takesGzip } from '../respond.ts';

/** The routes outside any site: the reader's own scripts and styles (gzipped once), and its health. */
export async function assetRoutes(app: FastifyInstance) {
  for (const asset of Object.values(ASSETS)) {
    const zipped = await gzip(asset.body);
    app.get(asset.path, (req, reply) => {
      reply.header('cache-control', 'public, max-age=31536000, immutable').header('vary', 'accept-encoding').type(asset.type);
      return takesGzip(req) ? reply.header('content-encoding', 'gzip').send(zipped) : reply.send(asset.body);
    });
  }
  app.get('/healthz', async () => ({ status: 'ok' }));
}
