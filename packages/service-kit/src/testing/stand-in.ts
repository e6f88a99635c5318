import { OrgsServiceClient, OrgsServiceService } from '@quire/proto/orgs';
import { createClient } from '../client.js';
import { implement, startGrpcServer } from '../grpc.js';
import type { Logger } from '../logger.js';
import { testIdentity } from './index.js';

/**
 * For service-kit's own tests: a server running as the `content` service with `handlers` for RPCs
 * of orgs' service (small messages, any stand-in will do), and a client of it.
 */
export async function startStandIn(handlers: object, log: Logger) {
  const server = await startGrpcServer({
    host: '127.0.0.1',
    port: 0,
    services: [{ definition: OrgsServiceService, implementation: implement(handlers as never, log), name: 'stand-in' }],
    identity: testIdentity('content'),
    log,
  });
  const client = createClient(OrgsServiceClient, `127.0.0.1:${server.port}`);
  return {
    server,
    client,
    async stop() {
      client.close();
      await server.shutdown(1000);
    },
  };
}
