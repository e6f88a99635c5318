import { useEffect, useState } from 'react';
import { HocuspocusProvider } from '@hocuspocus/provider';
import { IndexeddbPersistence } from 'y-indexeddb';
import { Doc } from 'yjs';
import { markUnsent, offlineStoreName } from '../offline.ts';

// A change request's page edited together: a provider to the collaboration server (the gateway
// passes `/collab` to it, with the session cookie), and what its state says to the writer. Every
// change is kept in this browser's IndexedDB first (the member's own database, deleted at
// sign-out), so that what was typed offline, or in a tab closed before the server had it, is sent
// when the page opens again.

/**
 * Synced with the server (which saves a pause later), sent but not yet acknowledged, or offline:
 * with every change committed to IndexedDB, or some still being written there.
 */
export type SyncState = 'saved' | 'unsynced' | 'offline' | 'keeping';

export const SYNC_LABEL: Record<SyncState, string> = {
  saved: 'Saved',
  unsynced: 'Unsynced changes',
  offline: 'Offline: changes kept on this device',
  keeping: 'Offline: keeping changes on this device…',
};

/** Whether the collaboration server answers here (asked once per page load). */
let ready: Promise<boolean> | undefined;
export const collabReady = () =>
  (ready ??= fetch('/collab/ready', { headers: { accept: 'application/json' } })
    .then(async (r) => r.ok && ((await r.json()) as { collab?: string }).collab === 'ready')
    .catch(() => false));

/** A colour per member, the same on every screen: a hue from their id. */
export function memberColor(userId: string): string {
  let hash = 0;
  for (const c of userId) hash = (hash * 31 + c.charCodeAt(0)) >>> 0;
  return `hsl(${hash % 360} 70% 45%)`;
}

/**
 * The provider of the page `name` (`<space>/<change request id>/<page>`) for `userId` while `enabled`, its sync
 * state, and whether the server lets this member write; asks before unload while changes are unsynced.
 * The server tells an open editor when their access changes (`{ access, reason }`, stateless): made
 * read-only (the change request merged or archived, the role lowered), or closed (access removed).
 * The browser going offline disconnects it at once (a socket may take long to notice), and coming
 * back online connects it again. Offline, the changes are said to be kept on this device only once
 * IndexedDB has committed them: a read of its store begun after a change waits for its write.
 */
export function useCollaboration(name: string, userId: string | undefined, enabled: boolean) {
  const [provider, setProvider] = useState<HocuspocusProvider>();
  const [state, setState] = useState<SyncState>('saved');
  const [readOnly, setReadOnly] = useState(false);
  const [refused, setRefused] = useState<string>();
  /** Why editing stopped while the page was open. */
  const [notice, setNotice] = useState<string>();
  useEffect(() => {
    if (!enabled || !userId) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/collab`;
    const document = new Doc();
    const local = new IndexeddbPersistence(offlineStoreName(userId, name), document);
    const p = new HocuspocusProvider({
      url,
      name,
      document,
      token: '',
      onAuthenticated: ({ scope }) => setReadOnly(scope === 'readonly'),
      onAuthenticationFailed: ({ reason }) => setRefused(reason),
      onStateless: ({ payload }) => {
        const told = JSON.parse(payload) as { access: 'write' | 'read' | 'none'; reason: string };
        if (told.access === 'none') return setRefused(told.reason);
        setReadOnly(told.access === 'read');
        setNotice(told.access === 'read' ? told.reason : undefined);
      },
    });
    let connected = false;
    let closed = false;
    // Changes to the page so far, and how many of them IndexedDB has committed.
    let made = 0;
    let kept = 0;
    const update = () => {
      const saved = connected && !p.hasUnsyncedChanges && p.isSynced;
      // Synced: what this device kept (typed here, or sent from an earlier tab's store) the server has.
      if (saved) markUnsent(userId, name, false);
      setState(saved ? 'saved' : !connected ? (kept < made ? 'keeping' : 'offline') : 'unsynced');
    };
    // After y-indexeddb's own listener (registered first): its write is queued before this read.
    document.on('update', (_: Uint8Array, origin: unknown) => {
      if (origin === local) return;
      // Typed here (the server's updates come with the provider as origin): the sign-out asks first until it is sent.
      if (origin !== p) markUnsent(userId, name, true);
      const upTo = ++made;
      update();
      // Before its database opens, y-indexeddb writes the whole state as it opens, before `synced`.
      void local.whenSynced.then(() => {
        if (closed || !local.db) return;
        const read = local.db.transaction('updates', 'readonly');
        read.objectStore('updates').count();
        read.oncomplete = () => {
          kept = Math.max(kept, upTo);
          update();
        };
      });
    });
    p.on('status', ({ status }: { status: string }) => {
      connected = status === 'connected';
      update();
    });
    for (const event of ['synced', 'unsyncedChanges']) p.on(event, update);
    const warn = (e: BeforeUnloadEvent) => {
      if (p.hasUnsyncedChanges) e.preventDefault();
    };
    const offline = () => p.disconnect();
    const online = () => void p.connect();
    window.addEventListener('beforeunload', warn);
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    if (!navigator.onLine) offline();
    setProvider(p);
    return () => {
      closed = true;
      window.removeEventListener('beforeunload', warn);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      p.destroy();
      void local.destroy();
      document.destroy();
      setProvider(undefined);
    };
  }, [name, userId, enabled]);
  return { provider, state, readOnly, refused, notice };
}
