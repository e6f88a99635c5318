/** Timestamps as the API writes them; a missing one (never the case for stored rows) as the epoch. */
export const iso = (d: Date | undefined) => (d ?? new Date(0)).toISOString();
