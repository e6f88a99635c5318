// A deleted space stays restorable for 7 days, then is purged (api-reference "Limits"). The clock
// is passed in, so that tests (and the purge job) control it.

export const RESTORE_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

export function restorable(deletedAt: Date, now: Date): boolean {
  return now.getTime() - deletedAt.getTime() <= RESTORE_WINDOW_MS;
}

/** Spaces deleted before this instant are removed for good. */
export function purgeCutoff(now: Date): Date {
  return new Date(now.getTime() - RESTORE_WINDOW_MS);
}
