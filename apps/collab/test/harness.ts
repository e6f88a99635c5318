import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { createLogger, loadServiceKeys } from '@quire/service-kit';
import { testServiceKeys } from '@quire/service-kit/testing';
import { buildCollab } from '../src/app.ts';
import { loadCollabConfig } from '../src/config.ts';

/** The web app's origin as the test server is configured with it. */
export const WEB_ORIGIN = 'http://app.quire.test';

/** Where the services collab calls answer, and the prefix of their events' subjects (a test stack's, the gateway's shared one or a benchmark's). */
interface Services {
  orgs: { address: string };
  content: { address: string };
  review: { address: string };
  eventsPrefix: string;
}

/** A collaboration server over a stack's services and events (saving 100 ms after a pause); `url` is its WebSocket address. */
export async function startCollab(stack: Services, env: Record<string, string> = {}) {
  const config = loadCollabConfig({
    ORGS_URL: stack.orgs.address,
    CONTENT_URL: stack.content.address,
    REVIEW_URL: stack.review.address,
    EVENTS_SUBJECT_PREFIX: stack.eventsPrefix,
    COLLAB_PORT: '0',
    COLLAB_ORIGINS: WEB_ORIGIN,
    COLLAB_SAVE_AFTER_MS: '100',
    COLLAB_SAVE_AT_LEAST_MS: '1000',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const keys = testServiceKeys();
  const collab = await buildCollab(
    config,
    loadServiceKeys('collab', { QUIRE_SERVICE_KEY: keys.privateKeys.collab, QUIRE_SERVICE_TRUST: keys.trust }),
    createLogger('collab', 'silent'),
  );
  await collab.server.listen();
  return {
    url: `ws://127.0.0.1:${collab.server.address.port}`,
    server: collab.server,
    pages: collab.pages,
    presence: collab.presence,
    stop: collab.close,
  };
}

export type Collab = Awaited<ReturnType<typeof startCollab>>;

/** What a client learns of its connection: refused (with the reason), or authenticated (read-only or not). */
export type Outcome = { refused: string } | { scope: string };

/**
 * A real provider in Node over `ws`, as a member: `token` (an API token), and headers its socket
 * sends as a browser's would (`origin`, `cookie`); `document` is the Y.Doc it edits (a new one unless
 * given, as a reloaded tab keeps its own).
 */
export function member(url: string, name: string, token: string, headers: Record<string, string> = { origin: WEB_ORIGIN }, document = new Y.Doc()) {
  const socket = class extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, { headers });
    }
  };
  // What the server told it besides the document (access changes), as sent.
  const notices: string[] = [];
  let settle: (o: Outcome) => void;
  const outcome = new Promise<Outcome>((resolve) => (settle = resolve));
  const websocketProvider = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: socket, maxAttempts: 1 });
  const provider = new HocuspocusProvider({
    name,
    document,
    token,
    websocketProvider,
    onAuthenticated: ({ scope }) => settle({ scope }),
    onAuthenticationFailed: ({ reason }) => settle({ refused: reason }),
    onStateless: ({ payload }) => notices.push(payload),
  });
  provider.attach();
  const synced = new Promise<void>((resolve) => (provider.isSynced ? resolve() : provider.on('synced', () => resolve())));
  return {
    document,
    provider,
    outcome,
    synced,
    notices,
    text: () => document.getXmlFragment('default').toString(),
    close() {
      provider.destroy();
      websocketProvider.destroy();
    },
  };
}

/** Resolves when `check` holds, polling; fails with `what` after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export type Member = ReturnType<typeof member>;
