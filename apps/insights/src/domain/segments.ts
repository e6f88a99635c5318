/** The segment of visitors without claims: those who did not sign in through visitor auth. */
export const ANONYMOUS_TITLE = 'Anonymous visitors';

/** Segments answered at most: the busiest first. */
export const MAX_SEGMENTS = 1000;

/**
 * A segment's title from its claims: `plan: pro, role: admin` (keys in order, nested values as
 * JSON), shortened past 100 characters.
 */
export function segmentTitle(claims: Record<string, unknown>): string {
  const entries = Object.entries(claims);
  if (entries.length === 0) return ANONYMOUS_TITLE;
  const title = entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ');
  return title.length > 100 ? `${title.slice(0, 99)}…` : title;
}
