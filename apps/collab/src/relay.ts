import { randomBytes, sign, verify } from 'node:crypto';
import type { Document, Extension } from '@hocuspocus/server';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { applyUpdate, encodeStateAsUpdate, encodeStateVector } from 'yjs';
import { COLLAB } from '@quire/proto/limits';
import type { Logger, ServiceKeys } from '@quire/service-kit';
import type { NatsConnection, Subscription } from 'nats';

/** The core NATS subjects of the pages edited together: one per page, `quire.collab.<space>.<change request>.<page>`. */
export const RELAY_SUBJECT = 'quire.collab';
/** A page's name with its `/` as `.` (ids hold neither), as NATS subjects and KV keys take it. */
export const dotted = (documentName: string) => documentName.replaceAll('/', '.');
/** A page's subject under `prefix`. */
export const subjectOf = (prefix: string, documentName: string) => `${prefix}.${dotted(documentName)}`;

/**
 * A Y update, an awareness update, the state vector of a replica that just loaded the page (asking
 * for what it lacks), a replica's count of the page's editors (presence.ts), or one part of a
 * message past NATS's payload limit.
 */
export const KIND = { update: 0, awareness: 1, sync: 2, presence: 3, part: 4 } as const;
const REPLICA_BYTES = 16;
const HEADER_BYTES = 1 + REPLICA_BYTES;
const SIGNATURE_BYTES = 64;
/** A part's own header: the message's id, the part's index and their count (16 bits each), the message's kind. */
const PART_HEADER_BYTES = 8 + 2 + 2 + 1;
/** Room left below the server's max_payload (NATS's protocol line is not counted, but keep a margin). */
const PAYLOAD_MARGIN = 1024;
/** Applied from another replica: Hocuspocus sends it to this replica's editors but does not store it (the replica it came from does). */
const RELAYED = { source: 'local', skipStoreHooks: true, context: {} } as const;

/**
 * Messages between collab's replicas, signed with collab's service key (Ed25519) over the page's
 * name, the kind, the sender and the payload, and verified with its public key: only our replicas
 * are heard, and a message cannot be moved to another page's subject.
 */
export function replicaSeal(keys: Pick<ServiceKeys, 'privateKey' | 'trust'>) {
  const replica = randomBytes(REPLICA_BYTES);
  const publicKey = keys.trust.get('collab');
  if (!publicKey) throw new Error("the relay needs collab's public key in the trusted keys");
  return {
    replica,
    seal(documentName: string, kind: number, payload: Uint8Array) {
      const header = Buffer.concat([Buffer.of(kind), replica]);
      return Buffer.concat([header, payload, sign(null, Buffer.concat([Buffer.from(documentName), header, payload]), keys.privateKey)]);
    },
    /** The message's kind, sender and payload, if collab signed it for this page and another replica sent it (or this one, `ownToo`); otherwise nothing. */
    open(documentName: string, data: Uint8Array, { ownToo = false } = {}) {
      if (data.byteLength < HEADER_BYTES + SIGNATURE_BYTES) return undefined;
      const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const header = buffer.subarray(0, HEADER_BYTES);
      const payload = buffer.subarray(HEADER_BYTES, buffer.byteLength - SIGNATURE_BYTES);
      const signature = buffer.subarray(buffer.byteLength - SIGNATURE_BYTES);
      if (!verify(null, Buffer.concat([Buffer.from(documentName), header, payload]), publicKey, signature)) return undefined;
      const from = header.subarray(1);
      return from.equals(replica) && !ownToo ? undefined : { kind: header[0]!, replica: from, payload };
    },
  };
}
export type ReplicaSeal = ReturnType<typeof replicaSeal>;

/**
 * Several collaboration replicas serving one page: every Y update and awareness change made on a
 * replica is published on the page's subject (core NATS: at most once, no stream to keep: an
 * editor's provider resyncs on reconnect, and a replica loading a page asks the others for what
 * its stored state lacks). A message past the server's payload limit (a large paste, a page's
 * whole state) goes in parts, which one replica publishes in order and core NATS delivers in order.
 */
