import type { Extension, Hocuspocus } from '@hocuspocus/server';
import type { Logger } from '@quire/service-kit';
import type { NatsConnection } from 'nats';
import { KIND, subjectOf, type ReplicaSeal } from './relay.ts';

/** Each replica's count of a page's editors, on `quire.collab-presence.<space>.<change request>.<page>` (not under the relay's `quire.collab.>`). */
export const PRESENCE_SUBJECT = 'quire.collab-presence';
/** A replica says its counts again this often, and a count not said again for three times that (a replica gone) is forgotten. */
const PRESENCE_EVERY_MS = 5000;
const FORGOTTEN_AFTER_MS = 3 * PRESENCE_EVERY_MS;

/**
 * The editors of each page on the other replicas, for the bound on editors per page: every replica
 * hears every page's counts (a replica that has not loaded a page yet must know them when its first
 * member asks to join), and says its own when a member joins or leaves a page and every
 * `PRESENCE_EVERY_MS` while it has any. Signed as the relay's messages are. A burst of joins on
 * several replicas at once may pass the bound by the joins in flight elsewhere.
 */
export function natsPresence(nc: NatsConnection, seal: ReplicaSeal, log: Logger) {
  // Page → replica → its editors there and when it said so.
  const counts = new Map<string, Map<string, { editors: number; at: number }>>();
  const prefix = `${PRESENCE_SUBJECT}.`;

  const subscription = nc.subscribe(`${prefix}>`, {
    callback: (err, msg) => {
      if (err) return log.warn({ err }, 'presence not heard');
      const documentName = msg.subject.slice(prefix.length).replaceAll('.', '/');
      const message = seal.open(documentName, msg.data);
      if (message?.kind !== KIND.presence || message.payload.byteLength !== 2) return;
      const editors = message.payload.readUInt16BE(0);
      const replicas = counts.get(documentName) ?? counts.set(documentName, new Map()).get(documentName)!;
      if (editors) replicas.set(message.replica.toString('hex'), { editors, at: Date.now() });
      else replicas.delete(message.replica.toString('hex'));
      if (!replicas.size) counts.delete(documentName);
    },
  });

  const announce = (documentName: string, editors: number) => {
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(Math.min(editors, 0xffff));
    try {
      nc.publish(subjectOf(PRESENCE_SUBJECT, documentName), seal.seal(documentName, KIND.presence, payload));
    } catch (err) {
      log.warn({ err, documentName }, 'presence not said');
    }
  };

  let timer: NodeJS.Timeout | undefined;
  const extension: Extension = {
    extensionName: 'quire-nats-presence',
    async onConfigure({ instance }: { instance: Hocuspocus }) {
      timer = setInterval(() => {
        for (const document of instance.documents.values()) if (document.getConnectionsCount()) announce(document.name, document.getConnectionsCount());
        // What replicas gone without a word said.
        for (const [documentName, replicas] of counts) {
          for (const [replica, { at }] of replicas) if (Date.now() - at >= FORGOTTEN_AFTER_MS) replicas.delete(replica);
          if (!replicas.size) counts.delete(documentName);
        }
      }, PRESENCE_EVERY_MS).unref();
    },
    async connected({ documentName, instance }) {
      announce(documentName, instance.documents.get(documentName)?.getConnectionsCount() ?? 0);
    },
    async onDisconnect({ documentName, clientsCount }) {
      announce(documentName, clientsCount);
    },
    async afterUnloadDocument({ documentName }) {
      announce(documentName, 0);
    },
    async onDestroy() {
      clearInterval(timer);
      subscription.unsubscribe();
    },
  };

  return {
    extension,
    /** The page's editors on the other replicas, as last said within `FORGOTTEN_AFTER_MS`. */
    elsewhere(documentName: string) {
      let editors = 0;
      for (const { editors: n, at } of counts.get(documentName)?.values() ?? []) if (Date.now() - at < FORGOTTEN_AFTER_MS) editors += n;
      return editors;
    },
    /** Resolves once the server knows this replica listens. */
    ready: () => nc.flush(),
  };
}
