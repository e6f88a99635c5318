import { ServiceIdentity, type Logger, type ServiceKeys } from '@quire/service-kit';
import { connectNats } from '@quire/service-kit/nats';
import { watchAccess } from './access.ts';
import type { CollabConfig } from './config.ts';
import { connectPages } from './pages.ts';
import { natsRelay } from './relay.ts';
import { collabServer } from './server.ts';

/**
 * The collaboration server and what it runs with: the services it calls as `collab`, and NATS for
 * the events that change who edits and for the relay between replicas (signed with collab's key).
 */
export async function buildCollab(config: CollabConfig, keys: ServiceKeys, log: Logger) {
  const pages = connectPages(config, new ServiceIdentity(keys), log);
  const nc = await connectNats(config.NATS_URL, 'collab', log);
  const server = collabServer(config, pages, log, [natsRelay(nc, keys, log)]);
  const access = watchAccess(nc, config.EVENTS_SUBJECT_PREFIX, server.hocuspocus, pages, log);
  return {
    server,
    pages,
    async close() {
      // Stores every loaded page before closing.
      await server.destroy();
      access.close();
      await nc.drain();
      pages.close();
    },
  };
}