export function natsRelay(nc: NatsConnection, seal: ReplicaSeal, log: Logger): Extension {
  const subscriptions = new Map<string, Subscription>();
  const partBytes = (nc.info?.max_payload ?? 1024 * 1024) - HEADER_BYTES - SIGNATURE_BYTES - PART_HEADER_BYTES - PAYLOAD_MARGIN;

  const publish = (documentName: string, kind: number, payload: Uint8Array) => {
    const subject = subjectOf(RELAY_SUBJECT, documentName);
    try {
      if (payload.byteLength <= partBytes) return nc.publish(subject, seal.seal(documentName, kind, payload));
      const id = randomBytes(8);
      const count = Math.ceil(payload.byteLength / partBytes);
      for (let i = 0; i < count; i++) {
        const head = Buffer.alloc(PART_HEADER_BYTES);
        id.copy(head);
        head.writeUInt16BE(i, 8);
        head.writeUInt16BE(count, 10);
        head.writeUInt8(kind, 12);
        nc.publish(subject, seal.seal(documentName, KIND.part, Buffer.concat([head, payload.subarray(i * partBytes, (i + 1) * partBytes)])));
      }
    } catch (err) {
      // A closed connection: the others get it from the stored state or their editors' resync.
      log.warn({ err, documentName, bytes: payload.byteLength }, 'not relayed');
    }
  };

  const handle = (document: Document, kind: number, payload: Uint8Array) => {
    if (kind === KIND.update) applyUpdate(document, payload, RELAYED);
    else if (kind === KIND.awareness) applyAwarenessUpdate(document.awareness, payload, RELAYED);
    else if (kind === KIND.sync) publish(document.name, KIND.update, encodeStateAsUpdate(document, payload));
  };

  // Per page, the message each other replica is sending in parts: none larger than a page's state may be.
  const partial = new Map<string, Map<string, { id: string; parts: Buffer[]; count: number; kind: number }>>();
  const reassemble = (document: Document, sender: Buffer, part: Buffer) => {
    const senders = partial.get(document.name) ?? partial.set(document.name, new Map()).get(document.name)!;
    const [id, index, count, kind] = [part.subarray(0, 8).toString('hex'), part.readUInt16BE(8), part.readUInt16BE(10), part.readUInt8(12)];
    const from = sender.toString('hex');
    let message = senders.get(from);
    if (index === 0 && (count - 1) * partBytes < COLLAB.stateBytes.max) senders.set(from, (message = { id, parts: [], count, kind }));
    // A part missed (core NATS drops on a slow consumer): the message is dropped whole, as an update would be.
    if (!message || message.id !== id || message.parts.length !== index) return void senders.delete(from);
    message.parts.push(part.subarray(PART_HEADER_BYTES));
    if (message.parts.length < message.count) return;
    senders.delete(from);
    handle(document, message.kind, Buffer.concat(message.parts));
  };

  const receive = (document: Document, data: Uint8Array) => {
    const message = seal.open(document.name, data);
    if (message?.kind === KIND.part) reassemble(document, message.replica, message.payload);
    else if (message) handle(document, message.kind, message.payload);
  };

  return {
    extensionName: 'quire-nats-relay',
    async afterLoadDocument({ document, documentName }) {
      const subscription = nc.subscribe(subjectOf(RELAY_SUBJECT, documentName), {
        callback: (err, msg) => (err ? log.warn({ err, documentName }, 'relay stopped') : receive(document, msg.data)),
      });
      subscriptions.set(documentName, subscription);
      // The subscription is known to the server before the others answer.
      await nc.flush();
      publish(documentName, KIND.sync, encodeStateVector(document));
    },
    async afterUnloadDocument({ documentName }) {
      subscriptions.get(documentName)?.unsubscribe();
      subscriptions.delete(documentName);
      partial.delete(documentName);
    },
    async onChange({ documentName, update, transactionOrigin }) {
      if (transactionOrigin !== RELAYED) publish(documentName, KIND.update, update);
    },
    async onAwarenessUpdate({ documentName, document, added, updated, removed, transactionOrigin }) {
      if (transactionOrigin !== RELAYED) publish(documentName, KIND.awareness, encodeAwarenessUpdate(document.awareness, [...added, ...updated, ...removed]));
    },
  };
}
