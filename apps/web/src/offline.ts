// What a member edits together is kept in this browser's IndexedDB until the server has it, one
// database per member and page: another person signing in here never sends, nor reads, it.

const STORE = 'quire-collab:';
/** Marks, in localStorage (read at once, unlike IndexedDB), the pages with changes the server has not acknowledged. */
const UNSENT = 'quire-collab-unsent:';

/** The IndexedDB database keeping `userId`'s edits of the page `name` on this device. */
export const offlineStoreName = (userId: string, name: string) => `${STORE}${userId}:${name}`;

/** Notes whether `userId`'s page `name` holds changes not yet sent (kept across reloads and closed tabs). */
export function markUnsent(userId: string, name: string, unsent: boolean) {
  try {
    if (unsent) localStorage.setItem(UNSENT + offlineStoreName(userId, name), '1');
    else localStorage.removeItem(UNSENT + offlineStoreName(userId, name));
  } catch {
    // Storage refused (private mode, full): the sign-out then does not ask.
  }
}

/** How many of `userId`'s pages on this device hold changes the server does not have yet. */
export function unsentPages(userId: string): number {
  return unsentKeys(userId).length;
}

const unsentKeys = (userId: string) => {
  const prefix = UNSENT + offlineStoreName(userId, '');
  return Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)).filter((k): k is string => !!k?.startsWith(prefix));
};

/**
 * Deletes every page `userId` kept on this device (at sign-out), and those an earlier version
 * kept under the page's name alone (`quire-collab:<page>`, no member). A page still open is
 * deleted as soon as its editor closes its database (IndexedDB holds the deletion until then).
 */
export async function forgetOfflineEdits(userId: string) {
  for (const key of unsentKeys(userId)) localStorage.removeItem(key);
  const mine = offlineStoreName(userId, '');
  for (const { name } of await indexedDB.databases()) {
    if (name?.startsWith(mine) || (name?.startsWith(STORE) && !name.includes(':', STORE.length))) indexedDB.deleteDatabase(name);
  }
}
