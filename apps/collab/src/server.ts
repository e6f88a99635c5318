import { randomUUID } from 'node:crypto';
import { Server, type Document, type Extension } from '@hocuspocus/server';
import { applyUpdate, Doc, encodeStateAsUpdate } from 'yjs';
import { asEdited, readDocument, writeDocument } from '@quire/editor/yjs';
import { COLLAB } from '@quire/proto/limits';
import { sessionCookieName, type Caller, type Logger } from '@quire/service-kit';
import { credentialHash } from '@quire/service-kit/nats';
import { allowedOrigins, type CollabConfig } from './config.ts';
import { credentialOf, Refusal, type Credential } from './domain/credentials.ts';
import { parseDocumentName, type PageName } from './domain/names.ts';
import type { Member, Pages } from './pages.ts';
import type { Presence } from './presence.ts';

/** What a connection carries from its authentication to the hooks after it. */
export interface Context {
  member: Member;
  page: PageName;
  caller: Caller;
  /** What the connection authenticated with, asked about again when orgs says it may have ended. */
  credential: Credential;
  /** The credential's hash, as orgs' revocations name it. */
  credentialHash: string;
}

/**
 * The collaboration server: one Hocuspocus document per change request's page, opened by members
 * the gateway would accept (session cookie from the web app's origin, or an API token), read-only
 * for those who may only read; loaded from the change request's revision and saved back into it
 * as the member who edited last, a pause after edits and when the last editor leaves. The Y.Doc's
 * state is stored beside the change request with each save, and loaded again with the page, so that
 * editors reconnecting (whose Y.Doc still holds the page) merge into the same CRDT items instead of
 * adding a rebuilt copy of every block.
 */
export function collabServer(config: CollabConfig, pages: Pages, log: Logger, presence: Pick<Presence, 'extension' | 'claim' | 'here'>, extensions: Extension[] = []) {
  const origins = allowedOrigins(config);
  const cookieName = sessionCookieName(config.QUIRE_PUBLIC_URL);
  // Per loaded document: its state's size so far (an upper bound: updates merge), and the JSON last saved or loaded.
  const sizes = new WeakMap<Document, number>();
  const stored = new WeakMap<Document, string>();

  const withinSize = (document: Document, more: number) => {
    let size = (sizes.get(document) ?? 0) + more;
    if (size > COLLAB.stateBytes.max) size = encodeStateAsUpdate(document).byteLength + more;
    sizes.set(document, size);
    return size <= COLLAB.stateBytes.max;
  };

  return new Server<Context>({
    name: 'quire-collab',
    port: config.COLLAB_PORT,
    address: config.HOST,
    quiet: true,
    stopOnSignals: false,
    debounce: config.COLLAB_SAVE_AFTER_MS,
    maxDebounce: config.COLLAB_SAVE_AT_LEAST_MS,
    extensions: [...extensions, presence.extension],

    // `GET /ready` (the gateway's `/collab/ready`): the web app edits together only where this answers.
    async onRequest({ request, response }) {
      if (!(request.method === 'GET' && request.url === '/ready')) return;
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end('{"collab":"ready"}');
      // Hocuspocus stops its own answer at a rejection without a reason.
      return Promise.reject();
    },

    async onAuthenticate({ token, requestHeaders, documentName, connectionConfig }) {
      const page = parseDocumentName(documentName);
      if ('refused' in page) throw new Refusal(page.refused);
      const credential = credentialOf(token, requestHeaders, cookieName, origins);
      // Refused before asking orgs when this replica alone fills the page; the bound over every replica is claimed once the member is known.
      const full = `at most ${COLLAB.editors.max} members edit a page at once`;
      if (presence.here(documentName) >= COLLAB.editors.max) throw new Refusal(full);
      const caller = { requestId: randomUUID(), userAgent: requestHeaders.get('user-agent') ?? undefined };
      const member = await pages.admit(credential, page, caller).catch((err: unknown) => {
        if (err instanceof Refusal) throw err;
        // A service not answering is not the member's fault: said so, and their edits stay in their browser.
        log.warn({ err, documentName }, 'access not checked');
        throw new Refusal('access could not be checked (a service did not answer): try again shortly');
      });
      const seated = await presence.claim(documentName, caller.requestId).catch((err: unknown) => {
        log.warn({ err, documentName }, 'editors not counted');
        throw new Refusal("this page's editors could not be counted: try again");
      });
      if (!seated) throw new Refusal(full);
      connectionConfig.readOnly = member.access === 'read';
      return { member, page, caller: { ...caller, userId: member.userId }, credential, credentialHash: credentialHash(credential.secret) } satisfies Context;
    },

    async onLoadDocument({ context, document }) {
      const { page, caller } = context;
      const [initial, state] = await Promise.all([pages.load(page, caller), pages.editingState(page, caller)]);
      if (state.byteLength) applyUpdate(document, state);
      const json = JSON.stringify(asEdited(initial));
      if (!state.byteLength && context.member.access === 'write') {
        // The page's first state, built aside and offered: the one stored first (this, or another
        // replica's loading the page at once) is the page's, so that every replica holds the same items.
        const built = encodeStateAsUpdate(writeDocument(new Doc(), initial));
        applyUpdate(
          document,
          await pages.firstEditingState(page, built, caller).catch((err: unknown) => (log.warn({ err, documentName: document.name }, 'storing the editing state failed'), built)),
        );
      }
      // No state (a reader), or the page changed elsewhere since (the API, an update from the space):
      // brought in as a diff of the stored state, stored before anyone syncs, for the next load.
      else if (JSON.stringify(readDocument(document)) !== json) {
        writeDocument(document, initial);
        if (context.member.access === 'write')
          await pages
            .storeEditingState(page, encodeStateAsUpdate(document), caller)
            .catch((err: unknown) => log.warn({ err, documentName: document.name }, 'storing the editing state failed'));
      }
      sizes.set(document, encodeStateAsUpdate(document).byteLength);
      stored.set(document, json);
    },

    async beforeHandleMessage({ document, update }) {
      if (!withinSize(document, update.byteLength)) throw new Refusal(`the page's editing state would pass ${COLLAB.stateBytes.max} bytes`);
    },

    async onStoreDocument({ document, documentName, lastContext }) {
      const page = parseDocumentName(documentName);
      if ('refused' in page || !lastContext?.caller) return;
      const next = readDocument(document);
      const json = JSON.stringify(next);
      try {
        if (json !== stored.get(document)) await pages.save(page, next, lastContext.caller);
        stored.set(document, json);
        await pages.storeEditingState(page, encodeStateAsUpdate(document), lastContext.caller);
      } catch (err) {
        // Kept in the document: the next edit, or the last editor leaving, saves it again.
        log.warn({ err, documentName }, 'saving the page failed');
      }
    },
  });
}
