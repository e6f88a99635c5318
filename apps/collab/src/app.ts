import { ServiceIdentity, type Logger, type ServiceKeys } from '@quire/service-kit';
import { connectNats } from '@quire/service-kit/nats';
import { watchAccess } from './access.ts';
import type { CollabConfig } from './config.ts';
import { connectPages } from './pages.ts';
import { natsPresence } from './presence.ts';
import { natsRelay, replicaSeal } from './relay.ts';
import { collabServer } from './server.ts';

/**
 * The collaboration server and what it runs with: the services it calls as `collab`, and NATS for
 * the events that change who edits and for the relay between replicas and their editors' counts (signed with collab's key).
 */
export async function buildCollab(config: CollabConfig, keys: ServiceKeys, log: Logger) {
  const pages = connectPages(config, new ServiceIdentity(keys), log);
  const nc = await connectNats(config.NATS_URL, 'collab', log);
  const seal = replicaSeal(keys);
  const presence = await natsPresence(nc, seal, log);
  const server = collabServer(config, pages, log, presence, [natsRelay(nc, seal, log)]);
  const access = watchAccess(nc, config.EVENTS_SUBJECT_PREFIX, server.hocuspocus, pages, log);
  return {
    server,
    pages,
    presence,
    async close() {
      // Stores every loaded page before closing.
      await server.destroy();
      access.close();
      await nc.drain();
      pages.close();
    },
  };
}
