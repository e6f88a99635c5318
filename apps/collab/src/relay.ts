import { randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import type { Document, Extension } from '@hocuspocus/server';
import { applyAwarenessUpdate, encodeAwarenessUpdate } from 'y-protocols/awareness';
import { applyUpdate, encodeStateAsUpdate, encodeStateVector } from 'yjs';
import type { Logger, ServiceKeys } from '@quire/service-kit';
import type { NatsConnection, Subscription } from 'nats';

/** The core NATS subjects of the pages edited together: one per page, `quire.collab.<space>.<change request>.<page>`. */
export const RELAY_SUBJECT = 'quire.collab';
const subjectOf = (documentName: string) => `${RELAY_SUBJECT}.${documentName.replaceAll('/', '.')}`;

/** A Y update, an awareness update, or the state vector of a replica that just loaded the page (asking for what it lacks). */
const KIND = { update: 0, awareness: 1, sync: 2 } as const;
const REPLICA_BYTES = 16;
const HEADER_BYTES = 1 + REPLICA_BYTES;
const SIGNATURE_BYTES = 64;
/** Applied from another replica: Hocuspocus sends it to this replica's editors but does not store it (the replica it came from does). */
const RELAYED = { source: 'local', skipStoreHooks: true, context: {} } as const;

/**
 * Several collaboration replicas serving one page: every Y update and awareness change made on a
 * replica is published on the page's subject (core NATS: at most once, no stream to keep: an
 * editor's provider resyncs on reconnect, and a replica loading a page asks the others for what
 * its stored state lacks). Messages are signed with collab's service key (Ed25519) and verified
 * with its public key, over the page's name: only our replicas are heard, and a message cannot be
 * moved to another page's subject.
 */
export function natsRelay(nc: NatsConnection, keys: Pick<ServiceKeys, 'privateKey' | 'trust'>, log: Logger): Extension {
  const replica = randomBytes(REPLICA_BYTES);
  const publicKey = keys.trust.get('collab');
  if (!publicKey) throw new Error("the relay needs collab's public key in the trusted keys");
  const subscriptions = new Map<string, Subscription>();

  const publish = (documentName: string, kind: number, payload: Uint8Array) => {
    const header = Buffer.concat([Buffer.of(kind), replica]);
    const signature = sign(null, Buffer.concat([Buffer.from(documentName), header, payload]), keys.privateKey);
    try {
      nc.publish(subjectOf(documentName), Buffer.concat([header, payload, signature]));
    } catch (err) {
      // Past NATS's payload limit: the others get it from the stored state or their editors' resync.
      log.warn({ err, documentName, bytes: payload.byteLength }, 'not relayed');
    }
  };

  const receive = (document: Document, data: Uint8Array) => {
    const message = opened(document.name, data, publicKey);
    if (!message || replica.equals(message.replica)) return;
    if (message.kind === KIND.update) applyUpdate(document, message.payload, RELAYED);
    else if (message.kind === KIND.awareness) applyAwarenessUpdate(document.awareness, message.payload, RELAYED);
    else if (message.kind === KIND.sync) publish(document.name, KIND.update, encodeStateAsUpdate(document, message.payload));
  };

  return {
    extensionName: 'quire-nats-relay',
    async afterLoadDocument({ document, documentName }) {
      const subscription = nc.subscribe(subjectOf(documentName), {
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
    },
    async onChange({ documentName, update, transactionOrigin }) {
      if (transactionOrigin !== RELAYED) publish(documentName, KIND.update, update);
    },
    async onAwarenessUpdate({ documentName, document, added, updated, removed, transactionOrigin }) {
      if (transactionOrigin !== RELAYED) publish(documentName, KIND.awareness, encodeAwarenessUpdate(document.awareness, [...added, ...updated, ...removed]));
    },
  };
}

/** The message's kind, sender and payload, if collab signed it for this page; otherwise nothing. */
function opened(documentName: string, data: Uint8Array, publicKey: KeyObject) {
  if (data.byteLength < HEADER_BYTES + SIGNATURE_BYTES) return undefined;
  const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const header = buffer.subarray(0, HEADER_BYTES);
  const payload = buffer.subarray(HEADER_BYTES, buffer.byteLength - SIGNATURE_BYTES);
  const signature = buffer.subarray(buffer.byteLength - SIGNATURE_BYTES);
  if (!verify(null, Buffer.concat([Buffer.from(documentName), header, payload]), publicKey, signature)) return undefined;
  return { kind: header[0], replica: header.subarray(1), payload };
}
