// What a member edits together is kept in this browser's IndexedDB until the server has it, one
// database per member and page: another person signing in here never sends, nor reads, it.

/** The IndexedDB database keeping `userId`'s edits of the page `name` on this device. */
export const offlineStoreName = (userId: string, name: string) => `quire-collab:${userId}:${name}`;

/**
 * Deletes every page `userId` kept on this device (at sign-out). A page still open is deleted as
 * soon as its editor closes its database (IndexedDB holds the deletion until then).
 */
export async function forgetOfflineEdits(userId: string) {
  const prefix = offlineStoreName(userId, '');
  for (const { name } of await indexedDB.databases()) if (name?.startsWith(prefix)) indexedDB.deleteDatabase(name);
}
