import type { Connection, Extension, Hocuspocus } from '@hocuspocus/server';
import { COLLAB } from '@quire/proto/limits';
import type { Logger } from '@quire/service-kit';
import { StorageType, type NatsConnection } from 'nats';
import { dotted, KIND, type ReplicaSeal } from './relay.ts';
import type { Context } from './server.ts';

/** The JetStream KV bucket of each page's editors per replica: key `<space>.<change request>.<page>` (`dotted`). */
export const PRESENCE_BUCKET = 'quire-collab-editors';
/** A replica says its counts again this often, and a count not said again for three times that (a replica gone) is not counted. */
const PRESENCE_EVERY_MS = 5000;
const FORGOTTEN_AFTER_MS = 3 * PRESENCE_EVERY_MS;
/** A member admitted but not yet connected (the page loading) counts this long at most, should the connection fail. */
const JOINING_MS = 30_000;
/** Compare-and-set tries of one claim before it gives up (each lost try means another replica wrote in between). */
const CLAIM_TRIES = 100;

/** Replica (hex) → its editors of the page and when it said so. */
type Counts = Record<string, { editors: number; at: number }>;

/**
 * The editors of each page on every replica, for the bound on editors per page. One KV value per
 * page holds every replica's count, sealed as the relay's messages are, and changes only by
 * compare-and-set: a replica admits a member by writing its count with them after reading the
 * others' in the same revision, so joins on several replicas at once never pass the bound (one
 * that lost the race reads again). A replica says its count again when members leave and every
 * `PRESENCE_EVERY_MS` while it has any; the count of a replica gone quiet stops counting. A
 * replica's count holds its connections and the members it admitted whose page is still loading.
 */
export async function natsPresence(nc: NatsConnection, seal: ReplicaSeal, log: Logger) {
  const kv = await nc.jetstream().views.kv(PRESENCE_BUCKET, { history: 1, ttl: 4 * FORGOTTEN_AFTER_MS, storage: StorageType.Memory, timeout: 2_000 });
  const me = seal.replica.toString('hex');
  let hocuspocus: Hocuspocus | undefined;
  // Page → the members admitted here and not yet connected (by request id).
  const joining = new Map<string, Set<string>>();
  const here = (documentName: string) => {
    const document = hocuspocus?.documents.get(documentName);
    let editors = document?.getConnectionsCount() ?? 0;
    const ids = joining.get(documentName);
    if (!ids) return editors;
    // A member joining counts until their connection does (then it is forgotten here).
    const connected = new Set((document?.getConnections() as Connection<Context>[] | undefined)?.map((c) => c.context.caller.requestId));
    for (const id of ids)
      if (connected.has(id)) joined(documentName, id);
      else editors++;
    return editors;
  };
  const joined = (documentName: string, id: string) => {
    const ids = joining.get(documentName);
    ids?.delete(id);
    if (!ids?.size) joining.delete(documentName);
  };

  const read = async (documentName: string): Promise<{ counts: Counts; revision: number }> => {
    const entry = await kv.get(dotted(documentName));
    if (!entry) return { counts: {}, revision: 0 };
    const opened = entry.operation === 'PUT' ? seal.open(documentName, entry.value, { ownToo: true }) : undefined;
    // Not collab's (or deleted): counts nothing, and the next write replaces it.
    if (opened?.kind !== KIND.presence) return { counts: {}, revision: entry.revision };
    try {
      return { counts: JSON.parse(opened.payload.toString()) as Counts, revision: entry.revision };
    } catch {
      return { counts: {}, revision: entry.revision };
    }
  };
  /** The other replicas' counts that still count (said lately, not zero). */
  const othersOf = (counts: Counts) => Object.entries(counts).filter(([replica, c]) => replica !== me && Date.now() - c.at < FORGOTTEN_AFTER_MS && c.editors > 0);
  const others = (counts: Counts) => othersOf(counts).reduce((sum, [, c]) => sum + c.editors, 0);

  /** Writes this replica's count, `more` with it, unless `fits` refuses the others' (read in the same revision); false when refused. */
  const write = async (documentName: string, more: number, fits: (elsewhere: number, here: number) => boolean) => {
    for (let i = 0; i < CLAIM_TRIES; i++) {
      const { counts, revision } = await read(documentName);
      const [elsewhere, mine] = [others(counts), here(documentName) + more];
      if (!fits(elsewhere, mine)) return false;
      const next: Counts = Object.fromEntries(othersOf(counts));
      if (mine > 0) next[me] = { editors: mine, at: Date.now() };
      const value = seal.seal(documentName, KIND.presence, Buffer.from(JSON.stringify(next)));
      try {
        await (revision ? kv.update(dotted(documentName), value, revision) : kv.create(dotted(documentName), value));
        return true;
      } catch (err) {
        // Another replica wrote since the read: read again. Anything else is NATS failing.
        if (!/wrong last sequence|key exists/i.test(String((err as Error).message))) throw err;
      }
    }
    throw new Error(`the editors of ${documentName} changed ${CLAIM_TRIES} times while this replica tried to write its count`);
  };

  // One write of a page's count at a time on this replica, so that each writes what the one
  // before admitted (a claim's member counts from the moment its write succeeds).
  const queues = new Map<string, Promise<unknown>>();
  const serially = <T>(documentName: string, work: () => Promise<T>): Promise<T> => {
    const done = (queues.get(documentName) ?? Promise.resolve()).then(work);
    const tail = done.catch(() => undefined);
    queues.set(documentName, tail);
    void tail.then(() => queues.get(documentName) === tail && queues.delete(documentName));
    return done;
  };

  const say = (documentName: string) =>
    serially(documentName, () => write(documentName, 0, () => true)).catch((err: unknown) => log.warn({ err, documentName }, 'editors count not said'));

  let timer: NodeJS.Timeout | undefined;
  const extension: Extension = {
    extensionName: 'quire-nats-presence',
    async onConfigure({ instance }: { instance: Hocuspocus }) {
      hocuspocus = instance;
      timer = setInterval(() => {
        for (const name of new Set([...instance.documents.keys(), ...joining.keys()])) if (here(name)) void say(name);
      }, PRESENCE_EVERY_MS).unref();
    },
    async onDisconnect({ documentName }) {
      await say(documentName);
    },
    async afterUnloadDocument({ documentName }) {
      await say(documentName);
    },
    async onDestroy() {
      clearInterval(timer);
    },
  };

  return {
    extension,
    /**
     * Admits the member of request `id` to the page on this replica if the page's editors on every
     * replica, the newcomer among them, stay within the bound; counted as joining until connected
     * (or for `JOINING_MS`, should the connection fail).
     */
    claim(documentName: string, id: string) {
      return serially(documentName, async () => {
        const admitted = await write(documentName, 1, (elsewhere, mine) => elsewhere + mine <= COLLAB.editors.max);
        if (admitted) {
          (joining.get(documentName) ?? joining.set(documentName, new Set()).get(documentName)!).add(id);
          setTimeout(() => joined(documentName, id), JOINING_MS).unref();
        }
        return admitted;
      });
    },
    /** This replica's editors of the page, those joining among them. */
    here,
    /** The page's editors on the other replicas, as last said within `FORGOTTEN_AFTER_MS`. */
    elsewhere: async (documentName: string) => others((await read(documentName)).counts),
  };
}
export type Presence = Awaited<ReturnType<typeof natsPresence>>;
