import { useEffect, useState } from 'react';
import { HocuspocusProvider } from '@hocuspocus/provider';
import { IndexeddbPersistence } from 'y-indexeddb';
import { Doc } from 'yjs';

// A change request's page edited together: a provider to the collaboration server (the gateway
// passes `/collab` to it, with the session cookie), and what its state says to the writer. Every
// change is kept in this browser's IndexedDB first, so that what was typed offline, or in a tab
// closed before the server had it, is sent when the page opens again.

/** Synced with the server (which saves a pause later), sent but not yet acknowledged, or offline with the changes in this tab. */
export type SyncState = 'saved' | 'unsynced' | 'offline';

export const SYNC_LABEL: Record<SyncState, string> = { saved: 'Saved', unsynced: 'Unsynced changes', offline: 'Offline: changes kept on this device' };

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
 * The provider of the page `name` (`<space>/<change request id>/<page>`) while `enabled`, its sync
 * state, and whether the server lets this member write; asks before unload while changes are unsynced.
 * The server tells an open editor when their access changes (`{ access, reason }`, stateless): made
 * read-only (the change request merged or archived, the role lowered), or closed (access removed).
 * The browser going offline disconnects it at once (a socket may take long to notice), and coming
 * back online connects it again.
 */
export function useCollaboration(name: string, enabled: boolean) {
  const [provider, setProvider] = useState<HocuspocusProvider>();
  const [state, setState] = useState<SyncState>('saved');
  const [readOnly, setReadOnly] = useState(false);
  const [refused, setRefused] = useState<string>();
  /** Why editing stopped while the page was open. */
  const [notice, setNotice] = useState<string>();
  useEffect(() => {
    if (!enabled) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/collab`;
    const document = new Doc();
    const local = new IndexeddbPersistence(`quire-collab:${name}`, document);
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
    const update = () => setState(!connected ? 'offline' : p.hasUnsyncedChanges || !p.isSynced ? 'unsynced' : 'saved');
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
      window.removeEventListener('beforeunload', warn);
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      p.destroy();
      void local.destroy();
      document.destroy();
      setProvider(undefined);
    };
  }, [name, enabled]);
  return { provider, state, readOnly, refused, notice };
}
