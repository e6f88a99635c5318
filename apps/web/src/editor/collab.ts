import { useEffect, useState } from 'react';
import { HocuspocusProvider } from '@hocuspocus/provider';

// A change request's page edited together: a provider to the collaboration server (the gateway
// passes `/collab` to it, with the session cookie), and what its state says to the writer.

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
 */
export function useCollaboration(name: string, enabled: boolean) {
  const [provider, setProvider] = useState<HocuspocusProvider>();
  const [state, setState] = useState<SyncState>('saved');
  const [readOnly, setReadOnly] = useState(false);
  const [refused, setRefused] = useState<string>();
  useEffect(() => {
    if (!enabled) return;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/collab`;
    const p = new HocuspocusProvider({
      url,
      name,
      token: '',
      onAuthenticated: ({ scope }) => setReadOnly(scope === 'readonly'),
      onAuthenticationFailed: ({ reason }) => setRefused(reason),
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
    window.addEventListener('beforeunload', warn);
    setProvider(p);
    return () => {
      window.removeEventListener('beforeunload', warn);
      p.destroy();
      setProvider(undefined);
    };
  }, [name, enabled]);
  return { provider, state, readOnly, refused };
}
